/**
 * `generate`, the nightly job, as one streaming pass and a list of steps:
 *
 *   lock ─> output cleared of dead runs ─> offers (or stop) ─> products: source, reference data,
 *   channels and kept state opened, then products/stream ─┬─> channel 1: map ─> write | report
 *                                                         ├─> channel 2 ...
 *                                                         └─> channel n
 *          (a large catalogue: parsed, mapped and rendered by worker threads in batches, written
 *           here in order, see shard/; a refresh copies the rows of products that cannot have
 *           changed, see rowcache/reuse.ts; a channel with images.process: its rows wait for the
 *           run's image pipeline, see images/pipeline.ts)
 *   ─> local publish: per channel footer ─> sample parse ─> gate ─> journal ─> rename; manifest.json
 *   ─> sinks, kept state (run-parts.ts): feed history, snapshot, state log + explain index, image cache
 *   ─> hooks, after the publish: destinations (S3, SFTP, FTP)
 *   ─> unlock ─> Google's push and read-back, under a lock of their own (merchant/lock.ts)
 *
 * Nothing is held per product: memory stays flat whatever the catalogue size. A source failure
 * aborts every channel (the live files stay); a channel failure stops that channel only. A new
 * capability joins as a sink or a hook (publish/run-parts.ts), not as a branch here.
 */
import pLimit from "p-limit";
import { createCatalogueClient } from "../catalogue/client.js";
import type { LoadedConfig } from "../config/types.js";
import { destinationsHook } from "../destinations/after-publish.js";
import { PharmafeedError } from "../errors.js";
import { checkImageConfig } from "../images/check.js";
import type { ImageRunOptionsInput } from "../images/options.js";
import type { ImageStats } from "../images/pipeline.js";
import { type Logger, withFields } from "../log.js";
import { settleUnlocked } from "../merchant/late-manifest.js";
import { merchantHook } from "../merchant/run-hook.js";
import type { Manifest } from "../publish/manifest.js";
import type { PublishedRun } from "../publish/run-parts.js";
import { preparePreview } from "../publish/preview.js";
import type { SourceMode } from "../snapshot/run-source.js";
import { downloadSnapshot, type Fetched, type RemoteStore, uploadSnapshot, withDownloadFailure } from "../snapshot/remote.js";
import { snapshotPath } from "../snapshot/store.js";
import { recordFailedRun } from "./failed-run.js";
import { lockOutput, prepareOutput } from "./run-output.js";
import type { Lock } from "../publish/lock.js";
import type { LoadedOffers } from "./offers-file.js";
import { type OffersRefusedFigures, readRunOffers } from "./run-offers.js";
import { FeedHistory } from "../history/sink.js";
import { RunParts, SharedSnapshot } from "./run-parts.js";
import { mapProducts, type ShopProducts, type SourceFigures } from "./run-products.js";
import { publishLocally } from "./run-publish.js";
import { retryLogger } from "./source-log.js";

export { SHARD_MIN_PRODUCTS } from "./run-products.js";
export { OFFERS_REPORT } from "./run-offers.js";

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

export interface GenerateResult {
  manifest: Manifest;
  outputDir: string;
  /** A dry run: where its files are (output/preview/); nothing was published. */
  previewDir?: string;
  /** What the image pipeline did, when a channel processes images. */
  images?: ImageStats;
}

/** A run of many shops (docs/shops.md): their configs, and where the shared snapshot lives. */
export interface ShopsOptions extends Omit<GenerateOptions, "config" | "outputDir"> {
  shops: readonly LoadedConfig[];
  /** The main file's output directory: the snapshot every shop is mapped from, and the shops' folders. */
  sourceDir: string;
  /** The main file's source settings, when no shop is run (--catalogue-only). */
  mainConfig?: LoadedConfig;
}

/** What one shop's run came to: its result, or the error that stopped it (the other shops went on). */
export type ShopOutcome = { config: LoadedConfig; result: GenerateResult; error?: undefined } | { config: LoadedConfig; result?: undefined; error: unknown };

export async function runGenerate(options: GenerateOptions): Promise<GenerateResult> {
  const config = options.outputDir ? { ...options.config, outputDir: options.outputDir } : options.config;
  const [outcome] = await runShops({ ...options, shops: [config], sourceDir: config.outputDir });
  if (outcome!.error !== undefined) throw outcome!.error;
  return outcome!.result!;
}

/** Shops published at once once the products are mapped (runShops). */
const PUBLISH_AT_ONCE = 4;

/** A shop's run before the products: locked, its output prepared, its offers read (or refused). */
interface ShopRun {
  config: LoadedConfig;
  /** The run's log, with `shop=<name>` on every line when the run has many shops. */
  logger: Logger;
  outputDir: string;
  previewDir: string | undefined;
  lock: Lock;
  parts: RunParts;
  previous: Manifest | undefined;
  products?: ShopProducts;
  offers?: LoadedOffers | undefined;
  offersRefused?: OffersRefusedFigures;
  settled?: PublishedRun;
  result?: GenerateResult;
  error?: unknown;
}

/**
 * Every shop's run around one catalogue read. A failure of the source fails every shop; a
 * shop's own failure (its lock, its offers file, its publish) fails that shop only.
 */
export async function runShops(options: ShopsOptions): Promise<ShopOutcome[]> {
  const { logger } = options;
  const main = options.shops[0] ?? options.mainConfig;
  if (!main?.source) throw new PharmafeedError("CONFIG_INVALID", "no catalogue source credentials were resolved");
  for (const config of options.shops) checkImageConfig(config);
  const started = options.now ?? new Date();
  const dryRun = options.dryRun ?? false;
  const single = options.shops.length === 1 && options.shops[0]!.outputDir === options.sourceDir;
  const signal = options.signal ? { signal: options.signal } : {};
  const outcomes = new Map<LoadedConfig, ShopRun | { error: unknown }>();
  const opened: ShopRun[] = [];
  for (const config of options.shops) {
    try {
      opened.push(await openShop(config, options, started, single ? logger : withFields(logger, { shop: config.shopId }), (run) => outcomes.set(config, run)));
    } catch (error) {
      if (single) throw error;
      outcomes.set(config, { error });
      logger.error("shop not run", { shop: config.shopId, error: (error as Error).message });
    }
  }
  // Many shops: the snapshot is theirs together; one shop's run commits it as before.
  const shared = single ? undefined : new SharedSnapshot(logger);
  // Two runs writing the shared snapshot at once would race; shards reading it (--source snapshot) run side by side.
  const rootLock = single || (options.source ?? main.sync.default) === "snapshot" ? undefined : await lockOutput({ outputDir: options.sourceDir, config: main, startedAt: started, dryRun: true, logger }).catch(async (error: unknown) => {
    await Promise.all(opened.map((run) => run.lock.release()));
    throw error;
  });
  const client = createCatalogueClient(main.source, { onEvent: retryLogger(logger) });
  let sourceUsed: "full" | "delta" | "snapshot" | undefined;
  const requireSnapshot = !single && (options.source ?? main.sync.default) === "snapshot";
  const snapshotFile = snapshotPath(options.sourceDir);
  let remote: RemoteStore | undefined;
  let fetched: Fetched | undefined;
  try {
    // Shards without a shared disk: the snapshot's copy in a bucket (docs/shops.md, "Beyond one machine").
    if (!single && main.snapshot && (requireSnapshot || !dryRun)) remote = await snapshotBucket(main.snapshot.s3);
    const live = opened.filter((run) => run.products !== undefined);
    let figures: SourceFigures | undefined;
    if (live.length > 0 || options.shops.length === 0) {
      try {
        if (remote && requireSnapshot) fetched = await downloadSnapshot(remote, snapshotFile, { logger, ...signal });
        figures = await mapProducts(
          {
            config: main, client, logger, started, dryRun,
            sourceDir: options.sourceDir,
            source: options.source ?? main.sync.default,
            reuse: options.reuse ?? true,
            workers: options.workers,
            shardMinProducts: options.shardMinProducts,
            images: options.images,
            tty: options.tty ?? false,
            signal: options.signal,
            requireSnapshot,
            useSource: (source) => (shared ? shared.use(source) : live[0]!.parts.useSource(source)),
          },
          live.map((run) => run.products!),
        );
        sourceUsed = figures.sync.used;
        // --catalogue-only makes the snapshot and nothing else: one it could not write is its failure (the shards would map an old one).
        const unwritten = options.shops.length === 0 ? ((await shared?.commit()) ?? []) : [];
        if (unwritten.length > 0) throw new PharmafeedError("RUN_DEGRADED", `the catalogue was read but the shared snapshot was not written: ${unwritten.map((p) => p.reason).join("; ")}`);
        if (remote && options.shops.length === 0 && !dryRun) {
          await uploadSnapshot(remote, snapshotFile, { logger, ...signal }).catch((error: unknown) => {
            if (options.signal?.aborted) throw error;
            throw new PharmafeedError("RUN_DEGRADED", `the catalogue was read into the shared snapshot, but it was not uploaded (the shards would map an old one): ${(error as Error).message}`, { cause: error });
          });
        }
      } catch (error) {
        if (options.shops.length === 0) throw error;
        for (const run of live) run.error = withDownloadFailure(error, fetched);
      }
    }
    // A few shops at a time: a shop's publish waits on the disk (fsync of every renamed file) and on
    // libuv's pool (its history's gzip) more than it computes; one after the other, 10 shops spent
    // ~15 % of the run's wall time there.
    const publishing = pLimit(PUBLISH_AT_ONCE);
    await Promise.all(
      live.map((run) =>
        publishing(async () => {
          if (run.error === undefined) {
            try {
              await publishShop(run, figures!, options, started, shared);
              return;
            } catch (error) {
              run.error = error;
            }
          }
          await failShop(run, options, started);
        }),
      ),
    );
    await shared?.settle();
    // A run of many shops that read the catalogue wrote the shared snapshot too: the bucket gets it, or the log says why not.
    if (remote && options.shops.length > 0 && !dryRun && (sourceUsed === "full" || sourceUsed === "delta")) {
      await uploadSnapshot(remote, snapshotFile, { logger, ...signal }).catch((error: unknown) => logger.error("shared snapshot not uploaded", { error: (error as Error).message }));
    }
  } finally {
    await remote?.close();
    await client.close().catch(() => {});
    await Promise.all(opened.map((run) => run.lock.release()));
    await rootLock?.release();
  }
  // Google after the output locks are released: however long it takes, it holds neither the feeds nor the next run.
  for (const run of opened) {
    if (run.error !== undefined || dryRun || !run.result || !run.settled || !sourceUsed) continue;
    run.result.manifest = await settleUnlocked(run.settled, merchantHook({ config: run.config, logger: run.logger, sourceUsed, now: started, ...signal }), run.logger, run.config.lock?.staleAfterMs);
  }
  return options.shops.map((config) => {
    const run = outcomes.get(config)!;
    if ("lock" in run && run.error === undefined && run.result) return { config, result: run.result };
    return { config, error: run.error ?? new PharmafeedError("INTERNAL", "the shop's run did not finish") };
  });
}

/** The shared snapshot's bucket: the AWS SDK loaded only then (destinations/s3-snapshot.ts). */
async function snapshotBucket(settings: NonNullable<LoadedConfig["snapshot"]>["s3"]): Promise<RemoteStore> {
  const { s3Store } = await import("../destinations/s3-snapshot.js");
  return s3Store(settings);
}

/** Locks the shop's output, clears what dead runs left, reads its offers; a refused offers file fails the shop here. */
async function openShop(config: LoadedConfig, options: ShopsOptions, started: Date, logger: Logger, record: (run: ShopRun) => void): Promise<ShopRun> {
  const outputDir = config.outputDir;
  const dryRun = options.dryRun ?? false;
  const lock = await lockOutput({ outputDir, config, startedAt: started, dryRun, logger });
  const parts = new RunParts();
  parts.useHistory(new FeedHistory(config.history, logger));
  const run: ShopRun = { config, logger, outputDir, lock, parts, previous: undefined, previewDir: undefined };
  record(run);
  try {
    run.previous = await prepareOutput(outputDir, logger);
    // A dry run writes its feeds and reports into output/preview/ instead (see publish/preview.ts).
    run.previewDir = dryRun ? await preparePreview(outputDir) : undefined;
    const writeDir = run.previewDir ?? outputDir;
    // Before any request: a refused offers file stops the shop's run with its live feeds untouched.
    run.offers = await readRunOffers({ config, outputDir, previous: run.previous, reportDir: writeDir, force: options.force ?? false, logger, onRefused: (figures) => (run.offersRefused = figures) });
    run.products = { config, outputDir, writeDir, offers: run.offers, parts };
  } catch (error) {
    run.error = error;
    await failShop(run, options, started);
    if (options.shops.length === 1) {
      await lock.release();
      throw error;
    }
  }
  return run;
}

/** The shop's local publish, then its sinks and hooks (destinations). */
async function publishShop(run: ShopRun, figures: SourceFigures, options: ShopsOptions, started: Date, shared: SharedSnapshot | undefined): Promise<void> {
  const { config, outputDir, previewDir, parts, offers, logger } = run;
  if (shared) parts.sinks.push(shared.view());
  const images = parts.images?.stats;
  const published = await publishLocally({
    config, logger, outputDir, previewDir, started, force: options.force ?? false, previous: run.previous, figures, images,
    history: parts.history,
    retire: new Set(options.retire ?? []),
    runs: parts.runs,
    offers: offers ? { file: offers.file, accepted: offers.parsed.offers.size, refused: offers.parsed.errorCount, rows: offers.parsed.rows, rowsAccepted: offers.parsed.rowsAccepted } : undefined,
  });
  const dryRun = options.dryRun ?? false;
  // After the local publish, which never waits on a remote server.
  const manifest = await parts.settle({ outputDir, manifest: published.manifest, entries: published.entries, dryRun }, [destinationsHook(config, logger, options.signal)], !previewDir);
  run.result = { manifest, outputDir, ...(previewDir ? { previewDir } : {}), ...(images ? { images } : {}) };
  run.settled = { outputDir, manifest, entries: published.entries, dryRun };
}

/** Everything the shop opened, stopped; its failed run recorded (its live feeds stay). */
async function failShop(run: ShopRun, options: ShopsOptions, started: Date): Promise<void> {
  await run.parts.abort();
  if (options.dryRun) return;
  await recordFailedRun({ outputDir: run.outputDir, config: run.config, startedAt: started, error: run.error, interrupted: options.signal?.aborted === true, logger: run.logger, ...(run.offersRefused ? { offersRefused: run.offersRefused } : {}) });
}
