/**
 * `pharmafeed serve`: answers the marketplaces' fetches of the published feeds
 * (and processed images) from the output directory, until SIGTERM or SIGINT;
 * then stops accepting, lets the downloads in progress finish within the
 * grace period and exits 0. Settings: the config's `serve` section; flags win.
 * A config of many shops: every shop under /<shop>/ on one port (serve/shops/server.ts).
 */
import { join, resolve } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { loadConfig, loadShops, type LoadedShops } from "../config/load.js";
import type { Env } from "../config/parse.js";
import type { LoadedConfig } from "../config/types.js";
import { PharmafeedError } from "../errors.js";
import { statusProblems, sharedSecretProblems, type OperatorSecrets, type ShopSecrets } from "../serve/check.js";
import { followParent } from "../serve/parent-watch.js";
import type { FeedServer, ServeOptions } from "../serve/server.js";
import type { Reloaded } from "../serve/site.js";
import { createLogger, type Logger, type LogFormat } from "../log.js";
import { integerOption, PORT } from "./flags.js";

export interface ServeArgs {
  config: string;
  output?: string;
  host?: string;
  port?: number;
  "log-format"?: LogFormat;
}

/** Resolves on the first SIGTERM or SIGINT. */
/** SIGTERM, SIGINT, SIGHUP (the terminal closed), or the npm process that started serve gone (serve/parent-watch.ts). */
function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const signals = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
    const stop = (signal: string) => {
      for (const s of signals) process.off(s, stop);
      unfollow();
      resolve(signal);
    };
    for (const s of signals) process.on(s, stop);
    const unfollow = followParent(() => stop("parent process gone (started by npm)"));
  });
}

/** Catalogue credentials are not needed to serve; the serve secrets are (and are checked). */
const serveLoad = (env: Env | undefined) => ({ checkCredentials: false, serve: true, ...(env ? { env } : {}) }) as const;

function channelsOf(config: LoadedConfig): ServeOptions["channels"] {
  return config.channels.map((c) => ({ name: c.name, preset: c.preset.name, access: c.access, mapping: c.mapping }));
}

/** What a site takes of its config read again after a run: channels and the status page's login. */
function reloadedOf(config: LoadedConfig): Reloaded {
  return { channels: channelsOf(config), status: config.serve.status };
}

/** What one output directory is served with: a config without shops, or one shop of many. */
function siteOptions(config: LoadedConfig, outputDir: string, logger: Logger, reload: () => Promise<LoadedConfig>): ServeOptions {
  return {
    outputDir,
    channels: channelsOf(config),
    publicBaseUrl: config.publicBaseUrl,
    ...(config.serve.status ? { status: config.serve.status } : {}),
    shopName: config.shop.name,
    // A shop of many: its page's suggested commands name the main file without --shop yet (notify/next-steps.ts quotes one word).
    configFile: config.file,
    logger,
    stateSaveMs: config.serve.stateSaveMs,
    maxFeedAgeHours: config.serve.maxFeedAgeHours,
    ...(config.lock ? { runStaleAfterMs: config.lock.staleAfterMs } : {}),
    ...(config.notify ? { notify: config.notify } : {}),
    // A run that adds or renames a channel, or changes the page's login: read from the config then.
    reloadConfig: async () => reloadedOf(await reload()),
  };
}

async function startShops(args: ServeArgs, loaded: LoadedShops, logger: Logger, env: Env | undefined): Promise<FeedServer> {
  const { startShopsServer } = await import("../serve/shops/server.js");
  const outputDir = args.output === undefined ? loaded.outputDir : resolve(args.output);
  const settings = loaded.shops[0]!.serve;
  const admit = admission(loaded);
  // One shop's config as serve reads it after start (after each of its runs, and for a shop refused at start):
  // loaded as at start, and held to the same rule as the shops served (no shared secret, not the operator's).
  const loadShop = async (id: string) => admit(await loadConfig(args.config, { ...serveLoad(env), shop: id }));
  const siteOf = (shop: LoadedConfig): ServeOptions => {
    const id = shop.shopId!;
    return siteOptions(shop, args.output === undefined ? shop.outputDir : join(outputDir, id), logger, () => loadShop(id));
  };
  return startShopsServer({
    outputDir,
    shops: loaded.shops.map((shop) => ({ id: shop.shopId!, options: siteOf(shop) })),
    refused: loaded.refused.map((r) => ({ id: r.name, error: r.error.message })),
    // A refused shop fixed since.
    retry: async (id) => siteOf(await loadShop(id)),
    operator: loaded.status,
    host: args.host ?? settings.host,
    port: args.port ?? settings.port,
    logger,
    accessLog: logger,
    maxFeedAgeHours: settings.maxFeedAgeHours,
  });
}

/** What serve/check.ts compares across shops: feed tokens, feeds' Basic credentials, status logins. */
function secretsOf(shop: LoadedConfig): ShopSecrets {
  return { id: shop.shopId!, file: shop.shopFile ?? shop.file, status: shop.serve.status, channels: shop.channels.map((c) => ({ name: c.name, access: c.access })) };
}

const operatorOf = (loaded: LoadedShops): OperatorSecrets => ({ file: loaded.file, status: loaded.status });

/**
 * The check of start (checkShops) for a shop's config read while serving: compared with the
 * secrets the other shops are served with now (each taken as its config is admitted, so a
 * shop's new token counts from its reload on) and the operator's. Throws CONFIG_INVALID: the
 * caller keeps the rules known before (a reload) or the shop refused (a retry).
 */
function admission(loaded: LoadedShops): (shop: LoadedConfig) => LoadedConfig {
  const served = new Map(loaded.shops.map((shop) => [shop.shopId!, secretsOf(shop)]));
  return (shop) => {
    const secrets = secretsOf(shop);
    // The shop read again last: each line names its file, not the other shop's.
    const others = [...served.values()].filter((s) => s.id !== secrets.id);
    const problems = sharedSecretProblems([...others, secrets], operatorOf(loaded));
    if (problems.length > 0) throw new PharmafeedError("CONFIG_INVALID", `configuration refused (serve):\n  ${problems.join("\n  ")}`, { context: { file: secrets.file } });
    served.set(secrets.id, secrets);
    return shop;
  };
}

/** Many shops: one whose config loads is needed (the main file's serve settings come with it), and the operator's password must hold. */
function checkShops(loaded: LoadedShops): void {
  const problems = statusProblems(loaded.file, loaded.status);
  problems.push(...sharedSecretProblems(loaded.shops.map(secretsOf), operatorOf(loaded)));
  if (loaded.shops.length === 0) problems.push(...loaded.refused.map((r) => r.error.message));
  if (problems.length === 0) return;
  const why = loaded.shops.length === 0 ? "no shop's config loads" : "configuration refused";
  throw new PharmafeedError("CONFIG_INVALID", `${why} (serve):\n  ${problems.join("\n  ")}`, { context: { file: loaded.file } });
}

export interface Serving {
  server: FeedServer;
  logger: Logger;
  /** serve.shutdownGraceMs. */
  shutdownGraceMs: number;
}

/** Loads the config (one shop or many) and listens: the command without its signals (tests call it with an `env`). */
export async function startServe(args: ServeArgs, options: { env?: Env; logger?: Logger } = {}): Promise<Serving> {
  const { env } = options;
  const loaded = await loadShops(args.config, serveLoad(env));
  if (loaded.many) checkShops(loaded);
  const config = loaded.shops[0]!;
  const logger = options.logger ?? createLogger({ format: args["log-format"] ?? config.serve.logFormat });
  let server: FeedServer;
  if (loaded.many) {
    server = await startShops(args, loaded, logger, env);
    logger.info("serving", { url: server.url, output: args.output ?? loaded.outputDir, shops: loaded.shops.map((s) => s.shopId!).join(","), overview: loaded.status !== undefined });
  } else {
    const { startServer } = await import("../serve/server.js");
    server = await startServer({
      ...siteOptions(config, args.output ?? config.outputDir, logger, () => loadConfig(args.config, serveLoad(env))),
      host: args.host ?? config.serve.host,
      port: args.port ?? config.serve.port,
      accessLog: logger,
    });
    logger.info("serving", { url: server.url, output: args.output ?? config.outputDir, statusPage: config.serve.status !== undefined });
  }
  return { server, logger, shutdownGraceMs: config.serve.shutdownGraceMs };
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: "serve",
  describe: "Serve the published feeds (and images) to the marketplaces over HTTP",
  builder: (yargs) =>
    yargs
      .option("config", { type: "string", default: "config/pharmafeed.json", describe: "main config file" })
      .option("output", { type: "string", describe: "output directory (default: from the config; many shops: each under <output>/<shop>)" })
      .option("host", { type: "string", describe: "address to listen on (default: serve.host, 127.0.0.1)" })
      .option("port", integerOption("port", PORT, { describe: "port (default: serve.port, 8080; 0 picks a free one)" }))
      .option("log-format", { choices: ["plain", "json"] as const, describe: "log lines on stderr (default: serve.logFormat)" }) as unknown as Argv<ServeArgs>,
  handler: async (args) => {
    const { server, logger, shutdownGraceMs } = await startServe(args);
    const received = await stopSignal();
    logger.info("shutting down: finishing the downloads in progress", { signal: received, graceMs: shutdownGraceMs });
    await server.close(shutdownGraceMs);
    logger.info("stopped");
  },
};
