/**
 * One output directory as `serve` answers it, without a socket: its live feeds, fetch state,
 * stale-feeds watch and routes (routes.ts). server.ts puts one site on a port; shops.ts mounts
 * one per shop under /<shop>/, the prefix taken off, so both answer through the same routes.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { realpath } from "node:fs/promises";
import { PharmafeedError } from "../errors.js";
import { silentLogger, type Logger } from "../log.js";
import { DEFAULT_MAX_FEED_AGE_HOURS } from "../publish/run-state.js";
import type { NotifySettings } from "../notify/settings.js";
import { StaleWatch } from "../notify/stale-watch.js";
import type { AccessRecord } from "./access-log.js";
import { healthOf, type Health } from "./health.js";
import { LiveFeeds } from "./live-feeds.js";
import { type Target, TokenList } from "./paths.js";
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
   * Reads the config again when a run writes a new manifest: serve follows channels added,
   * renamed or removed, and the status page's login. Throws when the config is refused: what
   * was known is kept. Without it the channels and login given are kept.
   */
  reloadConfig?: () => Promise<Reloaded>;
  /** Where the stale-feeds alert goes (the config's `notify`); checked every notify.staleCheckMinutes (default 10). */
  notify?: NotifySettings;
  /** DNS for verifying marketplace fetchers (bot-verify.ts); the system's by default, a stub in tests. */
  resolver?: Resolver;
}

/** What a config read again after a run gives a site. */
export interface Reloaded {
  channels: ServeOptions["channels"];
  /** The status page's credentials now (none: only the operator of many shops sees the page). */
  status?: { user: string; password: string } | undefined;
}

/** What a site of many shares with the others (shops.ts). */
export interface SiteMount {
  /** "/<shop>": the status page's links start with it. */
  base?: string;
  /** The operator's credentials, let in on the status page beside the shop's own. */
  operator?: { user: string; password: string } | undefined;
  /** Every shop's tokens, for the one access log. */
  tokens?: TokenList;
}

export interface Site {
  /** Answers a request for `target` (parsed from the path under the site). */
  answer(req: IncomingMessage, res: ServerResponse, target: Target, record: AccessRecord): Promise<void>;
  /** What /healthz says now. */
  health(): Promise<Health>;
  readonly tokens: TokenList;
  /** Runs the stale-feeds check now (it also runs on its timer). */
  checkStale(): Promise<void>;
  /** Saves the fetch state, stops the watch and closes every file (once no download reads it). */
  close(): Promise<void>;
}

export async function openSite(options: ServeOptions, mount: SiteMount = {}): Promise<Site> {
  const logger = options.logger ?? silentLogger;
  let outputReal: string;
  try {
    outputReal = await realpath(options.outputDir);
  } catch (cause) {
    throw new PharmafeedError("CONFIG_INVALID", `output directory ${options.outputDir} does not exist (run generate first)`, { cause, context: { file: options.outputDir } });
  }
  const statusChannels = (channels: ServeOptions["channels"]) => channels.map((c) => ({ name: c.name, preset: c.preset, access: c.access.mode }));
  const mappingsOf = (channels: ServeOptions["channels"]) => new Map(channels.flatMap((c) => (c.mapping ? [[c.name, c.mapping] as const] : [])));
  const reloadConfig = options.reloadConfig;
  // Every log line goes through this: no channel token is ever written in clear.
  const tokens = mount.tokens ?? new TokenList();
  tokens.add(options.channels);
  const now = options.now ?? (() => new Date());
  const maxFeedAgeHours = options.maxFeedAgeHours ?? DEFAULT_MAX_FEED_AGE_HOURS;
  const live = new LiveFeeds(
    outputReal,
    new Map(options.channels.map((c) => [c.name, c.access])),
    logger,
    reloadConfig &&
      (async () => {
        const { channels, status } = await reloadConfig();
        // The status page lists the config's channels: the new ones too; a changed password replaces the old one.
        ctx.status = status;
        ctx.channels = statusChannels(channels);
        ctx.mappings = mappingsOf(channels);
        tokens.add(channels);
        return new Map(channels.map((c) => [c.name, c.access]));
      }),
    options.runStaleAfterMs,
  );
  const state = new FetchState(outputReal, logger);
  await Promise.all([live.current(), state.load()]);
  state.startSaving(options.stateSaveMs ?? 60_000);
  const staleWatch = new StaleWatch({ manifest: async () => (await live.current()).manifest, maxFeedAgeHours, shop: options.shopName, notify: options.notify, logger, now });
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
    ...(mount.base ? { base: mount.base } : {}),
    ...(mount.operator ? { operator: mount.operator } : {}),
    logger,
    now,
    maxFeedAgeHours,
    verifier: new BotVerifier(options.resolver),
  };
  return {
    answer: (req, res, target, record) => route(req, res, target, ctx, record),
    health: () => healthOf(live, now(), maxFeedAgeHours),
    tokens,
    checkStale: () => staleWatch.check(),
    close: async () => {
      await staleWatch.stop();
      await state.stop();
      await live.close();
    },
  };
}
