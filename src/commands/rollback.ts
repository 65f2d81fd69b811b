/**
 * `pharmafeed rollback --channel X [--to RUN]`: puts a kept version of the channel's feed back as the
 * served file (src/history/rollback.ts), pushes it to the channel's destinations, and pins it until
 * `pharmafeed rollback --release --channel X`. Holds the output lock, as a run does.
 */
import type { Argv, CommandModule } from "yargs";
import { loadConfig } from "../config/load.js";
import { MANIFEST_FILE } from "../core/layout.js";
import { PharmafeedError } from "../errors.js";
import { createLogger, type LogFormat } from "../log.js";
import { SHOP_OPTION } from "./flags.js";

export interface RollbackArgs {
  config: string;
  /** A config with shops: the shop (docs/shops.md). */
  shop?: string;
  channel: string;
  to?: string;
  release?: boolean;
  output?: string;
  "log-format": LogFormat;
}

export const rollbackCommand: CommandModule<object, RollbackArgs> = {
  command: "rollback",
  describe: "Put a kept version of a channel's feed back as the served file, and pin it until --release",
  builder: (yargs) =>
    yargs
      .option("channel", { type: "string", demandOption: true, describe: "the channel whose feed is put back" })
      .option("to", { type: "string", describe: 'the version: "previous" (default), a time as diff and rollback print it, a run\'s start time, or its beginning (2026-11-27), or a digest prefix (see pharmafeed diff)' })
      // No default: yargs counts a default as given, and --to would always conflict with it.
      .option("release", { type: "boolean", describe: "unpin the channel: the next run publishes its file again" })
      .option("config", { type: "string", default: "config/pharmafeed.json", describe: "main config file" })
      .option("shop", SHOP_OPTION)
      .option("output", { type: "string", describe: "output directory (default: from the config)" })
      .option("log-format", { choices: ["plain", "json"] as const, default: "plain" as LogFormat, describe: "log lines on stderr" })
      .conflicts("release", "to") as unknown as Argv<RollbackArgs>,
  handler: async (args) => {
    const logger = createLogger({ format: args["log-format"] });
    const config = await loadConfig(args.config, { ...(args.shop === undefined ? {} : { shop: args.shop }), only: [args.channel], checkCredentials: false, push: true, notify: false });
    const channel = config.channels.find((c) => c.name === args.channel);
    if (!channel) throw new PharmafeedError("USAGE", `no channel named "${args.channel}"; known: ${config.channelNames.join(", ")}`);
    const outputDir = args.output ?? config.outputDir;
    const [{ acquireLock }, history, { badReference }] = await Promise.all([import("../publish/lock.js"), import("../history/rollback.js"), import("../history/versions.js")]);
    // A bad argument is refused before anything is touched, as yargs refuses its own.
    const bad = args.to === undefined ? undefined : badReference(args.to);
    if (bad !== undefined) throw new PharmafeedError("USAGE", `--to: ${bad}`);
    await history.assertOutputDir(outputDir);
    const lock = await acquireLock(outputDir, { ...(config.lock ? { staleAfterMs: config.lock.staleAfterMs } : {}) });
    // Said when manifest.json could not be read: what was changed is what serve answers from that copy.
    const readFrom = (from: string) => {
      if (from !== MANIFEST_FILE) logger.warn(`${MANIFEST_FILE} is missing or unreadable; read the newest readable copy in history/ instead`, { from });
    };
    try {
      if (args.release === true) {
        const { was, from } = await history.release({ outputDir, channel: channel.name, now: new Date() });
        readFrom(from);
        process.stdout.write(was ? `released: ${channel.name} (pinned since ${was.at} by \`${was.command}\`): the next run publishes its file again\n` : `${channel.name} is not pinned: nothing to release\n`);
        return;
      }
      const now = new Date();
      // A config of shops needs --shop in every command it prints (or a copied one is refused).
      const shop = config.shopId === undefined ? [] : ["--shop", config.shopId];
      const command = ["pharmafeed", "rollback", ...shop, "--channel", channel.name, ...(args.to === undefined ? [] : ["--to", args.to])].join(" ");
      const done = await history.rollBack({ outputDir, channel: channel.name, gzip: channel.gzip, ...(args.to === undefined ? {} : { to: args.to }), command, now });
      readFrom(done.from);
      const v = done.version;
      process.stdout.write(
        `put back: ${channel.name}: the version published at ${v.publishedAt} (${v.items} items, sha256 ${v.sha256.slice(0, 12)}) replaces the one published at ${done.replaced.publishedAt} (${done.replaced.items} items)\n` +
          `pinned: runs build ${channel.name} but do not publish it until: ${["pharmafeed", "rollback", ...shop, "--release", "--channel", channel.name].join(" ")}\n`,
      );
      if (channel.destinations.length === 0) return;
      // As a run's destinations hook: the file put back goes where the published one went.
      const { pushFromManifest } = await import("../destinations/after-publish.js");
      const { recordLine } = await import("../publish/destination-record.js");
      // The rollback's own copy in history/ (named by its time) takes the uploads too.
      const pushed = await pushFromManifest({ config, outputDir, manifest: done.manifest, logger, dryRun: false, force: false, write: (m) => history.saveRolledBack(outputDir, m, now.toISOString()) });
      for (const record of pushed.result.records.get(channel.name) ?? []) process.stdout.write(`upload: ${channel.name}: ${recordLine(record)}\n`);
      if (pushed.result.problems.length > 0) {
        throw new PharmafeedError("RUN_DEGRADED", `the version is put back locally, but: ${pushed.result.problems.map((p) => `${p.channel ?? "run"}: ${p.reason}`).join("; ")} (pharmafeed push --channel ${channel.name} tries again)`);
      }
    } finally {
      await lock.release();
    }
  },
};
