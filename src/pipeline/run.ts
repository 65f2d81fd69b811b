/**
 * `generate`, the nightly job, as one streaming pass:
 *
 *   lock ─> offers (or stop) ─> reference data ─> products/stream ─┬─> channel 1: map ─> write | report
 *                                                                 ├─> channel 2 ...
 *                                                                 └─> channel n
 *                          (a large catalogue: lines are parsed, mapped and rendered
 *                           by worker threads in batches, written here in order,
 *                           see shard/; a refresh gives the same dispatcher the last
 *                           run's products, each a copy or a line to map again,
 *                           see rowcache/reuse.ts)
 *                          (a channel with images.process: its rows wait for
 *                           the run's image pipeline, see images/pipeline.ts)
 *                          (every product, once each channel said what it did with it:
 *                           one line of the state log, rows.ndjson, and its keys in the
 *                           explain index, see explain/run-hook.ts; the snapshot keeps the
 *                           stream's lines, see snapshot/writer.ts)
 *   then per channel: footer ─> sample parse ─> gate ─> rename into place
 *   then manifest.json (+ history) ─> destinations (S3, SFTP, FTP: destinations/), manifest.json again
 *   ─> state log, then the explain index that points into it ─> Merchant API read-back
 *   ─> image cache index + pruning ─> unlock
 *
 * Nothing is held per product: memory stays flat whatever the catalogue size.
 * A source failure aborts every channel (the live files stay); a channel failure
 * stops that channel only.
 */
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "csv-stringify/sync";
import { createCatalogueClient } from "../catalogue/client.js";
import type { LoadedConfig } from "../config/types.js";
import { isPharmafeedError, PharmafeedError } from "../errors.js";
import type { Logger } from "../log.js";
import { createProgress } from "../progress.js";
import { AtomicOutput } from "../publish/atomic-output.js";
import { acquireLock, LOCK_FILE } from "../publish/lock.js";
import { crashPoint } from "../publish/crash-point.js";
import { clearFailureRecord } from "../publish/failure-record.js";
import { ensureRealDir } from "../publish/safe-path.js";
import { JournalWriter, rollForward } from "../publish/journal.js";
import { type ChannelEntry, HISTORY_DIR, type Manifest, type Problem, MANIFEST_FILE, readPreviousManifest, writeManifest } from "../publish/manifest.js";
import { runStatusOf, unpublishedOf } from "../publish/run-state.js";
import { heldFeeds } from "../publish/held-feeds.js";
import { fetchedChannels } from "../serve/fetched.js";
import { removeRetiredReports } from "../publish/retired-reports.js";
import { ChannelRun } from "./channel-run.js";
import { preparePreview, writePreviewManifest } from "../publish/preview.js";
import { recordFailedRun } from "./failed-run.js";
import { logRetry, retryLogger } from "./source-log.js";
import { dispatch } from "./shard/dispatch.js";
import { defaultWorkers, type Machine, MAIN_THREAD_MB, PLANNED_SHARE, thisMachine } from "./workers.js";
import { REPORTS_DIR } from "../publish/exclusion-report.js";
import { feedMeta } from "./feed-meta.js";
import { loadContext } from "./load-context.js";
import { type LoadedOffers, loadOffers, offersRefused } from "./offers-file.js";
import { checkImageConfig } from "../images/check.js";
import type { ImageRunOptionsInput } from "../images/options.js";
import { ImagePipeline, type ImageStats } from "../images/pipeline.js";
import { IMAGES_DIR } from "../images/store.js";
import { ExplainHook } from "../explain/run-hook.js";
import { RunSource, type SourceMode } from "../snapshot/run-source.js";
import { STATE_DIR } from "../store/sqlite.js";
import type { EventListener } from "../catalogue/stream/events.js";
import type { Rejection } from "../catalogue/stream/line.js";
import { RowsRecorder } from "../rowcache/record.js";
import { planReuse, ReuseSource } from "../rowcache/reuse.js";
import { StateProblems } from "../store/state-problems.js";
import { merchantAfterRun } from "../merchant/run-hook.js";
import { pushPublished, withLastUploads } from "../destinations/after-publish.js";

export interface GenerateOptions {
  config: LoadedConfig;
  /** Overrides the configured output directory. */
  outputDir?: string;
  dryRun?: boolean;
  force?: boolean;
  logger: Logger;
  /** Draw a progress bar (stderr is a terminal). */
  tty?: boolean;
  signal?: AbortSignal;
  /** The run's clock (officialDeletionAt, sale dates, image cache dates); tests and golden files fix it. */
  now?: Date;
  /** Image pipeline tuning (concurrency, retries, timeouts); defaults suit the nightly run. */
  images?: ImageRunOptionsInput;
  /** Worker threads that map and render (0: all in this thread); default: defaultWorkers() of this machine. */
  workers?: number;
  /** Catalogues smaller than this are mapped in this thread (default SHARD_MIN_PRODUCTS, or 0 when `workers` is given). */
  shardMinProducts?: number;
  /** Where the products come from (snapshot/run-source.ts); default: the config's source.sync.default. */
  source?: SourceMode;
  /** A refresh copies the rows of products that cannot have changed from the last run's files (src/rowcache/); false maps every product. Default true. */
  reuse?: boolean;
  /** Served channels to stop serving on purpose (`--retire`): one the config no longer names, or whose file moves (publish/held-feeds.ts). */
  retire?: readonly string[];
}

/**
 * Below this many products, starting workers costs more than they save: npm start's
 * 2,000 took 1.5 s and 276 MB with two workers, 1.2 s and 158 MB without.
 */
export const SHARD_MIN_PRODUCTS = 5000;

/** The default worker count, saying so when the memory limit lowered it or is tight even without workers. */
function workersFor(machine: Machine, logger: Logger): number {
  const workers = defaultWorkers(machine);
  const memoryLimitMb = Math.round(machine.memoryBytes / 2 ** 20);
  if (workers < defaultWorkers({ ...machine, memoryBytes: Infinity })) logger.info("fewer worker threads for the memory limit", { workers, memoryLimitMb });
  if (memoryLimitMb * PLANNED_SHARE < MAIN_THREAD_MB) logger.warn("the memory limit leaves little room even without worker threads", { memoryLimitMb, neededMb: MAIN_THREAD_MB });
  return workers;
}

export interface GenerateResult {
  manifest: Manifest;
  outputDir: string;
  /** A dry run: where its files are (output/preview/); nothing was published. */
  previewDir?: string;
  /** What the image pipeline did, when a channel processes images. */
  images?: ImageStats;
}

/** Channel names cannot start with "_", so no channel report can take this name. */
export const OFFERS_REPORT = "_offers.csv";

/** Temporary files of runs that died (kill -9, power cut): hidden names ending in .tmp-<pid>. */
async function removeDeadTemporaries(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(
    names
      .filter((name) => /^\..+\.tmp-\d+$/.test(name) && Number(name.split("-").at(-1)) !== process.pid)
      .map((name) => rm(join(dir, name), { force: true })),
  );
}

async function writeOffersReport(outputDir: string, offers: LoadedOffers): Promise<void> {
  const out = new AtomicOutput(join(outputDir, REPORTS_DIR, OFFERS_REPORT));
  out.write(stringify([["line", "reason", "detail"], ...offers.parsed.errors.map((e) => [e.line, e.reason, e.detail])]));
  await out.finish();
  await out.publish();
}

/**
 * Stops what is still running, then writes the cache index and prunes. A
 * failure here costs the next run time (it converts again), never a feed: logged.
 */
async function finishImages(images: ImagePipeline, logger: Logger): Promise<void> {
  await images.close();
  try {
    await images.commit();
  } catch (error) {
    logger.warn("image cache index not written", { error: (error as Error).message });
  }
  const { requested, cacheHits, downloads, conversions, failed, written, retries, pruned } = images.stats;
  logger.info("images", { requested, cacheHits, downloads, conversions, failed, written, retries, pruned });
}

export async function runGenerate(options: GenerateOptions): Promise<GenerateResult> {
  const { config, logger } = options;
  if (!config.source) throw new PharmafeedError("CONFIG_INVALID", "no catalogue source credentials were resolved");
  checkImageConfig(config);
  const outputDir = options.outputDir ?? config.outputDir;
  const started = options.now ?? new Date();
  let lock;
  try {
    await mkdir(outputDir, { recursive: true });
    lock = await acquireLock(outputDir, {
      ...(config.lock ? { staleAfterMs: config.lock.staleAfterMs } : {}),
      onLost: (holder) => logger.error("the run lock was taken over by another run while this one was alive", { file: join(outputDir, LOCK_FILE), holder }),
    });
  } catch (error) {
    // Another run holds the lock: that run speaks for itself. Anything else (a full disk, a folder
    // that cannot be written) is a run that could not start: recorded where monitoring sees it.
    if (!isPharmafeedError(error, "LOCK_HELD") && !options.dryRun) await recordFailedRun({ outputDir, config, startedAt: started, error, interrupted: false, logger });
    throw error;
  }
  if (lock.tookOver) logger.warn("took over the stale lock of a run that is gone", { file: lock.file, previous: lock.previous });
  const client = createCatalogueClient(config.source, { onEvent: retryLogger(logger) });
  const runs: ChannelRun[] = [];
  let images: ImagePipeline | undefined;
  let explain: ExplainHook | undefined;
  let rows: RowsRecorder | undefined;
  let source: RunSource | undefined;
  let offersRefusedFigures: Manifest["offersRefused"];
  try {
    // Its folders are never links (publish/safe-path.ts): a linked reports/ was written through.
    await Promise.all([REPORTS_DIR, HISTORY_DIR].map((dir) => ensureRealDir(join(outputDir, dir))));
    await Promise.all([outputDir, join(outputDir, REPORTS_DIR), join(outputDir, HISTORY_DIR), join(outputDir, IMAGES_DIR), join(outputDir, STATE_DIR)].map(removeDeadTemporaries));
    // A run killed between its renames and manifest.json left a journal: its renamed files go into the manifest first.
    const rolled = await rollForward(outputDir);
    if (rolled.length > 0) logger.warn("a killed run's published files were added to manifest.json from its journal", { channels: rolled.join(", ") });
    const last = await readPreviousManifest(outputDir);
    if (last && last.from !== MANIFEST_FILE) {
      logger.warn("manifest.json is missing or unreadable; the publish gate compares with the last run's copy", { from: last.from });
    }
    const previous = last?.manifest;
    // A dry run writes its feeds and reports into output/preview/ instead (see publish/preview.ts).
    const previewDir = options.dryRun ? await preparePreview(outputDir) : undefined;
    const writeDir = previewDir ?? outputDir;
    // Before any request: a refused offers file stops the run with the live feeds untouched.
    const offers = config.offers ? await loadOffers(config.offers, previous?.offers?.accepted) : undefined;
    if (offers) {
      const { parsed } = offers;
      logger.info("offers loaded", { file: offers.file, rows: parsed.rows, accepted: parsed.offers.size, refused: parsed.errorCount });
      for (const e of parsed.errors.slice(0, 10)) logger.warn("offers row refused", { line: e.line, reason: e.reason, detail: e.detail });
      await writeOffersReport(writeDir, offers);
      if (offers.problems.length > 0) {
        if (!options.force) {
          offersRefusedFigures = { file: offers.file, rows: parsed.rows, accepted: parsed.offers.size, refused: parsed.errorCount, rowsAccepted: parsed.rowsAccepted, reasons: offers.problems };
          throw offersRefused(offers.file, offers.problems, parsed);
        }
        logger.warn("offers file would be refused, used anyway (--force)", { file: offers.file, problems: offers.problems.join("; ") });
      }
    }
    if (config.channels.some((c) => c.mapping.images.process)) {
      images = await ImagePipeline.open({
        outputDir,
        publicBaseUrl: config.publicBaseUrl as string,
        userAgent: client.userAgent,
        now: started,
        dryRun: options.dryRun ?? false,
        ...(options.images ? { options: options.images } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    }
    const rejectedByCode: Record<string, number> = {};
    const state = new StateProblems();
    const onEvent: EventListener = (event) => {
      if (event.type === "resume") logger.warn("stream cut, resumed", { fromIndex: event.fromIndex, resumes: event.resumes });
      if (event.type === "retry") logRetry(logger, event.retry);
      if (event.type === "rejected") {
        const { rejection } = event;
        rejectedByCode[rejection.code] = (rejectedByCode[rejection.code] ?? 0) + 1;
        logger.warn("source record rejected", { line: rejection.line, id: rejection.id, code: rejection.code, path: rejection.path });
      }
    };
    const requested = options.source ?? config.sync.default;
    const dryRun = options.dryRun ?? false;
    source = RunSource.plan({ client, config, outputDir, requested, now: started, dryRun, onEvent, warn: (m, f) => logger.warn(m, f), ...(options.signal ? { signal: options.signal } : {}) });
    const { context, reference } = await loadContext(client, config, started, offers?.parsed.offers, source.reference);

    for (const channel of config.channels) {
      runs.push(
        new ChannelRun(channel, writeDir, feedMeta(config, channel, started), images),
      );
    }

    // Kept state is an aid: what cannot be written is a problem of the run, never its failure (state-problems.ts).
    explain = await ExplainHook.open(outputDir, runs.length, logger, options.dryRun ?? false, (e) => state.explainNotWritten(e));
    runs.forEach((run, i) => (run.explain = explain?.channel(i)));
    // What this run does with every product, for the next refresh to copy (none on a dry run: explain is off).
    rows = explain ? RowsRecorder.open(outputDir, context, logger, (e) => state.rowsNotWritten(e)) : undefined;
    if (!explain && !dryRun) state.rowsNotWritten(new Error("the explain index, which hears of every product, could not be started"));
    if (rows) explain?.listen(rows);
    const stream = await source.open(reference);
    const generation = source.generation;
    const { delta, reuse: _, ...used } = source.report;
    logger.info("source", { ...used, ...delta });
    const progress = createProgress({ label: "generate", tty: options.tty ?? false, logger });
    let received = 0;
    const onProducts = (count: number) => progress.update((received = count), stream.total);
    const reject = (rejection: Rejection) => {
      rows?.reject(rejection);
      stream.reject(rejection);
    };
    const streamStarted = performance.now();
    const plan =
      options.reuse === false ? { reason: "--no-reuse" } : !explain ? { reason: "a dry run, or a run whose explain index could not be started, maps every product" } : await planReuse({ outputDir, runs, context, snapshot: source.readSnapshot });
    // A refresh gives the last run's products, each to copy or to map again (src/rowcache/reuse.ts); any other run, the source's lines.
    const reuse = "reader" in plan ? new ReuseSource({ reader: plan.reader, snapshot: source.readSnapshot!, outputDir, runs, context, explain }) : undefined;
    const mapsAll = "reason" in plan ? plan.reason : "";
    let workers: number;
    try {
      workers = await dispatch(reuse ?? { lines: () => stream.lines(), reject }, runs, context, {
        // A refresh copies in this thread, which bounds it; on two cores, worker threads mapping its other
        // products made it slower and heavier (78,041 products, 10 % of the offers changed: 17.2-19.8 s
        // at 375-441 MB against 15.6 s at 234 MB, bench/refresh.ts, issue 25).
        workers: reuse ? 0 : (options.workers ?? workersFor(thisMachine(), logger)),
        // Workers asked for explicitly are used whatever the catalogue's size.
        minProducts: options.shardMinProducts ?? (options.workers === undefined ? SHARD_MIN_PRODUCTS : 0),
        onProducts,
        ...(explain ? { explain } : {}),
      });
      source.report.reuse = reuse ? reuse.finish(reject) : { reused: 0, mapped: received, reason: mapsAll };
    } finally {
      reuse?.close();
    }
    progress.done();
    await source.finish(stream.total);
    const seconds = (performance.now() - streamStarted) / 1000;
    // For the nightly log: how fast, on how many threads, and the process's memory high-water mark so far.
    logger.info("products mapped", {
      products: received,
      seconds: Math.round(seconds * 10) / 10,
      perSecond: Math.round(received / Math.max(seconds, 1e-3)),
      workers,
      ...source.report.reuse,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    });

    const publishedAt = new Date().toISOString();
    const retire = new Set(options.retire ?? []);
    const previousEntries = new Map((previous?.channels ?? []).map((c) => [c.name, c]));
    const entries: ChannelEntry[] = [];
    const journal = options.dryRun ? undefined : new JournalWriter(outputDir, started.toISOString());
    for (const run of runs) {
      const entry = await run.finish({
        live: previousEntries.get(run.channel.name)?.live ?? null,
        force: options.force ?? false,
        dryRun: options.dryRun ?? false,
        publishedAt,
        retire: retire.has(run.channel.name),
        ...(journal ? { journal: (e: ChannelEntry) => journal.record(e) } : {}),
      });
      entries.push(withLastUploads(entry, previousEntries.get(run.channel.name), run.channel.destinations));
      if (run.failed) logger.error("channel failed", { channel: run.channel.name, error: run.failed.message });
      else if (entry.published !== true) logger.warn("channel not published", { channel: run.channel.name, reason: entry.published });
    }
    // Channels of the config not run this time (--channel) keep their entries: they are still served.
    const ran = new Set(entries.map((e) => e.name));
    const kept = (previous?.channels ?? []).filter((c) => !ran.has(c.name) && config.channelNames.includes(c.name));

    const stats = stream.stats;
    // What else went wrong, beside the channels (publish/manifest.ts Problem): each part of the run adds its own.
    const problems: Problem[] = [...source.problems, ...state.problems];
    // Served channels the config no longer names stay served until retired on purpose.
    const held = heldFeeds({ previous: previous?.channels ?? [], configured: config.channelNames, retire, force: options.force ?? false, fetched: await fetchedChannels(outputDir) });
    for (const r of held.unfetched) logger.warn("served channel retired: no marketplace ever fetched it", { channel: r.channel, file: r.file });
    for (const channel of held.retired) logger.warn("served channel retired: its file is no longer listed nor served", { channel });
    for (const p of held.problems) logger.warn("served channel held", { channel: p.channel, reason: p.reason });
    for (const name of retire) {
      if (!previous?.channels.some((c) => c.name === name && c.live)) logger.warn("nothing to retire: no file of this channel is served", { channel: name });
    }
    problems.push(...held.problems);
    const unpublished = unpublishedOf(entries);
    let manifest: Manifest = {
      version: 1,
      startedAt: started.toISOString(),
      endedAt: new Date().toISOString(),
      status: runStatusOf(entries, problems),
      ...(problems.length > 0 ? { problems } : {}),
      unpublished,
      source: {
        // A run from the snapshot reports the counts of the catalogue read the snapshot holds (readAt).
        ...source.counts({ total: stream.total ?? 0, received, rejected: stats.rejected, rejectedByCode }),
        retries: stats.retries,
        resumes: stats.resumes,
      },
      sync: { ...source.report, ...(source.report.delta ? { delta: { ...source.report.delta } } : {}), ...(source.report.reuse ? { reuse: { ...source.report.reuse } } : {}) },
      ...(offers ? { offers: { file: offers.file, accepted: offers.parsed.offers.size, refused: offers.parsed.errorCount, rows: offers.parsed.rows, rowsAccepted: offers.parsed.rowsAccepted } } : {}),
      // Every row has drained by now, so the counts are final (only pruning comes after).
      ...(images ? { images: { ...images.stats } } : {}),
      ...(held.unfetched.length > 0 ? { retired: held.unfetched } : {}),
      channels: [...entries, ...kept, ...held.held],
    };
    if (previewDir) await writePreviewManifest(previewDir, manifest);
    else {
      await writeManifest(outputDir, manifest);
      await clearFailureRecord(outputDir);
      await removeRetiredReports(outputDir, [...held.retired, ...held.unfetched.map((r) => r.channel)], logger);
      crashPoint("manifest");
      await journal?.remove();
      // After the local publish, which never waits on a remote server; the manifest is rewritten with what went out.
      manifest = await pushPublished({ config, outputDir, manifest, ran: entries, logger });
    }
    // The state log first, then the index that points into it (and records its digest).
    await explain?.commit(outputDir, manifest.startedAt, entries, async () => rows?.commit({ outputDir, runs, entries, context, generation, startedAt: manifest.startedAt }));
    // Google's verdicts (src/merchant/) are read after the local publish, which never waits on Google.
    const merchant = await merchantAfterRun({ config, outputDir, logger, dryRun: options.dryRun ?? false, entries, sourceUsed: source.report.used, now: started, ...(options.signal ? { signal: options.signal } : {}) });
    // State that could not be written after the manifest, and a failed read-back: the manifest says so too.
    if (state.addLate(manifest, entries, merchant) && !previewDir) await writeManifest(outputDir, manifest);
    if (images) await finishImages(images, logger);
    return { manifest, outputDir, ...(previewDir ? { previewDir } : {}), ...(images ? { images: images.stats } : {}) };
  } catch (error) {
    await Promise.all([...runs.map((run) => run.abort()), explain?.abort()]);
    rows?.abort();
    await source?.abort();
    // Files this run stored stay indexed (and so prunable), whatever else failed.
    if (images) await finishImages(images, logger);
    if (!options.dryRun) await recordFailedRun({ outputDir, config, startedAt: started, error, interrupted: options.signal?.aborted === true, logger, ...(offersRefusedFigures ? { offersRefused: offersRefusedFigures } : {}) });
    throw error;
  } finally {
    await client.close().catch(() => {});
    await lock.release();
  }
}
