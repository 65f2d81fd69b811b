/**
 * Where a run's products come from (`generate --source`), and the snapshot it
 * leaves behind:
 *
 *   full      products/stream ─┬─> channels
 *                              └─> new snapshot (renamed into place when the stream ended)
 *   delta     products/stream {updatedSince: last sync - margin} ─ merge (delta.ts) ─> new snapshot ─> channels
 *   snapshot  snapshot ─> channels (no catalogue request at all, reference lists included)
 *
 * A delta or a refresh that cannot be made reads in full instead and says why
 * (`fallback`): no snapshot, one of another format version, too old, read with
 * another filter or sorting, a filter or sorting a merge cannot follow, or a
 * delta larger than the configured share of the catalogue. The log says so when
 * that read starts (open()): a run of many shops from the snapshot fails before
 * (SNAPSHOT_MISSING, pipeline/run-products.ts) and must not announce a read it never makes.
 *
 * Kept state is an aid, never a condition (issue 22): a snapshot that is damaged
 * or unreadable, or one that cannot be written (a full disk), is a `Problem` of
 * kind "state" (`problems`: the run is degraded and alerts) and the feeds are
 * made and published anyway; the previous snapshot stays as it was.
 */
import type { CatalogueClient } from "../catalogue/client.js";
import type { Product } from "../catalogue/schemas/product.js";
import type { EventListener } from "../catalogue/stream/events.js";
import type { RecordStream } from "../catalogue/stream/record-stream.js";
import type { Rejection } from "../catalogue/stream/line.js";
import type { LoadedConfig } from "../config/types.js";
import { PharmafeedError } from "../errors.js";
import type { Problem } from "../publish/manifest.js";
import { idOrder, limitDelta, mergeDelta, MergeError, type MergeCounts, Origins, TooLarge } from "./delta.js";
import { compileFilter, unsupportedKey } from "./filter-match.js";
import { keepLines, snapshotLines, type LineSource } from "./lines.js";
import { openSnapshot, type ReadCounts, snapshotPath, SnapshotWriter, type Reference, type Snapshot } from "./store.js";
import { type SourceCounts, sourceCounts } from "./read-counts.js";

export type SourceMode = "full" | "delta" | "snapshot";

/** See RunSource.reuseBase. */
export interface ReuseBase {
  snapshot: Snapshot;
  /** The generation whose lines the last run must have mapped for its rows to be copied (none: nothing is). */
  mapped: string | undefined;
  /** A delta's: the line of `mapped` each line of `snapshot` is an unchanged copy of, or -1. */
  origins?: Origins;
}

/** What the manifest says about a run's source. */
export interface SourceReport {
  /** What was asked for (--source or source.sync.default). */
  requested: SourceMode;
  /** What the run did. */
  used: SourceMode;
  /** Why a delta or a refresh read in full instead. */
  fallback?: string;
  /** The sync the feeds reflect (ISO) and its age at the run's start, in seconds. */
  syncedAt: string;
  ageSeconds: number;
  /** A delta's counts. */
  delta?: MergeCounts;
  /** Products copied from the last run's files or mapped (src/rowcache/); run.ts fills it in. */
  reuse?: { reused: number; mapped: number; reason?: string };
}

export interface SourceOptions {
  client: CatalogueClient;
  config: LoadedConfig;
  outputDir: string;
  requested: SourceMode;
  /** The run's clock: the sync time of a full read or a delta. */
  now: Date;
  /** No snapshot is written (dry run). */
  dryRun: boolean;
  signal?: AbortSignal;
  onEvent: EventListener;
  warn(message: string, fields: Record<string, string | number>): void;
}

export class RunSource {
  /** The reference lists to use, when they come from the snapshot (no request). */
  reference: Reference | undefined;
  report: SourceReport;
  /** Kept state that could not be read or written (kind "state"); run.ts adds them to the manifest. */
  readonly problems: Problem[] = [];
  private snapshot: Snapshot | undefined;
  private writer: SnapshotWriter | undefined;
  /** Rejections while reading the catalogue, by code: all of them, and those of lines the run refused (kept in the snapshot). */
  private rejectedByCode: Record<string, number> = {};
  private readonly refusedByRun: Record<string, number> = {};
  private read: ReadCounts | undefined;
  /** A delta's merge: the generation merged into, and where each new line came from. */
  private merged: { from: string | undefined; origins: Origins } | undefined;
  /** The full read plan() decided on: said, and its problem kept, by open() once that read starts. */
  private planned: { reason: string; problem: string | undefined } | undefined;

  private constructor(private readonly options: SourceOptions, snapshot: Snapshot | undefined, fallback: string | undefined) {
    const { requested, now } = options;
    this.snapshot = snapshot;
    const used: SourceMode = snapshot ? requested : "full";
    this.report = { requested, used, ...(fallback ? { fallback } : {}), syncedAt: now.toISOString(), ageSeconds: 0 };
    if (snapshot) {
      this.report.syncedAt = snapshot.info.syncedAt;
      this.report.ageSeconds = Math.max(0, Math.round((now.getTime() - Date.parse(snapshot.info.syncedAt)) / 1000));
      if (used === "snapshot") this.reference = snapshot.reference;
    }
  }

  /** Decides the source before any request; opens the snapshot a delta or a refresh reads (every digest checked). */
  static plan(options: SourceOptions): RunSource {
    const { requested, config } = options;
    if (requested === "full") return new RunSource(options, undefined, undefined);
    const fallback = (reason: string, snapshot?: Snapshot, problem?: string) => {
      snapshot?.close();
      const source = new RunSource(options, undefined, reason);
      source.planned = { reason, problem };
      return source;
    };
    const file = snapshotPath(options.outputDir);
    let snapshot: Snapshot | undefined;
    try {
      snapshot = openSnapshot(file);
    } catch (error) {
      // Whatever the failure (a digest, a truncated file, an I/O error): the snapshot is not used.
      return fallback(`the snapshot cannot be used: ${(error as Error).message}`, undefined, "SNAPSHOT_UNUSABLE");
    }
    if (!snapshot) return fallback(`no snapshot yet (${file}): a full read makes one`);
    const age = (options.now.getTime() - Date.parse(snapshot.info.syncedAt)) / 3_600_000;
    if (age > config.sync.maxAgeHours) return fallback(`the snapshot is ${age.toFixed(1)} h old, more than source.sync.maxAgeHours (${config.sync.maxAgeHours})`, snapshot);
    if (snapshot.info.filter !== JSON.stringify(config.query.filter) || snapshot.info.sorting !== JSON.stringify(config.query.sorting)) {
      return fallback("the snapshot was read with another source filter or sorting", snapshot);
    }
    if (requested === "delta") {
      if (options.dryRun) return fallback("a dry run writes no snapshot, so it has none to merge a delta into", snapshot);
      const key = unsupportedKey(config.query.filter);
      if (key !== undefined) return fallback(`the source filter's "${key}" cannot be checked on a record, so a delta cannot tell what left it`, snapshot);
      if (idOrder(config.query.sorting) === undefined) return fallback("a delta keeps the snapshot in id order only: source.sorting is not by id", snapshot);
    }
    return new RunSource(options, snapshot, undefined);
  }

  /**
   * The snapshot whose lines the run maps, in their order (open() decides it): the one read, the
   * merged one, or the one a full read writes; undefined without (a dry run's full read).
   */
  get generation(): string | undefined {
    return this.writer?.generation ?? this.snapshot?.info.generation;
  }

  /**
   * What a run may copy the last run's rows against (src/rowcache/): the snapshot it reads, for
   * random access to its lines; the generation the last run must have mapped; for a delta, where
   * each merged line came from. Undefined for a full read (every product is new to the run).
   */
  get reuseBase(): ReuseBase | undefined {
    if (!this.snapshot) return undefined;
    if (this.report.used === "snapshot") return { snapshot: this.snapshot, mapped: this.snapshot.info.generation };
    if (this.report.used === "delta" && this.merged) return { snapshot: this.snapshot, mapped: this.merged.from, origins: this.merged.origins };
    return undefined;
  }

  /**
   * The lines to map. `reference`: the run's reference lists (kept in a new
   * snapshot). A delta is requested and merged here; one too large gives way
   * to a full read.
   */
  async open(reference: Reference): Promise<LineSource> {
    const { options } = this;
    if (this.report.used === "snapshot") return snapshotLines(this.snapshot as Snapshot, options.onEvent);
    if (this.report.used === "delta") {
      const merged = await this.delta(reference);
      if (merged) return merged;
    }
    if (this.planned) {
      const { reason, problem } = this.planned;
      options.warn(`--source ${this.report.requested}: reading the whole catalogue instead`, { reason });
      if (problem) this.problems.push({ kind: "state", code: problem, reason: `${reason}; the catalogue was read in full instead` });
    }
    return this.full(reference);
  }

  private stream(filter: Record<string, unknown>): RecordStream<Product> {
    const { client, config, signal, onEvent } = this.options;
    const counted: EventListener = (event) => {
      if (event.type === "rejected") this.rejectedByCode[event.rejection.code] = (this.rejectedByCode[event.rejection.code] ?? 0) + 1;
      onEvent(event);
    };
    return client.streamProducts({ filter: filter as never, sorting: config.query.sorting as never, ...(signal ? { signal } : {}), onEvent: counted });
  }

  /** A "state" problem: the snapshot could not be written; the previous one stays. */
  private notWritten(error: unknown): void {
    const reason = `the snapshot was not written (the previous one, if any, stays): ${(error as Error).message}`;
    this.options.warn("snapshot not written", { reason });
    // A delta that could not write its snapshot gives way to a full read, which may fail to as well: one problem.
    if (!this.problems.some((p) => p.code === "SNAPSHOT_NOT_WRITTEN")) this.problems.push({ kind: "state", code: "SNAPSHOT_NOT_WRITTEN", reason });
  }

  /** A writer for the new snapshot; undefined on a dry run or when it cannot be started (a problem). */
  private async newWriter(via: "full" | "delta", reference: Reference): Promise<SnapshotWriter | undefined> {
    if (this.options.dryRun) return undefined;
    const { config, now } = this.options;
    try {
      const writer = await SnapshotWriter.create(snapshotPath(this.options.outputDir), {
        syncedAt: now.toISOString(),
        filter: JSON.stringify(config.query.filter),
        sorting: JSON.stringify(config.query.sorting),
        via,
      });
      writer.setReference(reference);
      return writer;
    } catch (error) {
      this.notWritten(error);
      return undefined;
    }
  }

  private async full(reference: Reference): Promise<LineSource> {
    const stream = this.stream(this.options.config.query.filter);
    this.report.used = "full";
    this.report.syncedAt = this.options.now.toISOString();
    this.report.ageSeconds = 0;
    // A delta that gave way counted its own stream: the snapshot keeps this read's.
    this.rejectedByCode = {};
    this.writer = await this.newWriter("full", reference);
    const refused = (r: Rejection) => void (this.refusedByRun[r.code] = (this.refusedByRun[r.code] ?? 0) + 1);
    return this.writer ? keepLines(stream, this.writer, refused) : stream;
  }

  /**
   * The source counts for the manifest: a run whose lines came from a snapshot adds the lines
   * the catalogue read behind it refused (not in the snapshot) and reports that read's total.
   */
  counts(own: SourceCounts): SourceCounts & { readAt?: string } {
    return sourceCounts(own, this.read);
  }

  /** The merged snapshot's lines, or undefined when the delta gave way to a full read. */
  private async delta(reference: Reference): Promise<LineSource | undefined> {
    const { config, now } = this.options;
    const old = this.snapshot as Snapshot;
    const since = Math.floor(Date.parse(old.info.syncedAt) / 1000) - config.sync.marginSeconds;
    const limit = Math.floor(old.info.records * config.sync.maxDeltaShare);
    const giveWay = (reason: string) => {
      this.options.warn("--source delta: reading the whole catalogue instead", { reason });
      this.report.fallback = reason;
      old.close();
      this.snapshot = undefined;
      return undefined;
    };
    const writer = await this.newWriter("delta", reference);
    // The merged snapshot is what the run maps: without one, a full read.
    if (!writer) return giveWay("the merged snapshot cannot be written");
    // Every status: a delta filtered like the source would miss what left it.
    const limited = limitDelta(this.stream({ updatedSince: since }), limit);
    let counts: MergeCounts;
    const origins = new Origins();
    try {
      counts = await mergeDelta(old, limited, writer, compileFilter(config.query.filter), idOrder(config.query.sorting) === "DESC", origins);
    } catch (error) {
      await writer.abort();
      if (isStore(error)) this.problems.push({ kind: "state", code: "SNAPSHOT_UNUSABLE", reason: `the snapshot cannot be used: ${(error as Error).message}; the catalogue was read in full instead` });
      else if (!(error instanceof TooLarge || error instanceof MergeError)) throw error;
      return giveWay(
        error instanceof TooLarge ? `the delta has ${error.total} products, more than source.sync.maxDeltaShare of the snapshot (${limit})` : isStore(error) ? `the snapshot cannot be used: ${(error as Error).message}` : `the delta cannot be merged: ${(error as Error).message}`,
      );
    }
    // The refusals of the read the old snapshot holds stay with its lines.
    const carried = old.info.read;
    let merged: Snapshot | undefined;
    try {
      await writer.commit(carried ? { ...carried, total: writer.lines + Object.values(carried.refusedByCode).reduce((a, b) => a + b, 0) } : undefined);
      merged = openSnapshot(snapshotPath(this.options.outputDir));
      if (!merged) throw new PharmafeedError("WRITE_FAILED", "the merged snapshot vanished");
    } catch (error) {
      this.notWritten(error);
      return giveWay(`the merged snapshot cannot be written or read back: ${(error as Error).message}`);
    }
    this.merged = { from: old.info.generation, origins };
    old.close();
    this.snapshot = merged;
    this.report.syncedAt = now.toISOString();
    this.report.ageSeconds = 0;
    this.report.delta = counts;
    return snapshotLines(merged, this.options.onEvent);
  }

  /**
   * The stream ended well: the new snapshot of a full read replaces the previous one, with the
   * counts of this read (`total`: the catalogue's meta.total). A failure is a problem, not the run's.
   */
  async finish(total: number | undefined): Promise<void> {
    // What counts() needs of the snapshot read or merged, before it is closed.
    this.read = this.report.used === "full" ? undefined : this.snapshot?.info.read;
    this.snapshot?.close();
    this.snapshot = undefined;
    const writer = this.writer;
    this.writer = undefined;
    if (!writer) return;
    if (this.options.dryRun) return writer.abort();
    const refusedByCode: Record<string, number> = {};
    for (const [code, n] of Object.entries(this.rejectedByCode)) if (n - (this.refusedByRun[code] ?? 0) > 0) refusedByCode[code] = n - (this.refusedByRun[code] ?? 0);
    const read: ReadCounts = { total: total ?? writer.lines, refusedByCode, readAt: this.options.now.toISOString() };
    try {
      await writer.commit(read);
    } catch (error) {
      this.notWritten(error);
    }
  }

  /** The run failed: the previous snapshot stays. */
  async abort(): Promise<void> {
    this.snapshot?.close();
    this.snapshot = undefined;
    await this.writer?.abort();
    this.writer = undefined;
  }
}

const isStore = (error: unknown): boolean => error instanceof PharmafeedError && error.code === "STORE_INVALID";
