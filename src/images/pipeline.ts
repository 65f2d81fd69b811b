/**
 * The image pipeline of one generate run, shared by every channel with
 * `images.process`:
 *
 *   photo (media id, updatedAt, URL) + channel settings ──> cache key
 *     ├─ in the index ──────────────> the stored file's public URL, at once
 *     ├─ already running ───────────> the same job (two channels, one download)
 *     └─ new: download (p-limit, retries) ─> convert (p-limit, sharp) ─> store ─> index
 *
 * Jobs run concurrently under two limits: downloads (network-bound) and
 * conversions (CPU-bound: one sharp pipeline per core and one more). A failed
 * image is remembered for the run, so a second channel does not try it again.
 */
import { join } from "node:path";
import pLimit, { type LimitFunction } from "p-limit";
import type { ImageSource } from "../mapping/feed-item.js";
import { cacheKey, ImageIndex } from "./cache.js";
import { Downloader, type DownloadResult } from "./download.js";
import { ImageRunOptions, type ImageRunOptionsInput } from "./options.js";
import { convertImage } from "./process.js";
import { settingsId, type ImageProcessSettings } from "./settings.js";
import { ImageStore, publicImageUrl } from "./store.js";
import { ensureRealDir } from "../core/safe-path.js";
import { IMAGES_DIR } from "../core/layout.js";

export type ImageOutcome = { ok: true; url: string } | { ok: false; reason: string };

/** A channel's settings, prepared once. */
export interface ChannelImages {
  settings: ImageProcessSettings;
  id: string;
}

export interface ImageStats {
  /** Images asked for (per channel and photo). */
  requested: number;
  /** Answered from the cache across runs (or by an earlier channel of this run). */
  cacheHits: number;
  /** Answered by a job already running for another channel. */
  shared: number;
  downloads: number;
  conversions: number;
  /** Images that could not be made (download or conversion failed). */
  failed: number;
  /** New files written (an identical result already on disk is not written again). */
  written: number;
  retries: number;
  /** Files deleted by pruning after the run. */
  pruned: number;
}

export interface ImagePipelineOptions {
  /** The run's output directory; images go to <outputDir>/images. */
  outputDir: string;
  publicBaseUrl: string;
  /** The catalogue client's `pharmafeed/<version> (<contact>)`: the service wants it on image requests too. */
  userAgent: string;
  /** Marks cache entries as used, and dates pruning. */
  now: Date;
  /** Convert but write nothing (no files, no index). */
  dryRun?: boolean;
  options?: ImageRunOptionsInput;
  signal?: AbortSignal;
}

export class ImagePipeline {
  readonly options: ImageRunOptions;
  readonly stats: ImageStats = { requested: 0, cacheHits: 0, shared: 0, downloads: 0, conversions: 0, failed: 0, written: 0, retries: 0, pruned: 0 };
  private readonly running = new Map<string, Promise<ImageOutcome>>();
  private readonly failures = new Map<string, ImageOutcome>();
  private readonly downloading = new Map<string, Promise<DownloadResult>>();
  private readonly downloadFailures = new Map<string, DownloadResult>();
  private readonly downloadSlot: LimitFunction;
  private readonly convertSlot: LimitFunction;
  private readonly downloader: Downloader;
  private readonly stop = new AbortController();
  private readonly usedAt: string;

  private constructor(
    private readonly config: ImagePipelineOptions,
    private readonly index: ImageIndex,
    private readonly store: ImageStore,
  ) {
    this.options = ImageRunOptions.parse(config.options ?? {});
    this.downloadSlot = pLimit(this.options.downloads);
    this.convertSlot = pLimit(this.options.conversions);
    const signal = config.signal ? AbortSignal.any([config.signal, this.stop.signal]) : this.stop.signal;
    this.downloader = new Downloader({ userAgent: config.userAgent, options: this.options, signal });
    this.usedAt = config.now.toISOString();
  }

  static async open(config: ImagePipelineOptions): Promise<ImagePipeline> {
    const dir = join(config.outputDir, IMAGES_DIR);
    if (!config.dryRun) await ensureRealDir(dir);
    const index = await ImageIndex.load(dir);
    return new ImagePipeline(config, index, new ImageStore(dir, !config.dryRun));
  }

  static channel(settings: ImageProcessSettings): ChannelImages {
    return { settings, id: settingsId(settings) };
  }

  /** The outcome of every source, in order; synchronous when all of them are cache hits. */
  item(sources: readonly ImageSource[], channel: ChannelImages): ImageOutcome[] | Promise<ImageOutcome[]> {
    const outcomes = sources.map((source) => this.image(source, channel));
    return outcomes.some((o) => o instanceof Promise) ? Promise.all(outcomes) : (outcomes as ImageOutcome[]);
  }

  image(source: ImageSource, channel: ChannelImages): ImageOutcome | Promise<ImageOutcome> {
    this.stats.requested++;
    const key = cacheKey(source, channel.id);
    const entry = this.index.use(key, this.usedAt);
    if (entry) {
      this.stats.cacheHits++;
      return { ok: true, url: publicImageUrl(this.config.publicBaseUrl, entry.file) };
    }
    const failed = this.failures.get(key);
    if (failed) return failed;
    let job = this.running.get(key);
    if (job) {
      this.stats.shared++;
      return job;
    }
    job = this.make(key, source, channel).finally(() => this.running.delete(key));
    this.running.set(key, job);
    return job;
  }

  /**
   * The bytes at `url`; one download for channels that ask at the same time
   * (with different settings), and a failure is not tried again this run.
   */
  private download(url: string): Promise<DownloadResult> {
    const failed = this.downloadFailures.get(url);
    if (failed) return Promise.resolve(failed);
    let pending = this.downloading.get(url);
    if (!pending) {
      pending = this.downloadSlot(async () => {
        this.stop.signal.throwIfAborted();
        const result = await this.downloader.download(url);
        this.stats.retries = this.downloader.pool.used;
        if (result.ok) this.stats.downloads++;
        else this.downloadFailures.set(url, result);
        return result;
      }).finally(() => this.downloading.delete(url));
      this.downloading.set(url, pending);
    }
    return pending;
  }

  private async make(key: string, source: ImageSource, channel: ChannelImages): Promise<ImageOutcome> {
    const downloaded = await this.download(source.url);
    if (!downloaded.ok) return this.fail(key, downloaded.reason);
    const converted = await this.convertSlot(() => {
      this.stop.signal.throwIfAborted();
      return convertImage(downloaded.value, channel.settings, this.options.maxPixels);
    });
    if (!converted.ok) return this.fail(key, converted.reason);
    this.stats.conversions++;
    const { bytes, width, height } = converted.value;
    const { name, written } = await this.store.save(bytes, channel.settings.format);
    if (written) this.stats.written++;
    this.index.set(key, {
      file: name,
      mediaId: source.mediaId,
      ...(source.updatedAt === undefined ? {} : { updatedAt: source.updatedAt }),
      width,
      height,
      bytes: bytes.length,
      usedAt: this.usedAt,
    });
    return { ok: true, url: publicImageUrl(this.config.publicBaseUrl, name) };
  }

  private fail(key: string, reason: string): ImageOutcome {
    this.stats.failed++;
    const outcome: ImageOutcome = { ok: false, reason };
    this.failures.set(key, outcome);
    return outcome;
  }

  /** Stops what is still running (a run that failed) and waits for it; closes the connections. */
  async close(): Promise<void> {
    if (this.running.size > 0) this.stop.abort(new Error("the run is stopping"));
    await Promise.allSettled([...this.running.values()]);
    await this.downloader.close();
  }

  /** Writes the index and prunes (not in a dry run); returns the deleted file names. */
  async commit(): Promise<string[]> {
    if (this.config.dryRun) return [];
    const pruned = await this.index.save(this.config.now, this.options.retainDays);
    this.stats.pruned = pruned.length;
    return pruned;
  }
}
