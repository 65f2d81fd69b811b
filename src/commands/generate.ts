/**
 * `pharmafeed generate`: the nightly job. Loads and checks the config, streams
 * the catalogue once into every channel, publishes what passes the gate, writes
 * the manifest, prints a summary. Exit codes: see EXIT in errors.ts.
 */
import { join, relative } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { loadConfig } from "../config/load.js";
import { PharmafeedError } from "../errors.js";
import { createLogger, type LogFormat } from "../log.js";
import type { GenerateResult } from "../pipeline/run.js";
import { formatSummary } from "../pipeline/summary.js";
import { integerOption, shopPatterns, workersFlag } from "./flags.js";
import { parseShard } from "../config/shops.js";
import { WOULD_PUBLISH } from "../publish/run-state.js";
import { endRun, runOutcome } from "./_run-end.js";
import { type GenerateArgs, runFlags } from "./_generate-args.js";

export type { GenerateArgs };

export { runOutcome };
import { readFallback } from "../runwatch/fallback.js";
import { beginWatch, type DiedRun } from "../runwatch/watch.js";
import { alertCannotStart, alertDied, alertRecovered } from "../runwatch/alerts.js";
import { withInterrupts } from "./interrupts.js";
import { generateShops } from "./_generate-shops.js";

/** The summary's first line when the last run died without finishing. */
export function diedLine(died: DiedRun): string {
  return `Last run: died at ${died.diedAt} without finishing (started ${died.startedAt}); this run did its work again.`;
}


export function generateOptions<T>(yargs: Argv<T>) {
  return yargs
    .option("config", { type: "string", default: "config/pharmafeed.json", describe: "main config file" })
    .option("channel", { type: "string", array: true, describe: "only these channels (repeatable)" })
    .option("output", { type: "string", describe: "output directory (default: from the config)" })
    .option("dry-run", { type: "boolean", default: false, describe: "map and write into <output>/preview/ to inspect, publish nothing" })
    .option("force", { type: "boolean", default: false, describe: "publish even when the gate would stop a channel, and use an offers file that would be refused" })
    .option("retire", {
      type: "string",
      array: true,
      describe: "stop serving this channel's file on purpose: a channel the config no longer names, or one whose file name changes (repeatable; see docs/served-feeds.md)",
    })
    .option(
      "workers",
      integerOption("workers", workersFlag(), {
        describe: "worker threads that map and render, 0 to 4 per core (0: none; default: one per core up to 4, fewer under a memory limit, from 5,000 products)",
      }),
    )
    .option("source", { choices: ["full", "delta", "snapshot"] as const, describe: "full: the whole catalogue; delta: changes since the snapshot; snapshot: no catalogue request (default: the config's source.sync.default)" })
    .option("reuse", { type: "boolean", default: true, describe: "a refresh copies the rows of products that cannot have changed from the last run's files (--no-reuse: map every product)" })
    .option("log-format", { choices: ["plain", "json"] as const, default: "plain" as LogFormat, describe: "log lines on stderr" })
    .option("shops", { type: "string", array: true, coerce: shopPatterns, describe: "a config with shops: only these shops (names or globs, repeatable; docs/shops.md)" })
    .option("shard", {
      type: "string",
      requiresArg: true,
      coerce: (value: string) => parseShard(value),
      describe: "a config with shops: the shops of shard i of n, e.g. 2/4 (a shop stays on its shard; docs/shops.md)",
    })
    .option("catalogue-only", { type: "boolean", describe: "a config with shops: read the catalogue into the shared snapshot and map no shop (the shards then run --source snapshot)" });
}

/** Prints the summary and turns channel outcomes into the run's error (and exit code). */
export function reportRun(
  result: GenerateResult,
  write: (text: string) => void = (t) => void process.stdout.write(t),
  extra: { previousDied?: DiedRun | undefined; ran?: ReadonlySet<string> } = {},
): void {
  const { previousDied } = extra;
  write(`${previousDied ? `${diedLine(previousDied)}\n\n` : ""}${formatSummary(result.manifest)}\n${fileList(result, extra.ran)}`);
  runOutcome(result);
}

/**
 * "Published:" with only what this run published (not a feed held since the config dropped it, nor
 * a channel left out by --channel, whose files stay as the last run left them), or for a dry run
 * "Would publish:" with the preview files.
 */
function fileList({ manifest, outputDir, previewDir }: GenerateResult, ran?: ReadonlySet<string>): string {
  const held = new Set((manifest.problems ?? []).flatMap((p) => (p.kind === "served" && p.channel ? [p.channel] : [])));
  const thisRun = (name: string) => (ran ? ran.has(name) : !held.has(name));
  const path = (dir: string, file: string) => relative(process.cwd(), join(dir, file)) || file;
  if (previewDir) {
    const files = manifest.channels.filter((c) => c.published === WOULD_PUBLISH).map((c) => `  ${path(previewDir, c.file)}`);
    return `\nWould publish (nothing was published; the files are in ${path(previewDir, ".")} to inspect):\n${files.length > 0 ? files.join("\n") : "  (none)"}\n`;
  }
  const files = manifest.channels.filter((c) => c.published === true && thisRun(c.name)).map((c) => `  ${path(outputDir, c.file)}${c.live?.gzip ? ` (+ .gz)` : ""}`);
  return files.length > 0 ? `\nPublished:\n${files.join("\n")}\n` : "";
}

export const generateCommand: CommandModule<object, GenerateArgs> = {
  command: "generate",
  describe: "Stream the catalogue once into every configured feed and publish them",
  builder: (yargs) => generateOptions(yargs) as unknown as Argv<GenerateArgs>,
  handler: async (args) => {
    const logger = createLogger({ format: args["log-format"] });
    const dryRun = args["dry-run"];
    // The run record (src/runwatch/): written before the config is read, so that a run that cannot
    // start, or dies without a word, is still seen by serve, the next run and the alerts.
    const fallback = await readFallback(args.config, args.output);
    if (fallback.many) return generateShops(args, logger, fallback);
    for (const flag of ["shops", "shard", "catalogue-only"] as const) {
      if (args[flag] !== undefined) throw new PharmafeedError("USAGE", `--${flag}: ${fallback.configFile} names no shops (docs/shops.md)`);
    }
    const watch = dryRun ? undefined : await beginWatch({ outputDir: fallback.outputDir, ...(fallback.lockStaleAfterMs ? { staleAfterMs: fallback.lockStaleAfterMs } : {}), logger });
    let config;
    try {
      config = await loadConfig(args.config, { only: args.channel ?? [] });
    } catch (error) {
      if (watch) {
        if (watch.previousDied) await alertDied({ ...fallback, logger }, watch.previousDied);
        await alertCannotStart({ ...fallback, logger }, error);
        await watch.end(error);
      }
      throw error;
    }
    const previousDied = watch?.previousDied;
    if (previousDied) await alertDied({ shop: config.shop.name, notify: config.notify, configFile: config.file, logger }, previousDied);
    const { runGenerate } = await import("../pipeline/run.js");
    let result: GenerateResult | undefined;
    let outcome: unknown;
    try {
      result = await withInterrupts((signal) =>
        runGenerate({
          config,
          ...(args.output ? { outputDir: args.output } : {}),
          ...runFlags(args, logger, signal),
        }),
      );
      // JSON logs end with the summary event instead of the table (endRun).
      if (logger.format === "json") runOutcome(result);
      else reportRun(result, undefined, { previousDied, ran: new Set(config.channels.map((c) => c.name)) });
    } catch (error) {
      outcome = error;
      if (previousDied && logger.format !== "json") process.stdout.write(`${diedLine(previousDied)}\n`);
    }
    await watch?.end(outcome);
    // The all-clear: after a run that failed, died or left feeds out, this one published everything.
    if (outcome === undefined && watch?.lastRunBad) await alertRecovered({ shop: config.shop.name, notify: config.notify, logger });
    const thrown = await endRun({ logger, config, dryRun, ...(result ? { result } : {}), ...(outcome === undefined ? {} : { outcome }), ...(previousDied ? { previousDied } : {}) });
    if (thrown !== undefined) throw thrown;
  },
};
