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
        // Closing waits up to 5 s by default for the server to close its side: a silent server
        // then held the process that long past the time limit. Nothing is left to say to it.
        socketCloseTimeout: 0,
      });
      try {
        // The signal (the time limit) ends the send and its connection at once; transport.close()
        // alone does not touch a connection in use.
        await transport.sendMail({ from: settings.from, to: settings.to, subject: alert.title, text: alertText(alert), signal });
      } finally {
        transport.close();
      }
    },
  };
}
