/**
 * The socket side of `serve`, for one site (server.ts) or many shops (shops.ts): one access-log
 * line per request, a 500 for an answer that threw, and a shutdown that stops accepting, lets
 * downloads in progress finish within a grace period, then cuts them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PharmafeedError } from "../errors.js";
import type { Logger } from "../log.js";
import { countBody, logWhenDone, type AccessRecord } from "./access-log.js";

export interface Answerer {
  /** Takes every channel token out of a text (paths.ts TokenList). */
  redact(text: string): string;
  /** Sets record.path before its first await (the access log names it), then answers. */
  answer(req: IncomingMessage, res: ServerResponse, record: AccessRecord): Promise<void>;
}

export interface Listening {
  server: Server;
  /** http://host:port. */
  url: string;
  /** Stops accepting and waits for the downloads in progress, at most graceMs (then cuts them). */
  close(graceMs: number): Promise<void>;
}

export async function listen(app: Answerer, options: { host?: string | undefined; port?: number | undefined; logger: Logger; accessLog: Logger }): Promise<Listening> {
  const { logger, accessLog } = options;
  let closing = false;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    const record: AccessRecord = { bytes: 0, path: "" };
    countBody(req, res, record);
    logWhenDone(accessLog, req, res, record, started, app.redact);
    // A keep-alive client must not hold the process open after a shutdown began.
    if (closing) res.setHeader("Connection", "close");
    app.answer(req, res, record).catch((error: unknown) => {
      logger.error("request failed", { path: record.path, error: app.redact((error as Error).message) });
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("internal error\n");
      } else res.destroy();
    });
  };
  const server = createServer({ requestTimeout: 60_000, headersTimeout: 30_000, keepAliveTimeout: 5_000 }, handle);
  // A client that stops reading for two minutes holds a socket and a file read for nothing: cut it.
  server.setTimeout(120_000);

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(new PharmafeedError("CONFIG_INVALID", `cannot listen on ${options.host ?? "127.0.0.1"}:${options.port ?? 8080}: ${error.code ?? error.message}`, { cause: error })),
    );
    server.listen(options.port ?? 8080, options.host ?? "127.0.0.1", resolve);
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`;

  const close = async (graceMs: number): Promise<void> => {
    closing = true;
    const done = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<"cut">((resolve) => (timer = setTimeout(() => resolve("cut"), graceMs)));
    if ((await Promise.race([done, grace])) === "cut") {
      logger.warn("grace period over: cutting the downloads still in progress", { graceMs });
      server.closeAllConnections();
      await done;
    }
    clearTimeout(timer);
  };
  return { server, url, close };
}

/** A port that cannot be had closes what was opened for it (timers, files) before the error goes up. */
export async function listenOrClose<T>(opened: { close(): Promise<void> }, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    await opened.close();
    throw error;
  }
}
