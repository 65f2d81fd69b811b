/**
 * Sends an alert through every configured notifier at once. A notifier that
 * fails or takes longer than `timeoutMs` is logged and given up: alerts never
 * fail, or hold, the run or the server.
 */
import type { Logger } from "../log.js";
import type { Alert } from "./alert.js";
import { emailNotifier } from "./email.js";
import type { Notifier } from "./notifier.js";
import type { NotifySettings } from "./settings.js";
import { webhookNotifier } from "./webhook.js";

export type { Alert } from "./alert.js";
export { runAlert, staleAlert, alertText } from "./alert.js";

export function notifiersOf(settings: NotifySettings): Notifier[] {
  return [...settings.webhooks.map(webhookNotifier), ...(settings.email ? [emailNotifier(settings.email, settings.timeoutMs)] : [])];
}

/** Resolves when every notifier delivered, failed or timed out; never rejects. Returns how many delivered. */
export async function notify(settings: NotifySettings | undefined, alert: Alert, logger: Logger): Promise<number> {
  if (!settings || (settings.events && !settings.events.includes(alert.event))) return 0;
  const results = await Promise.all(
    notifiersOf(settings).map(async (notifier) => {
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new Error(`no answer within ${settings.timeoutMs} ms`));
        }, settings.timeoutMs);
      });
      try {
        await Promise.race([notifier.send(alert, controller.signal), timeout]);
        logger.info("alert sent", { event: alert.event, via: notifier.name });
        return true;
      } catch (error) {
        logger.warn("alert not sent", { event: alert.event, via: notifier.name, error: (error as Error).message });
        return false;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return results.filter(Boolean).length;
}
