/**
 * Local receivers for the alert tests: an HTTP server that keeps every POST
 * (or never answers, or refuses), and an SMTP server (smtp-server) that keeps
 * every message. Both listen on port 0 of 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface HttpReceiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** `mode`: answer 200, answer 500, or never answer (a hung receiver). */
export async function startReceiver(mode: "ok" | "error" | "hang" = "ok"): Promise<HttpReceiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8").on("data", (c: string) => (text += c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(text) as unknown });
      if (mode === "hang") return;
      res.writeHead(mode === "ok" ? 200 : 500, { "Content-Type": "text/plain" });
      res.end(mode === "ok" ? "ok" : "invalid_payload");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Mail {
  from: string;
  to: string[];
  subject: string;
  /** The body, quoted-printable decoded. */
  text: string;
  raw: string;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = Buffer.from(text.replace(/=\r?\n/g, ""), "latin1").toString("latin1");
  return Buffer.from(bytes.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), "latin1").toString("utf8");
}

export async function startSmtp(): Promise<{ port: number; mails: Mail[]; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const split = raw.indexOf("\r\n\r\n");
        const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
        const header = (name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(head)?.[1] ?? "";
        const body = raw.slice(split + 4);
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: header("Subject"),
          text: /quoted-printable/i.test(header("Content-Transfer-Encoding")) ? decodeQuotedPrintable(body) : body,
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
