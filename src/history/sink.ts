/**
 * The feed history as a StateSink (publish/run-parts.ts). While the run maps, its item sheets are
 * written (sheet-recorder.ts); before the gate, each channel's sheet can be compared with the live
 * version's (the price gate, a pinned feed's "what it would change"); once the feeds are published,
 * every feed live now is kept as a version with its sheet (store.ts; unchanged ones are already),
 * then the versions no longer named by the last `keepRuns` runs, or beyond `maxMb`, are removed.
 * What it cannot keep is a problem of the run (HISTORY_NOT_KEPT), never its failure: the feeds are out.
 */
import { rmdir } from "node:fs/promises";
import { join } from "node:path";
import { FEED_HISTORY_DIR, HISTORY_DIR } from "../core/layout.js";
import type { Logger } from "../log.js";
import type { Manifest, Problem } from "../publish/manifest.js";
import { readHistory } from "../publish/manifest.js";
import type { PublishedRun, StateSink } from "../publish/run-parts.js";
import { diffSheets, type FeedDiff, SheetDiffError } from "./diff.js";
import type { HistorySettings } from "./settings.js";
import { readSheetLines } from "./sheet.js";
import { type RecordedChannel, SheetRecorder } from "./sheet-recorder.js";
import { keepSheet, keepVersion, prune } from "./store.js";

/** The digests live after a run: what a marketplace could fetch then. */
function liveDigests(manifest: Manifest): string[] {
  return manifest.channels.flatMap((c) => (c.live ? [c.live.sha256] : []));
}

export type Comparison = { ok: true; diff: FeedDiff } | { ok: false; why: string };

export class FeedHistory implements StateSink {
  readonly name = "feed history";
  private recorder: SheetRecorder | undefined;
  /** Where the sheets are written (record()). */
  private dir: string | undefined;
  private channels: readonly RecordedChannel[] = [];
  private readonly problems: Problem[] = [];

  constructor(
    private readonly settings: HistorySettings,
    private readonly logger: Logger,
  ) {}

  /** Starts this run's item sheets under `dir` (the output directory; a dry run's output/preview/). Returns who hears the products. */
  async record(dir: string, channels: readonly RecordedChannel[]): Promise<SheetRecorder | undefined> {
    try {
      this.dir = dir;
      this.channels = channels;
      this.recorder = await SheetRecorder.open(dir, channels);
    } catch (error) {
      this.notKept(undefined, `this run's item sheets could not be started: ${(error as Error).message}`);
    }
    return this.recorder;
  }

  /** Every product has been heard: the sheets are closed (before the first gate). */
  async closeSheets(): Promise<void> {
    await this.recorder?.close();
    const failure = this.recorder?.failure;
    if (failure) this.notKept(undefined, `this run's item sheets could not be written: ${failure.message}`);
  }

  /**
   * This run's file of `channel` (with `items` items) against kept version `sha256`: what changed.
   * Not ok, with why, when either sheet is missing or not whole.
   */
  async compare(outputDir: string, channel: string, items: number, sha256: string, movedPercent?: number): Promise<Comparison> {
    const index = this.channels.findIndex((c) => c.name === channel);
    const mine = index < 0 ? undefined : this.recorder?.source(index, items);
    if (!mine) return { ok: false, why: "this run's item sheet was not written whole" };
    try {
      const diff = await diffSheets((onLine) => readSheetLines(outputDir, sha256, onLine), mine, movedPercent === undefined ? {} : { movedPercent });
      return { ok: true, diff };
    } catch (error) {
      if (error instanceof SheetDiffError) return { ok: false, why: error.message };
      throw error;
    }
  }

  async commit({ outputDir, manifest, entries, dryRun }: PublishedRun): Promise<Problem[]> {
    // A dry run's sheets served its price gate only: nothing of it is kept.
    if (dryRun) {
      await this.recorder?.remove();
      // And the folders it made in output/preview/ (rmdir leaves one that holds anything).
      if (this.dir !== undefined) for (const dir of [FEED_HISTORY_DIR, HISTORY_DIR]) await rmdir(join(this.dir, dir)).catch(() => undefined);
      return [];
    }
    const started = performance.now();
    await this.closeSheets();
    // All at once: the gzip runs in libuv's thread pool (4 threads), so the files compress in parallel.
    // Two channels publishing the same version wait for one write (keeping is by digest).
    const writes = new Map<string, Promise<"kept" | "already">>();
    // This run's sheet belongs to the version live now only where this run published it.
    const publishedNow = new Set(entries.flatMap((e) => (e.published === true ? [`${e.name} ${e.sha256}`] : [])));
    await Promise.all(
      manifest.channels.map(async (channel) => {
        const live = channel.live;
        if (!live) return;
        try {
          let write = writes.get(live.sha256);
          if (write === undefined) writes.set(live.sha256, (write = this.keep(outputDir, publishedNow.has(`${channel.name} ${live.sha256}`) ? channel.name : undefined, live.file, live.sha256, channel.items)));
          await write;
        } catch (error) {
          this.notKept(channel.name, `this version of ${live.file} was not kept in history/feeds: ${(error as Error).message}`);
        }
      }),
    );
    await this.recorder?.remove();
    try {
      // Newest first; this run's manifest is in history/ already (writeManifest), but may be the only one.
      const earlier = (await readHistory(outputDir)).filter((m) => m.startedAt !== manifest.startedAt).reverse();
      const runs = [manifest, ...earlier].slice(0, this.settings.keepRuns).map(liveDigests);
      const removed = await prune(outputDir, runs, this.settings.maxMb * 1024 * 1024);
      const kept = (await Promise.all([...writes.values()].map((w) => w.catch(() => "failed")))).filter((w) => w === "kept").length;
      this.logger.info("feed history", { kept, removed: removed.length, seconds: Number(((performance.now() - started) / 1000).toFixed(2)) });
    } catch (error) {
      this.notKept(undefined, `history/feeds could not be pruned: ${(error as Error).message}`);
    }
    return this.problems;
  }

  async abort(): Promise<void> {
    await this.recorder?.remove();
  }

  /**
   * The version, then its sheet: from this run's recording when this run wrote that version (a
   * channel kept from an earlier run, or whose sheet is incomplete, has none: its diff says so).
   */
  private async keep(outputDir: string, channel: string | undefined, file: string, sha256: string, items: number): Promise<"kept" | "already"> {
    const version = await keepVersion(outputDir, file, sha256);
    const index = channel === undefined ? -1 : this.channels.findIndex((c) => c.name === channel);
    const written = index < 0 ? undefined : this.recorder?.written(index);
    if (written && written.items === items) await keepSheet(outputDir, sha256, written);
    return version;
  }

  private notKept(channel: string | undefined, reason: string): void {
    this.problems.push({ kind: "state", code: "HISTORY_NOT_KEPT", ...(channel === undefined ? {} : { channel }), reason });
  }
}
