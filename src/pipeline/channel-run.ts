/**
 * One channel during a run: maps each product, writes the row or records the
 * exclusion, and at the end checks, gates and publishes its file. A failure
 * (a template that throws, a full disk) stops this channel only; the previous
 * file stays live and the run goes on with the others.
 *
 * A channel with `images.process` cannot write a row before its image links
 * are known: its rows wait in a bounded FIFO (images/queue.ts) while their
 * image jobs run, and are written in catalogue order; a full FIFO holds the
 * stream. Other channels take the direct path, unchanged.
 */
import { join } from "node:path";
import type { LoadedChannel } from "../config/types.js";
import type { Product } from "../catalogue/schemas/product.js";
import type { MappingContext } from "../mapping/context.js";
import { AtomicOutput } from "../core/atomic-output.js";
import { ExclusionReport, type ReportProduct, WARNING_COLUMNS, warningsReportName } from "../publish/exclusion-report.js";
import { evaluateGate, type GateVerdict, type PriceMoves } from "../publish/gate.js";
import { WOULD_PUBLISH } from "../publish/run-state.js";
import type { ChannelEntry, LiveFile } from "../publish/manifest.js";
import { WRITERS } from "../writers/registry.js";
import type { FeedMeta } from "../writers/types.js";
import type { Reason, WarningCode } from "../mapping/reasons.js";
import type { FeedItem } from "../mapping/feed-item.js";
import { applyImages } from "../images/apply.js";
import { ImagePipeline, type ChannelImages, type ImageOutcome } from "../images/pipeline.js";
import { OrderedQueue } from "../images/queue.js";
import { addTally, ChannelMapper, type MappedForImages, type MapperSpec, type Tally } from "./channel-mapper.js";
import { checkSample, SAMPLE_ROWS } from "./sample-check.js";
import { excludedOutcome, itemBytes, itemOutcome, withOffset } from "../explain/entry.js";
import type { ChannelSink } from "../explain/run-hook.js";
import type { EntryOutcome } from "../rowcache/file.js";
import type { OldOutputs } from "../rowcache/old-outputs.js";
import { REPORTS_DIR } from "../core/layout.js";

/** A product of an image-processing channel, waiting in the FIFO for its images. */
type PendingRow =
  | { kind: "excluded"; who: ReportProduct; reasons: Reason[] }
  | { kind: "item"; who: ReportProduct; item: FeedItem; warnings: readonly Reason<WarningCode>[]; fallbacks: Record<string, string>; images: ImageOutcome[] }
  | { kind: "error"; error: unknown };

interface ImageProcessing {
  pipeline: ImagePipeline;
  channel: ChannelImages;
  queue: OrderedQueue<PendingRow>;
}

/** One channel's share of a batch mapped by a worker thread (see shard/). */
export interface ChannelPart {
  /** The batch's rows, UTF-8. */
  rows?: Uint8Array;
  /** The batch's report lines, UTF-8. */
  report?: Uint8Array;
  /** The batch's warnings report lines, UTF-8. */
  warnings?: Uint8Array;
  tally: Tally;
  /** The batch's first rows, for the sample check. */
  sample: string[];
  /** An image-processing channel's products, mapped, in catalogue order (no rows or report lines then). */
  mapped?: MappedForImages[];
  /** The channel failed in the worker (a writer that threw). */
  failed?: string;
  /** For the state log: what the channel did with each product of the batch, in order, one outcome's JSON text a line (items at offset 0, see explain/entry.ts). */
  outcomes?: string;
}

/**
 * The one unit every road gives a channel (main-thread mapping, a worker's batch, a refresh's
 * copy, a row that waited for its images): one or more products' lines in catalogue order.
 * emit() alone places them: separators, offsets, samples, tallies and the state log's record.
 */
export interface Emitted {
  /** Rows, with the channel's separator between them (not before the first). */
  rows?: string | Uint8Array;
  /** How many rows `rows` holds. */
  items: number;
  /** Exclusion report lines. */
  report?: string | Uint8Array;
  /** Warnings report lines. */
  warnings?: string | Uint8Array;
  /** The first rows, for the sample check. */
  sample?: readonly string[];
  /** Counts not yet in the channel's tally (a worker's). */
  tally?: Tally;
  /** For the state log: each product's outcome JSON text, one a line, an item's at offset 0 (explain/entry.ts). */
  outcomes?: string;
}

export interface FinishOptions {
  /** The file being served now (from the last manifest). */
  live: LiveFile | null;
  force: boolean;
  /** Keep the file where it was written (the preview directory) and say what the real run would do. */
  dryRun: boolean;
  publishedAt: string;
  /** `generate --retire <this channel>`: its file may move to another name (the old URL is given up on purpose). */
  retire?: boolean;
  /** Called with the entry about to be published, before its rename (publish-journal.json, see publish/journal.ts). */
  journal?: (entry: ChannelEntry) => Promise<void>;
  /** This run's file (of `items` items) against the live one (src/history/): price moves for the gate, and what changed in words. */
  compare?: (items: number) => Promise<LiveComparison | undefined>;
}

export interface LiveComparison {
  prices: PriceMoves;
  /** "+12 -3, 41 price changes" */
  summary: string;
  /** What the manifest keeps of it (ChannelEntry.changes). */
  changes: NonNullable<ChannelEntry["changes"]>;
}

/** Why a pinned channel's file is not published: who pinned it, since when, what this run's file would change. */
function pinnedReason(pinned: NonNullable<LiveFile["pinned"]>, channel: string, compared: LiveComparison | undefined): string {
  const change = compared ? `; this run's file would change it by ${compared.summary}` : "";
  // The shop the rollback named (a config of shops refuses the command without it).
  const shop = /(?:^| )--shop (\S+)/.exec(pinned.command)?.[1];
  return `pinned since ${pinned.at} by \`${pinned.command}\`${change} (to publish again: pharmafeed rollback${shop === undefined ? "" : ` --shop ${shop}`} --release --channel ${channel})`;
}

export class ChannelRun {
  readonly channel: LoadedChannel;
  readonly meta: FeedMeta;
  private readonly mapper: ChannelMapper;
  private readonly out: AtomicOutput;
  private readonly report: ExclusionReport;
  private readonly warningsReport: ExclusionReport;
  private readonly header: string;
  private readonly sample: string[] = [];
  /** Rows written so far (a separator goes before every row but the first). */
  private rows = 0;
  private failure: Error | undefined;
  private aborted = false;
  private readonly processing: ImageProcessing | undefined;
  /** Bytes of the file so far: where the next row starts, for the explain index. */
  private written: number;
  private readonly separatorBytes: number;
  /** Where this channel tells the explain index what it did with each product (run.ts sets it). */
  explain: ChannelSink | undefined;

  /** `images` is the run's image pipeline; only channels with `images.process` use it. */
  constructor(channel: LoadedChannel, outputDir: string, meta: FeedMeta, images?: ImagePipeline) {
    this.channel = channel;
    this.meta = meta;
    this.mapper = new ChannelMapper({ name: channel.name, mapping: channel.mapping, layout: channel.layout, format: channel.format, meta });
    this.out = new AtomicOutput(join(outputDir, channel.outputFile), { gzip: channel.gzip });
    this.report = new ExclusionReport(join(outputDir, REPORTS_DIR, `${channel.name}.csv`));
    this.warningsReport = new ExclusionReport(join(outputDir, REPORTS_DIR, warningsReportName(channel.name)), WARNING_COLUMNS);
    this.header = this.mapper.writer.header();
    void this.guard(this.out.write(this.header));
    this.written = Buffer.byteLength(this.header);
    this.separatorBytes = Buffer.byteLength(this.mapper.writer.separator);
    const process = channel.mapping.images.process;
    if (process && images) {
      const queue = new OrderedQueue<PendingRow>(images.options.pendingRows, (row) => this.settle(row));
      this.processing = { pipeline: images, channel: ImagePipeline.channel(process), queue };
    }
  }

  /** What maps and renders this channel's rows (as a worker thread gets it, see shard/). */
  get spec(): MapperSpec {
    const { name, mapping, layout, format } = this.channel;
    return { name, mapping, layout, format, meta: this.meta };
  }

  get failed(): Error | undefined {
    return this.failure;
  }

  /** For an image-processing channel, how many photos after the first an item keeps; undefined otherwise. */
  get imagesMaxAdditional(): number | undefined {
    return this.processing?.channel.settings.maxAdditional;
  }

  /**
   * Maps and writes one product; returns a promise only when the disk is behind
   * (or, for an image-processing channel, when its FIFO of waiting rows is full).
   */
  add(product: Product, context: MappingContext): Promise<void> | undefined {
    if (this.failure) return undefined;
    try {
      if (this.processing) return this.addMapped(this.mapper.mapForImages(product, context, this.processing.channel.settings.maxAdditional));
      const outcome = this.mapper.map(product, context);
      if (outcome.row === undefined) return this.excludedLine(outcome.reasons, outcome.report);
      return this.itemLines(outcome.row, outcome.warnings, outcome.fallbacks, outcome.warningLines);
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  /**
   * A product whose lines a refresh copies from the last run's files (src/rowcache/reuse.ts):
   * written, counted and told to the explain index as if mapped again.
   */
  addCopied(outcome: Exclude<EntryOutcome, null>, old: OldOutputs): Promise<void> | undefined {
    if (this.failure) return undefined;
    try {
      this.mapper.countCopied(outcome);
      // The recorded outcome goes to the state log again (an item's with its row's new offset).
      if ("r" in outcome) return this.emit({ items: 0, report: old.reportLine(outcome.rb), outcomes: this.explain && JSON.stringify(outcome) });
      const row = old.row(outcome.l);
      return this.emit({
        rows: row,
        items: 1,
        ...(outcome.wb ? { warnings: old.warningLines(outcome.wb) } : {}),
        ...(this.sample.length < SAMPLE_ROWS ? { sample: [row.toString("utf8")] } : {}),
        outcomes: this.explain && JSON.stringify({ ...outcome, o: 0 }),
      });
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  /** What the row cache's trailer says of this channel's files (src/rowcache/file.ts), less their identities. */
  get layoutOfFiles(): { separator: string; feedHeader: number; report: { file: string; header: number }; warnings: { file: string; header: number } } {
    return {
      separator: this.mapper.writer.separator,
      feedHeader: Buffer.byteLength(this.header),
      report: { file: this.report.file, header: this.report.headerBytes },
      warnings: { file: this.warningsReport.file, header: this.warningsReport.headerBytes },
    };
  }

  /** Writes a worker's share of a batch, in catalogue order. */
  async addPart(part: ChannelPart): Promise<void> {
    if (this.failure) return;
    if (part.failed !== undefined) return this.fail(new Error(part.failed));
    if (part.mapped) {
      for (const mapped of part.mapped) {
        const pending = this.addMapped(mapped);
        if (pending) await pending;
      }
      return;
    }
    const { rows, report, warnings, sample, tally, outcomes } = part;
    await this.emit({ items: tally.items, tally, sample, ...(rows ? { rows } : {}), ...(report ? { report } : {}), ...(warnings ? { warnings } : {}), ...(outcomes ? { outcomes } : {}) });
  }

  /**
   * The one place lines reach this channel's files: rows after a separator (but the file's first),
   * report lines, the sample, the tally, and each product's outcome for the state log with its
   * row's offset in the file. Returns a promise only when the disk is behind.
   */
  private emit(unit: Emitted): Promise<void> | undefined {
    if (unit.tally) addTally(this.mapper.tally, unit.tally);
    if (unit.sample) for (const row of unit.sample) if (this.sample.length < SAMPLE_ROWS) this.sample.push(row);
    // Before the rows move `written` on: the outcomes' offsets count from where they start.
    if (unit.outcomes !== undefined && this.explain) this.explainOutcomes(unit.outcomes, this.explain);
    let a: Promise<void> | undefined;
    let b: Promise<void> | undefined;
    let c: Promise<void> | undefined;
    const { rows } = unit;
    if (rows !== undefined && unit.items > 0) {
      const lead = this.rows > 0 ? this.mapper.writer.separator : "";
      this.written += (lead === "" ? 0 : this.separatorBytes) + (typeof rows === "string" ? Buffer.byteLength(rows) : rows.byteLength);
      this.rows += unit.items;
      if (typeof rows === "string") a = this.guard(this.out.write(lead + rows));
      else {
        if (lead !== "") void this.guard(this.out.write(lead));
        a = this.guard(this.out.writeBytes(rows));
      }
    }
    if (unit.report !== undefined) b = this.guard(typeof unit.report === "string" ? this.report.addLine(unit.report) : this.report.addBytes(unit.report));
    if (unit.warnings !== undefined) c = this.guard(typeof unit.warnings === "string" ? this.warningsReport.addLine(unit.warnings) : this.warningsReport.addBytes(unit.warnings));
    if (!a && !b && !c) return undefined;
    return Promise.all([a, b, c]).then(() => undefined);
  }

  /** Outcomes in catalogue order; each item's row follows the one before with a separator but the file's first. */
  private explainOutcomes(outcomes: string, sink: ChannelSink): void {
    let at = this.written;
    let rows = this.rows;
    for (const text of outcomes.split("\n")) {
      const bytes = itemBytes(text);
      if (bytes === undefined) {
        sink.text(text);
        continue;
      }
      if (rows++ > 0) at += this.separatorBytes;
      sink.text(withOffset(text, at));
      at += bytes;
    }
  }

  /** An exclusion's report line. */
  private excludedLine(reasons: readonly Reason[], line: string): Promise<void> | undefined {
    return this.emit({ items: 0, report: line, outcomes: this.explain && JSON.stringify(excludedOutcome(reasons, Buffer.byteLength(line))) });
  }

  /** An item's warnings report lines (maybe "") and row; the row's marks are the mapper's last. */
  private itemLines(row: string, warnings: readonly Reason<WarningCode>[], fallbacks: Record<string, string>, warningLines: string): Promise<void> | undefined {
    const outcomes = this.explain && JSON.stringify(itemOutcome(0, Buffer.byteLength(row), warnings, fallbacks, { warningBytes: Buffer.byteLength(warningLines), mask: this.mapper.lastMask, facts: this.mapper.lastFacts }));
    return this.emit({ rows: row, items: 1, warnings: warningLines, ...(this.sample.length < SAMPLE_ROWS ? { sample: [row] } : {}), outcomes });
  }

  /** Queues a mapped product behind its image jobs (started now); cache hits are written at once. */
  private addMapped({ who, result, sources }: MappedForImages): Promise<void> | undefined {
    const { pipeline, channel, queue } = this.processing!;
    try {
      if (!result.ok) return queue.push({ kind: "excluded", who, reasons: result.reasons });
      const item: FeedItem = { ...result.item, imageSources: sources };
      const row = (images: ImageOutcome[]): PendingRow => ({ kind: "item", who, item, warnings: result.warnings, fallbacks: result.fallbacks, images });
      const images = pipeline.item(sources, channel);
      if (!(images instanceof Promise)) return queue.push(row(images));
      return queue.push(images.then(row, (error: unknown): PendingRow => ({ kind: "error", error })));
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  /** Writes a row whose images are ready (the FIFO's sink: never throws). */
  private settle(row: PendingRow): Promise<void> | undefined {
    if (this.failure || this.aborted) return undefined;
    try {
      if (row.kind === "error") throw row.error;
      if (row.kind === "excluded") return this.excludedLine(row.reasons, this.mapper.exclusion(row.who, row.reasons));
      const applied = applyImages(row.item, row.images, this.processing!.channel.settings.onError);
      if (!applied.ok) return this.excludedLine([applied.reason], this.mapper.exclusion(row.who, [applied.reason]));
      const warnings = [...row.warnings, ...applied.warnings];
      const rendered = this.mapper.row(applied.item, warnings, row.fallbacks, row.who.id);
      return this.itemLines(rendered, warnings, row.fallbacks, this.mapper.warningLines(row.who, warnings, row.fallbacks));
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  private guard(pending: Promise<void> | undefined): Promise<void> | undefined {
    return pending?.catch((error: unknown) => this.fail(error));
  }

  /** Stops this channel: its temporary files are removed, the live file stays. */
  fail(error: unknown): void {
    this.failure ??= error instanceof Error ? error : new Error(String(error));
    this.explain?.failed();
    void this.abort();
  }

  /** Rows still waiting for their images written (before the item sheets close: publish waits for it). */
  async settleRows(): Promise<void> {
    await this.processing?.queue.drain();
  }

  /** Footer, sample check, gate, then publish (or not); returns the manifest entry. */
  async finish(options: FinishOptions): Promise<ChannelEntry> {
    // Rows still waiting for images belong to this run's file.
    await this.settleRows();
    const tally = this.mapper.settledTally();
    const base = {
      name: this.channel.name,
      preset: this.channel.preset.name,
      locale: this.channel.mapping.locale,
      format: this.channel.format,
      contentType: WRITERS[this.channel.format].contentType,
      file: this.channel.outputFile,
      items: tally.items,
      excluded: tally.excluded,
      warnings: tally.warnings,
      fallbacks: tally.fallbacks,
      ...(Object.keys(tally.policy).length > 0 ? { policy: tally.policy } : {}),
      report: `${REPORTS_DIR}/${this.channel.name}.csv`,
      ...this.emptyColumns(tally),
    };
    const notPublished = (reason: string, bytes = 0, sha256 = ""): ChannelEntry => ({ ...base, bytes, sha256, published: reason, live: options.live });

    if (this.failure) return notPublished(`failed: ${this.failure.message}`);
    let stats;
    try {
      const footer = this.mapper.writer.footer(this.rows);
      await this.out.write(footer);
      stats = await this.out.finish();
      const problem = await checkSample(this.channel.layout.spec, this.header, this.sample, footer, this.mapper.writer.separator);
      if (problem) throw new Error(`the feed does not parse back: ${problem}`);
    } catch (error) {
      this.fail(error);
      return notPublished(`failed: ${this.failure!.message}`);
    }
    // Against the live file: the price rule's figures, and what it changes (kept in the entry, published or not).
    const compared = options.live ? await options.compare?.(tally.items) : undefined;
    const changes = compared ? { changes: compared.changes } : {};
    const verdict = this.verdict(tally, base.emptyColumns ?? [], options, compared);
    try {
      // The report describes this run whatever the gate says: it is what the catalogue team fixes.
      await this.report.publish();
      await this.warningsReport.publish();
      if (options.dryRun) {
        // A dry run's ChannelRun writes under the preview directory: the file is kept there to inspect, whatever the gate says.
        await this.out.publish();
        return notPublished(verdict.publish ? WOULD_PUBLISH : `dry run: would not publish (gate: ${verdict.reason})`, stats.bytes, stats.sha256);
      }
      if (!verdict.publish) {
        await this.out.abort();
        return { ...notPublished(`gate: ${verdict.reason}`, stats.bytes, stats.sha256), ...changes };
      }
      const live: LiveFile = {
        file: this.channel.outputFile,
        items: tally.items,
        bytes: stats.bytes,
        sha256: stats.sha256,
        publishedAt: options.publishedAt,
        ...(stats.gzip ? { gzip: { file: this.channel.outputFile + ".gz", bytes: stats.gzip.bytes } } : {}),
      };
      const entry: ChannelEntry = { ...base, bytes: stats.bytes, sha256: stats.sha256, published: true, live, ...changes };
      // Said before it is done: a kill after the rename leaves a file the journal describes.
      await options.journal?.(entry);
      await this.out.publish();
      return entry;
    } catch (error) {
      // A full disk or a rename refused at the last step fails this channel alone.
      this.fail(error);
      return notPublished(`failed: ${this.failure!.message}`, stats.bytes, stats.sha256);
    }
  }

  /** A pinned feed stays (rollback --release lifts it, not --force); else the gate decides. */
  private verdict(tally: Tally, emptyColumns: readonly string[], options: FinishOptions, compared: LiveComparison | undefined): GateVerdict {
    const pinned = options.live?.pinned;
    if (pinned) return { publish: false, reason: pinnedReason(pinned, this.channel.name, compared) };
    return evaluateGate(
      {
        ...(compared ? { prices: compared.prices } : {}),
        items: tally.items,
        rejected: tally.rejected,
        liveItems: options.live?.items,
        emptyColumns,
        // `--retire <channel>`: the old URL is given up on purpose.
        ...(options.live && !options.retire ? { move: { from: options.live.file, to: this.channel.outputFile } } : {}),
      },
      this.channel.gate,
      options.force,
    );
  }

  /**
   * The columns blank in every row (none when there were no rows): headers of a column
   * format, top-level `{{...}}` of an XML item template (those inside #if are optional).
   */
  private emptyColumns(tally: Tally): { emptyColumns?: string[] } {
    const columns = this.mapper.writer.columns;
    if (!columns || tally.items === 0) return {};
    const empty = columns.filter((_, i) => (tally.filled[i] ?? 0) === 0);
    return empty.length > 0 ? { emptyColumns: empty } : {};
  }

  /** Nothing of this run is published. Best effort: a cleanup error never hides the failure. */
  async abort(): Promise<void> {
    this.aborted = true;
    await Promise.all([this.out.abort(), this.report.abort(), this.warningsReport.abort()].map((p) => p.catch(() => undefined)));
  }
}
