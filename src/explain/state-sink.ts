/**
 * The state log (rows.ndjson: what the run did with every product, for the next refresh) and
 * the explain index that points into it, as one sink of the run (publish/run-parts.ts). Both
 * hear every product while the run maps; once the feeds are published the log is committed
 * first, then the index, which records the log's digest.
 *
 * Kept state is an aid: what cannot be written is a "state" problem (the run is degraded, exits
 * 8 and alerts), while the feeds are published anyway and the previous files stay as they were.
 */
import type { Logger } from "../log.js";
import type { MappingContext } from "../mapping/context.js";
import type { Problem } from "../publish/manifest.js";
import type { PublishedRun, StateSink } from "../publish/run-parts.js";
import { type RecordCommit, RowsRecorder } from "../rowcache/record.js";
import { ExplainHook } from "./run-hook.js";

export interface StateLogOptions {
  outputDir: string;
  /** How many channels the run has (the index keeps an outcome per channel). */
  channels: number;
  context: MappingContext;
  logger: Logger;
  dryRun: boolean;
}

export class StateLogSink implements StateSink {
  readonly name = "state log and explain index";
  private readonly problems: Problem[] = [];
  /** Hears every channel's outcome of every product (a dry run's writes no index); undefined when it could not start. */
  explain: ExplainHook | undefined;
  private rows: RowsRecorder | undefined;

  private constructor() {}

  static async open(options: StateLogOptions): Promise<StateLogSink> {
    const sink = new StateLogSink();
    const { outputDir, channels, context, logger, dryRun } = options;
    sink.explain = await ExplainHook.open(outputDir, channels, logger, dryRun, (e) => sink.explainNotWritten(e));
    // What this run does with every product, for the next refresh to copy (none on a dry run: nothing of it is kept).
    sink.rows = sink.explain && !dryRun ? RowsRecorder.open(outputDir, context, logger, (e) => sink.rowsNotWritten(e)) : undefined;
    if (!sink.explain && !dryRun) sink.rowsNotWritten(new Error("the explain index, which hears of every product, could not be started"));
    if (sink.rows) sink.explain?.listen(sink.rows);
    return sink;
  }

  /** Told of a product the source rejected (the log keeps its line, so a refresh skips it too). */
  reject: RowsRecorder["reject"] = (rejection) => this.rows?.reject(rejection);

  /** What the rows file needs beside the published run: set once the products were read. */
  record: Omit<RecordCommit, "outputDir" | "entries" | "startedAt"> | undefined;

  async commit(run: PublishedRun): Promise<Problem[]> {
    const { outputDir, manifest, entries } = run;
    const record = this.record;
    await this.explain?.commit(outputDir, manifest.startedAt, entries, async () => (record ? this.rows?.commit({ ...record, outputDir, entries, startedAt: manifest.startedAt }) : undefined));
    return this.problems;
  }

  async abort(): Promise<void> {
    await this.explain?.abort();
    this.rows?.abort();
  }

  private add(code: string, reason: string): void {
    if (!this.problems.some((p) => p.code === code)) this.problems.push({ kind: "state", code, reason });
  }

  private explainNotWritten(error: Error): void {
    this.add(
      "EXPLAIN_INDEX_NOT_WRITTEN",
      `the explain index was not written (${error.message}): explain and the status page answer from the last index written, older than these feeds, until a run writes one`,
    );
  }

  private rowsNotWritten(error: Error): void {
    this.add("ROWS_NOT_WRITTEN", `the rows file for the next refresh was not written (${error.message}): the next refresh maps every product`);
  }
}
