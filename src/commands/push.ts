/**
 * `pharmafeed push`: uploads the last published files of each channel to its
 * destinations again, after an outage (what the destinations hold already is
 * skipped, unless --force). --dry-run says what would go. Holds the run lock,
 * rewrites manifest.json with the records; exits 8 (RUN_DEGRADED) when a
 * destination failed, and alerts as a run would.
 */
import type { Argv, CommandModule } from "yargs";
import { loadConfig } from "../config/load.js";
import { createLogger, type LogFormat } from "../log.js";
import { SHOP_OPTION } from "./flags.js";

export interface PushArgs {
  config: string;
  /** A config with shops: the shop (docs/shops.md). */
  shop?: string;
  channel?: string[];
  output?: string;
  "dry-run": boolean;
  force: boolean;
  "log-format": LogFormat;
}

export const pushCommand: CommandModule<object, PushArgs> = {
  command: "push",
  describe: "Upload the last published feeds to their destinations (S3, SFTP, FTP) again",
  builder: (yargs) =>
    yargs
      .option("config", { type: "string", default: "config/pharmafeed.json", describe: "main config file" })
      .option("shop", SHOP_OPTION)
      .option("channel", { type: "string", array: true, describe: "only these channels (repeatable)" })
      .option("output", { type: "string", describe: "output directory (default: from the config)" })
      .option("dry-run", { type: "boolean", default: false, describe: "say what would be uploaded, connect to nothing" })
      .option("force", { type: "boolean", default: false, describe: "upload even files the destination holds already (same digest)" })
      .option("log-format", { choices: ["plain", "json"] as const, default: "plain" as LogFormat, describe: "log lines on stderr" }) as unknown as Argv<PushArgs>,
  handler: async (args) => {
    const logger = createLogger({ format: args["log-format"] });
    const config = await loadConfig(args.config, { ...(args.shop === undefined ? {} : { shop: args.shop }), only: args.channel ?? [], checkCredentials: false, push: true, notify: false });
    // By hand, in a shell without the webhooks' variables: the push goes, its alerts do not (said).
    for (const line of config.skipped ?? []) logger.warn("no alerts from this push", { why: line });
    // Nothing configured is nothing to do, not a command-line mistake (exit 0, one line).
    if (!config.channels.some((c) => c.destinations.length > 0)) {
      process.stdout.write(`nothing to push: no ${args.channel ? "chosen " : ""}channel of ${config.file} has destinations (see docs/destinations.md)\n`);
      return;
    }
    const { runPush } = await import("../destinations/push-command.js");
    const outcome = await runPush({ config, outputDir: args.output ?? config.outputDir, dryRun: args["dry-run"], force: args.force, logger });
    process.stdout.write(outcome.text);
    if (outcome.error) throw outcome.error;
  },
};
