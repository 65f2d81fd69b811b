/**
 * `generate` for a config with `shops` (docs/shops.md): one catalogue read for every shop, and per
 * shop what a one-shop run does with its outcome (its run record, summary, alerts to its own
 * receivers in its language). The run's exit code: 0 when every shop is ok; the shops' own code
 * when they all failed alike; otherwise degraded (8), naming the shops that need someone.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { FAILURE_FILE, MANIFEST_FILE } from "../core/layout.js";
import { ShopName } from "../config/schema.js";
import { selectShops, shardOf } from "../config/shops.js";
import { loadShops, type LoadedShops } from "../config/load.js";
import type { LoadedConfig } from "../config/types.js";
import { exitCodeFor, isPharmafeedError, PharmafeedError } from "../errors.js";
import { type LogFields, type Logger, withFields } from "../log.js";
import type { GenerateResult, ShopOutcome } from "../pipeline/run.js";
import { formatSummary } from "../pipeline/summary.js";
import { WOULD_PUBLISH } from "../publish/run-state.js";
import { alertCannotStart, alertDied, alertRecovered } from "../runwatch/alerts.js";
import type { Fallback } from "../runwatch/fallback.js";
import { beginWatch, type RunWatch } from "../runwatch/watch.js";
import { endRun, runOutcome } from "./_run-end.js";
import { type GenerateArgs, runFlags } from "./_generate-args.js";
import { withInterrupts } from "./interrupts.js";

/** What became of one shop: ok, or the error its run ends with. */
export interface ShopVerdict {
  name: string;
  title: string;
  result?: GenerateResult;
  error?: unknown;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0]!;
}

/** A refused config's problems (file, JSON path, what is wrong): its message's lines after the first, which only counts them. */
function configProblems(error: unknown): string[] {
  if (!isPharmafeedError(error, "CONFIG_INVALID")) return [];
  return error.message.split("\n").slice(1).map((l) => l.trim()).filter((l) => l !== "");
}

/** `configuration refused (N problems):` and the problems, one a line, as config/parse.ts' refused() says them. */
function refusedText(problems: readonly string[]): string {
  return `configuration refused (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n  ${problems.join("\n  ")}`;
}

/** The shops that need someone first, then the others; one line each. */
export function shopsLines(verdicts: readonly ShopVerdict[]): string {
  const bad = verdicts.filter((v) => v.error !== undefined);
  const lines = [`Shops: ${verdicts.length}, ${verdicts.length - bad.length} ok${bad.length > 0 ? `, ${bad.length} need${bad.length === 1 ? "s" : ""} someone` : ""}`];
  for (const v of bad) {
    const code = isPharmafeedError(v.error) ? v.error.code : "UNEXPECTED";
    lines.push(`  ${v.name}: ${code} (exit ${exitCodeFor(v.error)}): ${firstLine(v.error)}`);
    // A refused config's first line only counts its problems: each one (file, JSON path, what is wrong) under it.
    lines.push(...configProblems(v.error).map((l) => `    ${l}`));
  }
  for (const v of verdicts.filter((v) => v.error === undefined)) lines.push(`  ${v.name}: ok`);
  return lines.join("\n");
}

/** The run's error: none when every shop is ok; theirs when all failed with one code; else degraded. */
export function shopsOutcome(verdicts: readonly ShopVerdict[]): PharmafeedError | undefined {
  const bad = verdicts.filter((v) => v.error !== undefined);
  if (bad.length === 0) return undefined;
  const codes = new Set(bad.map((v) => exitCodeFor(v.error)));
  const names = bad.map((v) => `${v.name} (${isPharmafeedError(v.error) ? v.error.code : "UNEXPECTED"})`).join(", ");
  if (bad.length === verdicts.length && codes.size === 1 && isPharmafeedError(bad[0]!.error)) {
    // Refused configs: every shop's problems, where the first shop's first line ("(1 problem):") said none of them.
    const problems = bad.flatMap((v) => configProblems(v.error));
    return new PharmafeedError(bad[0]!.error.code, `every shop: ${names}: ${problems.length > 0 ? refusedText(problems) : firstLine(bad[0]!.error)}`);
  }
  return new PharmafeedError("RUN_DEGRADED", `${bad.length} of ${verdicts.length} shop${verdicts.length === 1 ? "" : "s"} need someone: ${names}`);
}

function publishedList({ manifest, outputDir, previewDir }: GenerateResult): string {
  const path = (dir: string, file: string) => relative(process.cwd(), join(dir, file)) || file;
  const files = previewDir
    ? manifest.channels.filter((c) => c.published === WOULD_PUBLISH).map((c) => `  ${path(previewDir, c.file)}`)
    : manifest.channels.filter((c) => c.published === true).map((c) => `  ${path(outputDir, c.file)}${c.live?.gzip ? " (+ .gz)" : ""}`);
  return files.length > 0 ? `${previewDir ? "Would publish" : "Published"}:\n${files.join("\n")}\n` : "";
}

/** Every selected shop of `loaded` with the output folder --output moves them to. */
function withOutput(loaded: LoadedShops, output: string | undefined): { shops: LoadedConfig[]; root: string } {
  if (output === undefined) return { shops: loaded.shops, root: loaded.outputDir };
  return { shops: loaded.shops.map((s) => ({ ...s, outputDir: join(output, s.shopId!) })), root: output };
}

/**
 * The main file refused refuses every shop before any work. Under cron only the exit code and the
 * log said so, while each shop's status page, /healthz and /monitor went on showing its last run as
 * if this one had not been due: the shops of this run that have run here before (a folder with a
 * manifest or a run record; this --shops and --shard's) get the run record a refused config of one
 * shop gets, and the main file's receivers one alert. A shop that never ran has no page to correct.
 */
async function recordRefusedMain(root: string, select: Parameters<typeof selectShops>[2], fallback: Fallback, logger: Logger, error: unknown): Promise<void> {
  const folders = await shopFolders(root);
  let chosen: string[];
  try {
    chosen = [...selectShops(fallback.configFile, folders, select)];
  } catch {
    // --shops names no shop that ran here: no page shows one of them.
    chosen = [];
  }
  for (const name of chosen) {
    const watch = await beginWatch({ outputDir: join(root, name), ...(fallback.lockStaleAfterMs ? { staleAfterMs: fallback.lockStaleAfterMs } : {}), logger });
    // As a run that starts would: the shop's last run died without a word, said once.
    if (watch.previousDied) await alertDied({ ...fallback, shop: name, logger: withFields(logger, { shop: name }) }, watch.previousDied);
    await watch.end(error);
  }
  await alertCannotStart({ ...fallback, logger }, error);
}

/** The folders under `root` that are a shop's output: a shop's name, with a manifest or a run record in it. */
async function shopFolders(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const names = entries.filter((e) => e.isDirectory() && ShopName.safeParse(e.name).success).map((e) => e.name);
  return names.filter((name) => existsSync(join(root, name, MANIFEST_FILE)) || existsSync(join(root, name, FAILURE_FILE))).sort();
}

export async function generateShops(args: GenerateArgs, logger: Logger, fallback: Fallback): Promise<void> {
  const dryRun = args["dry-run"];
  const shard = args.shard;
  const catalogueOnly = args["catalogue-only"] === true;
  // --catalogue-only maps no shop: every shop is loaded (the main file's source is theirs), none selected.
  const select = catalogueOnly ? {} : { ...(args.shops ? { names: args.shops } : {}), ...(shard ? { shard } : {}) };
  let loaded: LoadedShops;
  try {
    loaded = await loadShops(args.config, { only: args.channel ?? [], select });
  } catch (error) {
    if (!dryRun && !catalogueOnly && isPharmafeedError(error, "CONFIG_INVALID")) await recordRefusedMain(args.output ?? fallback.outputDir, select, fallback, logger, error);
    throw error;
  }
  if (loaded.shops.length === 0 && loaded.refused.length === 0) {
    // A shard that holds no shop (fewer shops than shards, or a --shops glob on another shard): nothing to do is no failure.
    process.stdout.write(`${nothingToDo(loaded, args.shops, shard)}\n`);
    return;
  }
  // Shops --shops names that this shard does not map: said, not skipped without a word (a likely slip).
  if (args.shops && shard) {
    const { elsewhere } = onOtherShards(loaded, args.shops, shard);
    if (elsewhere !== "") logger.warn(`selected shops mapped by other shards, not by this one: ${elsewhere}`, {});
  }
  const { shops, root } = withOutput(loaded, args.output);
  const verdicts = new Map<string, ShopVerdict>();
  // A shop refused by its own file: recorded where serve and the next run look, alerted, the others go on
  // (by the runs that map shops: a --catalogue-only read before them would alert it twice a night).
  for (const r of catalogueOnly ? [] : loaded.refused) {
    const outputDir = join(root, r.name);
    verdicts.set(r.name, { name: r.name, title: r.name, error: r.error });
    if (dryRun) continue;
    const watch = await beginWatch({ outputDir, ...(fallback.lockStaleAfterMs ? { staleAfterMs: fallback.lockStaleAfterMs } : {}), logger });
    // Its own notify section cannot be trusted from a refused file: the main file's receivers, in the shop's language when it wrote one.
    const notify = fallback.notify && r.language ? { ...fallback.notify, language: r.language } : fallback.notify;
    await alertCannotStart({ shop: r.name, configFile: r.file, notify, notifyUnreadable: fallback.notifyUnreadable, logger: withFields(logger, { shop: r.name }) }, r.error);
    await watch.end(r.error);
  }
  const run = catalogueOnly ? [] : shops;
  const watches = new Map<LoadedConfig, RunWatch>();
  for (const config of dryRun ? [] : run) {
    const watch = await beginWatch({ outputDir: config.outputDir, ...(config.lock ? { staleAfterMs: config.lock.staleAfterMs } : {}), logger });
    watches.set(config, watch);
    if (watch.previousDied) await alertDied({ shop: config.shop.name, notify: config.notify, configFile: config.file, logger }, watch.previousDied);
  }
  const { runShops } = await import("../pipeline/run.js");
  const main = shops[0];
  if (!main) {
    if (catalogueOnly) throw noShopLoads(loaded);
    // Every selected shop refused by its own file: summed up as any run is, its problems said, not left in run-failure.json alone.
    return summarise(loaded.names.flatMap((n) => verdicts.get(n) ?? []), logger, false);
  }
  let outcomes: ShopOutcome[];
  try {
    outcomes = await withInterrupts((signal) =>
      runShops({
        shops: run,
        sourceDir: root,
        mainConfig: main,
        ...runFlags(args, logger, signal),
      }),
    );
  } catch (error) {
    // The catalogue-only read failed, or the shared part did before any shop could (the snapshot's lock): every shop's run says so.
    if (run.length === 0) throw error;
    outcomes = run.map((config) => ({ config, error }));
  }
  for (const { config, result, error } of outcomes) {
    const name = config.shopId!;
    let outcome = error;
    if (result && outcome === undefined) {
      try {
        runOutcome(result);
      } catch (e) {
        outcome = e;
      }
    }
    verdicts.set(name, { name, title: config.shop.name, ...(result ? { result } : {}), ...(outcome === undefined ? {} : { error: outcome }) });
    const watch = watches.get(config);
    await watch?.end(outcome);
    if (outcome === undefined && watch?.lastRunBad) await alertRecovered({ shop: config.shop.name, notify: config.notify, logger });
    await endRun({ logger: withFields(logger, { shop: name }), config, dryRun, ...(result ? { result } : {}), ...(outcome === undefined ? {} : { outcome }) });
  }
  summarise(loaded.names.flatMap((n) => verdicts.get(n) ?? []), logger, catalogueOnly);
}

/**
 * The run's end: the shops' summary (plain: the lines of shopsLines and each shop's table; JSON: one
 * `shops summary` event, a refused shop's problems in it), then the run's error, if any.
 */
function summarise(ordered: readonly ShopVerdict[], logger: Logger, catalogueOnly: boolean): void {
  if (logger.format === "json") {
    logger.info("shops summary", { shops: ordered.map(summaryEntry) });
  } else {
    const blocks = ordered.filter((v) => v.result).map((v) => `== ${v.name} (${v.title}) ==\n${formatSummary(v.result!.manifest)}\n${publishedList(v.result!)}`);
    process.stdout.write(catalogueOnly ? "Catalogue read into the shared snapshot; no shop mapped (the shards map them: generate --shard i/n --source snapshot)\n" : `${shopsLines(ordered)}\n\n${blocks.join("\n")}`);
  }
  const failure = catalogueOnly ? undefined : shopsOutcome(ordered);
  if (failure) {
    failure.context["reported"] = true;
    throw failure;
  }
}

/** One shop in the `shops summary` event; a refused config's problems with it, as the plain summary has them under its line (a JSON log has no other word of them). */
function summaryEntry(v: ShopVerdict): LogFields {
  const status = v.error === undefined ? "ok" : isPharmafeedError(v.error) ? v.error.code : "UNEXPECTED";
  const problems = configProblems(v.error);
  return { shop: v.name, status, exitCode: v.error === undefined ? 0 : exitCodeFor(v.error), ...(problems.length > 0 ? { problems } : {}) };
}

/** --catalogue-only with every shop refused: no shop's settings say how to read the catalogue; their problems, so that the fix is in sight. */
function noShopLoads(loaded: LoadedShops): PharmafeedError {
  const problems = loaded.refused.flatMap((r) => r.problems);
  return new PharmafeedError("CONFIG_INVALID", `${loaded.file}: no shop loads, so the catalogue's settings cannot be read: ${refusedText(problems)}`, { context: { file: loaded.file } });
}

/**
 * The line of a shard that holds none of the run's shops. With --shops, out of those selected, and
 * where each of them is: `--shops alpha --shard 1/3` with alpha on 2/3 is a likely slip, said.
 */
function nothingToDo(loaded: LoadedShops, names: readonly string[] | undefined, shard: GenerateArgs["shard"]): string {
  const where = shard ? `shard ${shard.index}/${shard.count}` : "this selection";
  if (names === undefined || shard === undefined) return `Shops: 0 of ${loaded.names.length} on ${where}; nothing to do`;
  const { selected, elsewhere } = onOtherShards(loaded, names, shard);
  return `Shops: 0 of ${selected} selected on ${where}; nothing to do (${elsewhere})`;
}

/** The shops `--shops` selects that another shard maps, by shard ("on shard 2/3: alpha; on shard 3/3: beta"). */
function onOtherShards(loaded: LoadedShops, names: readonly string[], shard: NonNullable<GenerateArgs["shard"]>): { selected: number; elsewhere: string } {
  const selected = [...selectShops(loaded.file, loaded.names, { names })];
  const byShard = new Map<number, string[]>();
  for (const name of selected) {
    const i = shardOf(name, shard.count);
    if (i !== shard.index) byShard.set(i, [...(byShard.get(i) ?? []), name]);
  }
  const elsewhere = [...byShard].sort(([a], [b]) => a - b).map(([i, shops]) => `on shard ${i}/${shard.count}: ${shops.join(", ")}`);
  return { selected: selected.length, elsewhere: elsewhere.join("; ") };
}
