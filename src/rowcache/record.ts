/**
 * Writes what a run did with every product into the next rows.ndjson (file.ts), the
 * state log: told by the explain hook once every channel has spoken of a product (the
 * hook indexes the line's position), committed with its trailer once the run's files
 * are published (their identities are only known then). A failure here costs the next
 * refresh its speed and explain its outcomes, never a feed: logged, and the file is
 * not committed.
 */
import { mkdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { Rejection } from "../catalogue/stream/line.js";
import type { IndexProduct } from "../explain/entry.js";
import type { ProductListener } from "../explain/run-hook.js";
import type { Logger } from "../log.js";
import type { MappingContext } from "../mapping/context.js";
import type { ChannelRun } from "../pipeline/channel-run.js";
import type { ChannelEntry } from "../publish/manifest.js";
import { channelFingerprint, codeFingerprint, referenceFingerprint } from "./fingerprint.js";
import { entryText, fileIdentity, type LinePosition, type OutputFile, rowsPath, RowsWriter, type TrailerChannel } from "./file.js";

export interface RecordCommit {
  outputDir: string;
  runs: readonly ChannelRun[];
  /** The manifest entries of `runs`, in order (published or not). */
  entries: readonly ChannelEntry[];
  context: MappingContext;
  /** The snapshot whose line numbers the entries give (RunSource.generation). */
  generation: string | undefined;
  startedAt: string;
}

export class RowsRecorder implements ProductListener {
  private readonly rejections: Rejection[] = [];
  private failure: Error | undefined;

  private constructor(
    private readonly writer: RowsWriter,
    private readonly context: MappingContext,
    private readonly logger: Logger,
    /** Told when the file cannot be written (run.ts: a "state" problem; the previous file stays). */
    private readonly onFailure: (error: Error) => void,
  ) {}

  /** undefined when the file cannot be started (logged). */
  static open(outputDir: string, context: MappingContext, logger: Logger, onFailure: (error: Error) => void = () => {}): RowsRecorder | undefined {
    const file = rowsPath(outputDir);
    try {
      mkdirSync(dirname(file), { recursive: true });
      return new RowsRecorder(new RowsWriter(file), context, logger, onFailure);
    } catch (error) {
      logger.warn("rows for the next refresh not recorded", { error: (error as Error).message });
      onFailure(error as Error);
      return undefined;
    }
  }

  /** `offer`: the product's offer fingerprint when known (a copied product's, as recorded). Returns where its line is; undefined once failed. */
  add(product: IndexProduct, ordinal: number, until: number, outcomes: readonly string[], offer?: string): LinePosition | undefined {
    if (this.failure) return undefined;
    try {
      const o = offer ?? (this.context.offers ? this.context.offers.fingerprint(product.id, product.codes) : "");
      return this.writer.addLine(entryText(product, ordinal, o, until, outcomes));
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** A line of the source refused as a record: a refresh that reads no lines says it again. */
  reject(rejection: Rejection): void {
    this.rejections.push(rejection);
  }

  private fail(error: unknown): void {
    this.failure = error as Error;
    this.logger.warn("rows for the next refresh not recorded", { error: this.failure.message });
    this.onFailure(this.failure);
    this.writer.abort();
  }

  /** Returns the entries' digest (the explain index records it), undefined when the file was not written. */
  async commit({ outputDir, runs, entries, context, generation, startedAt }: RecordCommit): Promise<string | undefined> {
    if (this.failure) return undefined;
    try {
      const channels: TrailerChannel[] = [];
      for (const [i, run] of runs.entries()) {
        const files = run.layoutOfFiles;
        const output = async (file: string, header: number): Promise<OutputFile> => ({ file: relative(outputDir, file), header, identity: await fileIdentity(file) });
        const published = entries[i]?.published === true;
        channels.push({
          name: run.channel.name,
          fingerprint: channelFingerprint(run.spec, run.channel.gzip),
          copyable: !run.channel.mapping.images.process,
          separator: files.separator,
          ...(published
            ? {
                outputs: {
                  feed: await output(join(outputDir, run.channel.outputFile), files.feedHeader),
                  report: await output(files.report.file, files.report.header),
                  warnings: await output(files.warnings.file, files.warnings.header),
                },
              }
            : {}),
        });
      }
      return this.writer.commit({
        startedAt,
        code: codeFingerprint(),
        ...(generation ? { snapshot: generation } : {}),
        now: context.clock.now,
        reference: referenceFingerprint(context),
        offers: context.offers !== undefined,
        channels,
        rejections: this.rejections,
      });
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  abort(): void {
    if (!this.failure) this.writer.abort();
  }
}
