/**
 * `pharmafeed serve`: answers the marketplaces' fetches of the published feeds
 * (and processed images) from the output directory, until SIGTERM or SIGINT;
 * then stops accepting, lets the downloads in progress finish within the
 * grace period and exits 0. Settings: the config's `serve` section; flags win.
 */
import type { Argv, CommandModule } from "yargs";
import { loadConfig } from "../config/load.js";
import { followParent } from "../serve/parent-watch.js";
import { createLogger, type LogFormat } from "../log.js";
import { integerOption, PORT } from "./flags.js";

interface ServeArgs {
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

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: "serve",
  describe: "Serve the published feeds (and images) to the marketplaces over HTTP",
  builder: (yargs) =>
    yargs
      .option("config", { type: "string", default: "config/pharmafeed.json", describe: "main config file" })
      .option("output", { type: "string", describe: "output directory (default: from the config)" })
      .option("host", { type: "string", describe: "address to listen on (default: serve.host, 127.0.0.1)" })
      .option("port", integerOption("port", PORT, { describe: "port (default: serve.port, 8080; 0 picks a free one)" }))
      .option("log-format", { choices: ["plain", "json"] as const, describe: "log lines on stderr (default: serve.logFormat)" }) as unknown as Argv<ServeArgs>,
  handler: async (args) => {
    // Catalogue credentials are not needed to serve; the serve secrets are (and are checked).
    const config = await loadConfig(args.config, { checkCredentials: false, serve: true });
    const logger = createLogger({ format: args["log-format"] ?? config.serve.logFormat });
    const signal = stopSignal();
    const { startServer } = await import("../serve/server.js");
    const server = await startServer({
      outputDir: args.output ?? config.outputDir,
      host: args.host ?? config.serve.host,
      port: args.port ?? config.serve.port,
      channels: config.channels.map((c) => ({ name: c.name, preset: c.preset.name, access: c.access, mapping: c.mapping })),
      publicBaseUrl: config.publicBaseUrl,
      ...(config.serve.status ? { status: config.serve.status } : {}),
      shopName: config.shop.name,
      configFile: config.file,
      logger,
      accessLog: logger,
      stateSaveMs: config.serve.stateSaveMs,
      maxFeedAgeHours: config.serve.maxFeedAgeHours,
      ...(config.lock ? { runStaleAfterMs: config.lock.staleAfterMs } : {}),
      ...(config.notify ? { notify: config.notify } : {}),
      // A run that adds or renames a channel: its access rule is read from the config then.
      reloadChannels: async () => {
        const again = await loadConfig(args.config, { checkCredentials: false, serve: true });
        return again.channels.map((c) => ({ name: c.name, preset: c.preset.name, access: c.access, mapping: c.mapping }));
      },
    });
    logger.info("serving", { url: server.url, output: args.output ?? config.outputDir, statusPage: config.serve.status !== undefined });
    const received = await signal;
    logger.info("shutting down: finishing the downloads in progress", { signal: received, graceMs: config.serve.shutdownGraceMs });
    await server.close(config.serve.shutdownGraceMs);
    logger.info("stopped");
  },
};
