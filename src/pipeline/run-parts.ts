/**
 * What a run opened, in one place: its channels, its source, and its kept state as sinks
 * (publish/run-parts.ts). After the local publish the sinks are committed, then the hooks run,
 * each outcome applied to the manifest by one rule (publish/run-state.ts applyOutcome); on a
 * failure everything opened so far is aborted.
 */
import type { FeedHistory } from "../history/sink.js";
import type { ImagePipeline } from "../images/pipeline.js";
import type { Logger } from "../log.js";
import { type Manifest, writeManifest } from "../publish/manifest.js";
import type { AfterPublishHook, PartOutcome, PublishedRun, StateSink } from "../publish/run-parts.js";
import { applyOutcome } from "../publish/run-state.js";
import type { RunSource } from "../snapshot/run-source.js";
import type { ChannelRun } from "./channel-run.js";

/**
 * Stops what is still running, then writes the cache index and prunes. A failure here costs the
 * next run time (it converts again), never a feed: logged. Files this run stored stay indexed
 * (and so prunable) whatever else failed, so abort does the same.
 */
function imagesSink(images: ImagePipeline, logger: Logger): StateSink {
  const finish = async (): Promise<never[]> => {
    await images.close();
    try {
      await images.commit();
    } catch (error) {
      logger.warn("image cache index not written", { error: (error as Error).message });
    }
    const { requested, cacheHits, downloads, conversions, failed, written, retries, pruned } = images.stats;
    logger.info("images", { requested, cacheHits, downloads, conversions, failed, written, retries, pruned });
    return [];
  };
  return { name: "image cache", commit: finish, abort: async () => void (await finish()) };
}

/** The snapshot, written as the products are read (snapshot/run-source.ts): its problems, once the run is published. */
function snapshotSink(source: RunSource): StateSink {
  return { name: "snapshot", commit: async () => source.problems, abort: () => source.abort() };
}

export class RunParts {
  readonly runs: ChannelRun[] = [];
  /** Kept state, committed in this order; the image cache last (its pruning may take a while). */
  readonly sinks: StateSink[] = [];
  images: ImagePipeline | undefined;
  private imageSink: StateSink | undefined;
  /** The feed history: a sink, which also records the item sheets and compares them before the gate. */
  history: FeedHistory | undefined;

  useHistory(history: FeedHistory): void {
    this.history = history;
    this.sinks.push(history);
  }

  useImages(images: ImagePipeline, logger: Logger): void {
    this.images = images;
    this.imageSink = imagesSink(images, logger);
  }

  useSource(source: RunSource): void {
    this.sinks.push(snapshotSink(source));
  }

  /**
   * Sinks first (kept state), then hooks in order. After each outcome that says anything the
   * manifest is written again, so that a run killed in a later part leaves a true manifest.
   */
  async settle(run: PublishedRun, hooks: readonly AfterPublishHook[], write: boolean): Promise<Manifest> {
    let manifest = run.manifest;
    const apply = async (outcome: PartOutcome) => {
      if (outcome.problems.length === 0 && !outcome.channels) return;
      // The run ends with its last part: endedAt says when the manifest last changed.
      manifest = { ...applyOutcome(manifest, outcome), endedAt: new Date().toISOString() };
      if (write) await writeManifest(run.outputDir, manifest);
    };
    for (const sink of this.allSinks()) await apply({ problems: await sink.commit({ ...run, manifest }) });
    for (const hook of hooks) await apply(await hook.run({ ...run, manifest }));
    return manifest;
  }

  /** Everything opened so far, stopped; the previous files stay. */
  async abort(): Promise<void> {
    await Promise.all([...this.runs.map((run) => run.abort()), ...this.allSinks().map((sink) => sink.abort())]);
  }

  private allSinks(): StateSink[] {
    return this.imageSink ? [...this.sinks, this.imageSink] : this.sinks;
  }
}

/**
 * The snapshot of a run of many shops (docs/shops.md): theirs together. Each shop's parts get a
 * view whose commit renames it into place once (the first shop published; its problems said in
 * every shop's manifest); a shop that fails aborts only itself. settle() aborts the snapshot
 * when no shop committed it (the source failed, or every shop did).
 */
export class SharedSnapshot {
  private source: RunSource | undefined;
  private committed: Promise<PartOutcome["problems"]> | undefined;

  constructor(private readonly logger: Logger) {}

  use(source: RunSource): void {
    this.source = source;
  }

  view(): StateSink {
    return { name: "snapshot", commit: () => this.commit(), abort: async () => {} };
  }

  /** Once, by the first shop published (or a run that maps no shop: --catalogue-only, where the snapshot is all it makes). */
  async commit(): Promise<PartOutcome["problems"]> {
    const source = this.source;
    return source ? await (this.committed ??= Promise.resolve(source.problems)) : [];
  }

  async settle(): Promise<void> {
    if (this.committed || !this.source) return;
    await this.source.abort().catch((error: unknown) => this.logger.warn("snapshot not cleared", { error: (error as Error).message }));
  }
}