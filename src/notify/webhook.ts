/**
 * Webhook notifier: one POST of JSON per alert, in the receiver's format.
 * - json: the Alert itself (plus `text`), for scripts and incident tools.
 * - slack: {"text": ...}, what Slack incoming webhooks take
 *   (https://api.slack.com/messaging/webhooks).
 * - teams: a message with one Adaptive Card, what Teams Workflows webhooks and
 *   incoming webhooks take (https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook).
 * The URL is a secret (it is the credential): logs name its host only.
 */
import { request } from "undici";
import { dropControlChars } from "../mapping/controls.js";
import { alertText, type Alert } from "./alert.js";
import { ALERT_WORDS } from "./alert-words.js";
import type { Notifier } from "./notifier.js";
import type { WebhookSettings } from "./settings.js";

export function webhookPayload(alert: Alert, format: WebhookSettings["format"]): unknown {
  const text = alertText(alert);
  switch (format) {
    case "json":
      return { ...alert, text };
    case "slack":
      return { text: `*${alert.title}*\n${text}` };
    case "teams":
      return {
        type: "message",
        attachments: [
          {
            contentType: "application/vnd.microsoft.card.adaptive",
            contentUrl: null,
            content: {
              $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
              type: "AdaptiveCard",
              version: "1.4",
              body: [
                { type: "TextBlock", text: alert.title, weight: "Bolder", size: "Medium", wrap: true },
                { type: "TextBlock", text: alert.what, wrap: true },
                ...(alert.channels.length > 0 ? [{ type: "FactSet", facts: alert.channels.map((c) => ({ title: c.name, value: c.reason })) }] : []),
                { type: "TextBlock", text: `${ALERT_WORDS[alert.language].whatToDo}: ${alert.next}`, wrap: true },
                { type: "TextBlock", text: `Host ${alert.host}, ${alert.at}`, isSubtle: true, wrap: true },
              ],
              ...(alert.statusUrl ? { actions: [{ type: "Action.OpenUrl", title: ALERT_WORDS[alert.language].statusPage, url: alert.statusUrl }] } : {}),
            },
          },
        ],
      };
  }
}

/** The parts of a webhook's settings that are the credential: the URL's path, query and user, the headers' values. */
function secretPieces(settings: WebhookSettings): string[] {
  const url = new URL(settings.url);
  const pieces = [url.pathname, url.search, url.username, url.password, ...Object.values(settings.headers ?? {})];
  const decoded = pieces.map((piece) => {
    try {
      return decodeURIComponent(piece);
    } catch {
      return piece;
    }
  });
  return [...new Set([...pieces, ...decoded])].filter((piece) => piece.length >= 4 && piece !== "/");
}

/**
 * The receiver's answer as the log may show it: its first 200 characters, without control
 * characters, or nothing when it repeats 8 characters in a row of the URL's path, query or a
 * header (a receiver may echo the path it was called on, and the path is the credential).
 */
export function answerForLog(answer: string, settings: WebhookSettings): string {
  const text = dropControlChars(answer).slice(0, 200).trim();
  const lower = text.toLowerCase();
  for (const piece of secretPieces(settings)) {
    const width = Math.min(8, piece.length);
    for (let at = 0; at + width <= piece.length; at++) {
      if (lower.includes(piece.slice(at, at + width).toLowerCase())) return "(the answer is not shown: it repeats part of the webhook's URL or headers)";
    }
  }
  return text;
}

export function webhookNotifier(settings: WebhookSettings): Notifier {
  const host = new URL(settings.url).host;
  return {
    name: `webhook ${settings.format} ${host}`,
    async send(alert, signal) {
      const { statusCode, body } = await request(settings.url, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", "user-agent": "pharmafeed-alerts", ...settings.headers },
        body: JSON.stringify(webhookPayload(alert, settings.format)),
        signal,
      });
      // Always consume the body, or the connection is held.
      const answer = answerForLog(await body.text(), settings);
      if (statusCode < 200 || statusCode >= 300) throw new Error(`HTTP ${statusCode}${answer ? `: ${answer}` : ""}`);
    },
  };
}
