/**
 * Alerts and config errors say what went wrong without the secret (issue 22.7): a refused webhook
 * URL or header is not echoed by the config error; a receiver that echoes the URL's path does not
 * get it into the log; a silent SMTP server does not hold the process past the time limit.
 */
import { join } from "node:path";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import type { PharmafeedError } from "../../src/errors.js";
import { createLogger } from "../../src/log.js";
import { emailNotifier } from "../../src/notify/email.js";
import { notify, type Alert } from "../../src/notify/index.js";
import { NotifySettings } from "../../src/notify/settings.js";
import { answerForLog } from "../../src/notify/webhook.js";
import { TEST_ENV, VALID_MAIN, VALID_TREE, writeTree } from "../config/tree.js";

const MARK = "SECRETMARK";
const alert: Alert = { event: "run-failed", title: "Pharmacie Test: run failed", what: "w", channels: [], next: "n", shop: "Pharmacie Test", host: "h", at: "2026-11-27T02:00:00Z", language: "en" };

async function refusal(notifySection: unknown): Promise<string> {
  const root = await writeTree({ ...VALID_TREE, "config/pharmafeed.json": { ...VALID_MAIN, notify: notifySection } });
  try {
    await loadConfig(join(root, "config/pharmafeed.json"), { env: TEST_ENV });
  } catch (error) {
    expect((error as PharmafeedError).code).toBe("CONFIG_INVALID");
    return (error as Error).message;
  }
  throw new Error("the config was accepted");
}

describe("config errors on secrets", () => {
  it.each([
    ["a short value that is no URL", { webhooks: [{ url: `x${MARK}` }] }, "notify.webhooks[0].url"],
    ["a Slack URL with a wrong scheme", { webhooks: [{ url: `ftp://hooks.slack.com/services/T0${MARK}/B0${MARK}/xx${MARK}` }] }, "notify.webhooks[0].url"],
    ["a header that is not a string", { webhooks: [{ url: "https://hooks.example/x", headers: { authorization: { bearer: MARK } } }] }, "notify.webhooks[0].headers.authorization"],
    ["an SMTP password that is not a string", { email: { host: "smtp.example", from: "a@b.example", to: ["c@d.example"], password: [MARK] } }, "notify.email.password"],
  ])("%s: the path and what was wrong, never the value", async (_, section, path) => {
    const message = await refusal(section);
    expect(message).toContain(path);
    expect(message).toContain("not shown: it is a secret");
    expect(message).not.toContain(MARK);
    expect(message).not.toContain("slack.com/services");
  });

  it("other values are still shown", async () => {
    expect(await refusal({ timeoutMs: "soon" })).toContain('got "soon"');
  });
});

describe("a receiver's answer in the log", () => {
  const settings = { url: `https://hooks.example/services/T0123/B0456/${MARK}abcdef`, format: "json" as const, headers: { authorization: `Bearer tok-${MARK}` } };

  it("is shown when it says something of its own, not when it repeats part of the URL or a header", () => {
    expect(answerForLog("invalid_payload", settings)).toBe("invalid_payload");
    expect(answerForLog(`no route for POST /services/T0123/B0456/${MARK}abcdef`, settings)).not.toContain(MARK);
    expect(answerForLog(`bad token ${MARK.slice(0, 9)}`, settings)).not.toContain(MARK.slice(0, 8));
    expect(answerForLog(`forbidden: Bearer tok-${MARK}`, settings)).not.toContain(MARK);
    expect(answerForLog("a\u0000b", settings)).toBe("ab");
  });

  it("end to end: a receiver that echoes its path gets no piece of it into the log", async () => {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(404, { "content-type": "text/plain" }).end(`Cannot POST ${req.url}`));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/T0123/${MARK}`;
      const lines: string[] = [];
      const logger = createLogger({ format: "json", write: (line) => void lines.push(line) });
      await expect(notify(NotifySettings.parse({ webhooks: [{ url }] }), alert, logger)).resolves.toBe(0);
      const log = lines.join("\n");
      expect(log).toContain("HTTP 404");
      expect(log).not.toContain(MARK);
      expect(log).not.toContain("/hooks/");
    } finally {
      server.close();
    }
  });
});

describe("a silent SMTP server", () => {
  it("is left at once when the time limit ends the send: no socket kept open for it", async () => {
    await import("nodemailer"); // loaded before, so that the send starts at once
    // Half-open like a server that never answers nor closes: only the client can end the connection.
    const held: Socket[] = [];
    let connected: () => void = () => {};
    const connection = new Promise<void>((resolve) => (connected = resolve));
    let clientEnded: () => void = () => {};
    const ended = new Promise<void>((resolve) => (clientEnded = resolve));
    const server = createServer({ allowHalfOpen: true }, (socket) => {
      held.push(socket);
      socket.on("error", () => {});
      socket.on("end", () => clientEnded());
      connected();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const sockets = () => process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap").length;
    const before = sockets();
    try {
      const notifier = emailNotifier({ host: "127.0.0.1", port: (server.address() as AddressInfo).port, secure: false, requireTLS: false, from: "a@b.example", to: ["c@d.example"] }, 600_000);
      const limit = new AbortController();
      const sent = notifier.send(alert, limit.signal);
      await connection;
      limit.abort(new Error("the time limit")); // what notify() does when timeoutMs passes
      await expect(sent).rejects.toThrow();
      await ended;
      await new Promise((resolve) => setImmediate(resolve));
      // Only the server's end is left; before, the client's stayed open 5 s for the server to close.
      expect(sockets() - before).toBe(1);
    } finally {
      for (const socket of held) socket.destroy();
      server.close();
    }
  });
});
