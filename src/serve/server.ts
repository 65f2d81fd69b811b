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
import { DEFAULT_MAX_FEED_AGE_HOURS } from "../publish/run-state.js";
import type { NotifySettings } from "../notify/settings.js";
import { StaleWatch } from "../notify/stale-watch.js";
import { logWhenDone, type AccessRecord } from "./access-log.js";
import { LiveFeeds } from "./live-feeds.js";
import { loggablePath, parseTarget, tokenRedactor } from "./paths.js";
import { route, type RouteContext } from "./routes.js";
import { FetchState } from "./state.js";
import { BotVerifier, type Resolver } from "./bot-verify.js";
import type { StatusChannel } from "./status/page.js";
import type { ChannelMapping } from "../mapping/settings.js";
import type { AccessConfig } from "../config/schema.js";

export interface ServeOptions {
  /** The config file, absolute: the status page's suggested commands name it. */
  configFile?: string;
  /** lock.staleAfterMs: a run record silent for longer is a run that died (publish/failure-record.ts). */
  runStaleAfterMs?: number;
  outputDir: string;
  /** `mapping`: the channel's settings, for the reasons in words of the status page's search. */
  channels: readonly (Omit<StatusChannel, "access"> & { access: AccessConfig; mapping?: ChannelMapping })[];
  /** output.publicBaseUrl: the status page shows each feed's full URL from it. */
  publicBaseUrl?: string | undefined;
  /** Credentials of the status page; without them `/` answers 404. */
  status?: { user: string; password: string };
  shopName: string;
  /** Server events (start, shutdown, problems). */
  logger?: Logger;
  /** One line per request. */
  accessLog?: Logger;
  stateSaveMs?: number;
  now?: () => Date;
  /** serve.maxFeedAgeHours: /healthz says stale and /monitor answers 503 beyond it. */
  maxFeedAgeHours?: number;
  /**
   * Reads the config's channels again when a run writes a new manifest (serve
   * follows channels added, renamed or removed); without it the channels given are kept.
   */
  reloadChannels?: () => Promise<ServeOptions["channels"]>;
  /** Where the stale-feeds alert goes (the config's `notify`); checked every notify.staleCheckMinutes (default 10). */
  notify?: NotifySettings;
  /** DNS for verifying marketplace fetchers (bot-verify.ts); the system's by default, a stub in tests. */
  resolver?: Resolver;
}

export interface FeedServer {
  readonly server: Server;
  /** http://host:port, once listening. */
  readonly url: string;
  close(graceMs?: number): Promise<void>;
  /** Runs the stale-feeds check now (it also runs on its timer). */
  checkStale(): Promise<void>;
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
  const statusChannels = (channels: ServeOptions["channels"]) => channels.map((c) => ({ name: c.name, preset: c.preset, access: c.access.mode }));
  const mappingsOf = (channels: ServeOptions["channels"]) => new Map(channels.flatMap((c) => (c.mapping ? [[c.name, c.mapping] as const] : [])));
  const reloadChannels = options.reloadChannels;
  // Every log line goes through this: no channel token is ever written in clear. Tokens of
  // channels a reload adds join the list; those of removed channels stay (they are still secrets).
  const tokens = new Set<string>();
  const tokensOf = (channels: ServeOptions["channels"]) => {
    for (const c of channels) if (c.access.mode === "token") tokens.add(c.access.token);
    return tokenRedactor([...tokens]);
  };
  let redact = tokensOf(options.channels);
  const live = new LiveFeeds(
    outputReal,
    new Map(options.channels.map((c) => [c.name, c.access])),
    logger,
    reloadChannels &&
      (async () => {
        const channels = await reloadChannels();
        // The status page lists the config's channels: the new ones too.
        ctx.channels = statusChannels(channels);
        ctx.mappings = mappingsOf(channels);
        redact = tokensOf(channels);
        return new Map(channels.map((c) => [c.name, c.access]));
      }),
    options.runStaleAfterMs,
  );
  const state = new FetchState(outputReal, logger);
  await Promise.all([live.current(), state.load()]);
  state.startSaving(options.stateSaveMs ?? 60_000);
  const staleWatch = new StaleWatch({
    manifest: async () => (await live.current()).manifest,
    maxFeedAgeHours: options.maxFeedAgeHours ?? DEFAULT_MAX_FEED_AGE_HOURS,
    shop: options.shopName,
    notify: options.notify,
    logger,
    now: options.now ?? (() => new Date()),
  });
  staleWatch.start((options.notify?.staleCheckMinutes ?? 10) * 60_000);
  const ctx: RouteContext = {
    outputReal,
    live,
    state,
    channels: statusChannels(options.channels),
    mappings: mappingsOf(options.channels),
    publicBaseUrl: options.publicBaseUrl,
    status: options.status,
    shopName: options.shopName,
    ...(options.configFile ? { configFile: options.configFile } : {}),
    logger,
    now: options.now ?? (() => new Date()),
    maxFeedAgeHours: options.maxFeedAgeHours ?? DEFAULT_MAX_FEED_AGE_HOURS,
    verifier: new BotVerifier(options.resolver),
  };

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
      await staleWatch.stop();
      await state.stop();
      await live.close();
    })());
  return { server, url, close, checkStale: () => staleWatch.check() };
}
