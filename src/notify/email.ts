/**
 * E-mail notifier over SMTP with nodemailer (a maintained client: STARTTLS,
 * AUTH, timeouts). One message per alert, plain text.
 */
import { alertText } from "./alert.js";
import type { Notifier } from "./notifier.js";
import type { EmailSettings } from "./settings.js";

export function emailNotifier(settings: EmailSettings, timeoutMs: number): Notifier {
  return {
    name: `email ${settings.host}:${settings.port}`,
    async send(alert, signal) {
      // Loaded by the first e-mail only (~14 MB resident): most runs send none, and a refresh's memory is counted.
      const { createTransport } = await import("nodemailer");
      const transport = createTransport({
        host: settings.host,
        port: settings.port,
        secure: settings.secure,
        requireTLS: settings.requireTLS,
        ...(settings.user !== undefined ? { auth: { user: settings.user, pass: settings.password ?? "" } } : {}),
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      });
      const abort = () => transport.close();
      signal.addEventListener("abort", abort, { once: true });
      try {
        await transport.sendMail({ from: settings.from, to: settings.to, subject: alert.title, text: alertText(alert) });
      } finally {
        signal.removeEventListener("abort", abort);
        transport.close();
      }
    },
  };
}
