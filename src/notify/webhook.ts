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
      const answer = (await body.text()).slice(0, 200);
      if (statusCode < 200 || statusCode >= 300) throw new Error(`HTTP ${statusCode}${answer ? `: ${answer}` : ""}`);
    },
  };
}
