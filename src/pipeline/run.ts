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
import { createCatalogueClient } from "../catalogue/client.js";
import type { LoadedConfig } from "../config/types.js";
import { destinationsHook } from "../destinations/after-publish.js";
import { PharmafeedError } from "../errors.js";
import { checkImageConfig } from "../images/check.js";
import type { ImageRunOptionsInput } from "../images/options.js";
import type { ImageStats } from "../images/pipeline.js";
import type { Logger } from "../log.js";
import { settleUnlocked } from "../merchant/late-manifest.js";
import { merchantHook } from "../merchant/run-hook.js";
import type { Manifest } from "../publish/manifest.js";
import type { PublishedRun } from "../publish/run-parts.js";
import { preparePreview } from "../publish/preview.js";
import type { SourceMode } from "../snapshot/run-source.js";
import { recordFailedRun } from "./failed-run.js";
import { lockOutput, prepareOutput } from "./run-output.js";
import { type OffersRefusedFigures, readRunOffers } from "./run-offers.js";
import { FeedHistory } from "../history/sink.js";
import { RunParts } from "./run-parts.js";
import { mapProducts } from "./run-products.js";
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

export async function runGenerate(options: GenerateOptions): Promise<GenerateResult> {
  const { config, logger } = options;
  if (!config.source) throw new PharmafeedError("CONFIG_INVALID", "no catalogue source credentials were resolved");
  checkImageConfig(config);
  const outputDir = options.outputDir ?? config.outputDir;
  const started = options.now ?? new Date();
  const dryRun = options.dryRun ?? false;
  const force = options.force ?? false;
  const signal = options.signal ? { signal: options.signal } : {};
  const lock = await lockOutput({ outputDir, config, startedAt: started, dryRun, logger });
  const client = createCatalogueClient(config.source, { onEvent: retryLogger(logger) });
  const parts = new RunParts();
  parts.useHistory(new FeedHistory(config.history, logger));
  let offersRefused: OffersRefusedFigures | undefined;
  let result: GenerateResult;
  let settled: PublishedRun;
  let sourceUsed: "full" | "delta" | "snapshot";
  try {
    const previous = await prepareOutput(outputDir, logger);
    // A dry run writes its feeds and reports into output/preview/ instead (see publish/preview.ts).
    const previewDir = dryRun ? await preparePreview(outputDir) : undefined;
    const writeDir = previewDir ?? outputDir;
    // Before any request: a refused offers file stops the run with the live feeds untouched.
    const offers = await readRunOffers({ config, outputDir, previous, reportDir: writeDir, force, logger, onRefused: (figures) => (offersRefused = figures) });
    const figures = await mapProducts(
      {
        config, client, logger, outputDir, writeDir, started, dryRun, offers,
        source: options.source ?? config.sync.default,
        reuse: options.reuse ?? true,
        workers: options.workers,
        shardMinProducts: options.shardMinProducts,
        images: options.images,
        tty: options.tty ?? false,
        signal: options.signal,
      },
      parts,
    );
    const images = parts.images?.stats;
    const published = await publishLocally({
      config, logger, outputDir, previewDir, started, force, previous, figures, images,
      history: parts.history,
      retire: new Set(options.retire ?? []),
      runs: parts.runs,
      offers: offers ? { file: offers.file, accepted: offers.parsed.offers.size, refused: offers.parsed.errorCount, rows: offers.parsed.rows, rowsAccepted: offers.parsed.rowsAccepted } : undefined,
    });
    // After the local publish, which never waits on a remote server.
    const manifest = await parts.settle({ outputDir, manifest: published.manifest, entries: published.entries, dryRun }, [destinationsHook(config, logger, options.signal)], !previewDir);
    result = { manifest, outputDir, ...(previewDir ? { previewDir } : {}), ...(images ? { images } : {}) };
    settled = { outputDir, manifest, entries: published.entries, dryRun };
    sourceUsed = figures.sync.used;
  } catch (error) {
    await parts.abort();
    if (!dryRun) await recordFailedRun({ outputDir, config, startedAt: started, error, interrupted: options.signal?.aborted === true, logger, ...(offersRefused ? { offersRefused } : {}) });
    throw error;
  } finally {
    await client.close().catch(() => {});
    await lock.release();
  }
  // Google after the output lock is released: however long it takes, it holds neither the feeds nor the next run.
  if (!dryRun) result.manifest = await settleUnlocked(settled, merchantHook({ config, logger, sourceUsed, now: started, ...signal }), logger, config.lock?.staleAfterMs);
  return result;
}
