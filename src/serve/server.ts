/**
 * `pharmafeed serve` as a library: a node:http server over an output
 * directory. start() reads the manifest and the saved fetch state, then
 * listens; close() stops accepting, lets downloads in progress finish within a
 * grace period (then cuts them), saves the state and closes every file.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { realpath } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { PharmafeedError } from "../errors.js";
import { silentLogger, type Logger } from "../log.js";
import { logWhenDone, type AccessRecord } from "./access-log.js";
import { LiveFeeds } from "./live-feeds.js";
import { loggablePath, parseTarget, tokenRedactor } from "./paths.js";
import { route, type RouteContext } from "./routes.js";
import { FetchState } from "./state.js";
import { BotVerifier, type Resolver } from "./bot-verify.js";
import type { StatusChannel } from "./status-page.js";
import type { AccessConfig } from "../config/schema.js";

export interface ServeOptions {
  outputDir: string;
  channels: readonly (Omit<StatusChannel, "access"> & { access: AccessConfig })[];
  /** Credentials of the status page; without them `/` answers 404. */
  status?: { user: string; password: string };
  shopName: string;
  /** Server events (start, shutdown, problems). */
  logger?: Logger;
  /** One line per request. */
  accessLog?: Logger;
  stateSaveMs?: number;
  now?: () => Date;
  /** DNS for verifying marketplace fetchers (bot-verify.ts); the system's by default, a stub in tests. */
  resolver?: Resolver;
}

export interface FeedServer {
  readonly server: Server;
  /** http://host:port, once listening. */
  readonly url: string;
  close(graceMs?: number): Promise<void>;
}

export async function startServer(options: ServeOptions & { host?: string; port?: number }): Promise<FeedServer> {
  const logger = options.logger ?? silentLogger;
  const accessLog = options.accessLog ?? silentLogger;
  let outputReal: string;
  try {
    outputReal = await realpath(options.outputDir);
  } catch (cause) {
    throw new PharmafeedError("CONFIG_INVALID", `output directory ${options.outputDir} does not exist (run generate first)`, { cause, context: { file: options.outputDir } });
  }
  const live = new LiveFeeds(outputReal, new Map(options.channels.map((c) => [c.name, c.access])), logger);
  const state = new FetchState(outputReal, logger);
  await Promise.all([live.current(), state.load()]);
  state.startSaving(options.stateSaveMs ?? 60_000);
  const ctx: RouteContext = {
    outputReal,
    live,
    state,
    channels: options.channels.map((c) => ({ name: c.name, preset: c.preset, access: c.access.mode })),
    status: options.status,
    shopName: options.shopName,
    logger,
    now: options.now ?? (() => new Date()),
    verifier: new BotVerifier(options.resolver),
  };

  // Every log line goes through this: no channel token is ever written in clear.
  const redact = tokenRedactor(options.channels.flatMap((c) => (c.access.mode === "token" ? [c.access.token] : [])));
  let closing = false;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    const target = parseTarget(req.url);
    const record: AccessRecord = { bytes: 0, path: loggablePath(req.url, target, redact) };
    logWhenDone(accessLog, req, res, record, started, redact);
    // A keep-alive client must not hold the process open after a shutdown began.
    if (closing) res.setHeader("Connection", "close");
    route(req, res, target, ctx, record).catch((error: unknown) => {
      logger.error("request failed", { path: record.path, error: redact((error as Error).message) });
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

  let closed: Promise<void> | undefined;
  const close = (graceMs = 30_000): Promise<void> =>
    (closed ??= (async () => {
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
      await state.stop();
      await live.close();
    })());
  return { server, url, close };
}
