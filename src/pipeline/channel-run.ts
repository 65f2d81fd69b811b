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
import { compileChannel, type CompiledChannel } from "../mapping/compile.js";
import type { MappingContext } from "../mapping/context.js";
import { mapProduct } from "../mapping/map-product.js";
import { AtomicOutput } from "../publish/atomic-output.js";
import { ExclusionReport, REPORTS_DIR } from "../publish/exclusion-report.js";
import { evaluateGate } from "../publish/gate.js";
import type { ChannelEntry, LiveFile } from "../publish/manifest.js";
import { WRITERS } from "../writers/registry.js";
import type { FeedMeta, FeedWriter } from "../writers/types.js";
import { isDataQualityReason, type Reason, type WarningCode } from "../mapping/reasons.js";
import type { FeedItem } from "../mapping/feed-item.js";
import { selectImageSources } from "../mapping/photos.js";
import { applyImages } from "../images/apply.js";
import { ImagePipeline, type ChannelImages, type ImageOutcome } from "../images/pipeline.js";
import { OrderedQueue } from "../images/queue.js";
import { checkSample, SAMPLE_ROWS } from "./sample-check.js";

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** A product of an image-processing channel, waiting in the FIFO for its images. */
type PendingRow =
  | { kind: "excluded"; id: string; reasons: Reason[] }
  | { kind: "item"; id: string; item: FeedItem; warnings: readonly Reason<WarningCode>[]; fallbacks: Record<string, string>; images: ImageOutcome[] }
  | { kind: "error"; error: unknown };

interface ImageProcessing {
  pipeline: ImagePipeline;
  channel: ChannelImages;
  queue: OrderedQueue<PendingRow>;
}

export interface FinishOptions {
  /** The file being served now (from the last manifest). */
  live: LiveFile | null;
  force: boolean;
  dryRun: boolean;
  publishedAt: string;
}

export class ChannelRun {
  readonly channel: LoadedChannel;
  private readonly compiled: CompiledChannel;
  private readonly writer: FeedWriter;
  private readonly out: AtomicOutput;
  private readonly report: ExclusionReport;
  private readonly header: string;
  private readonly sample: string[] = [];
  private items = 0;
  private rejected = 0;
  private readonly excluded: Record<string, number> = {};
  private readonly warnings: Record<string, number> = {};
  private readonly fallbacks: Record<string, number> = {};
  private failure: Error | undefined;
  private aborted = false;
  private readonly processing: ImageProcessing | undefined;

  /** `images` is the run's image pipeline; only channels with `images.process` use it. */
  constructor(channel: LoadedChannel, outputDir: string, meta: FeedMeta, images?: ImagePipeline) {
    this.channel = channel;
    this.compiled = compileChannel(channel.mapping, channel.name);
    this.writer = WRITERS[channel.format].create(channel.layout, meta);
    this.out = new AtomicOutput(join(outputDir, channel.outputFile), { gzip: channel.gzip });
    this.report = new ExclusionReport(join(outputDir, REPORTS_DIR, `${channel.name}.csv`));
    this.header = this.writer.header();
    this.out.write(this.header);
    const process = channel.mapping.images.process;
    if (process && images) {
      const queue = new OrderedQueue<PendingRow>(images.options.pendingRows, (row) => this.settle(row));
      this.processing = { pipeline: images, channel: ImagePipeline.channel(process), queue };
    }
  }

  get failed(): Error | undefined {
    return this.failure;
  }

  /**
   * Maps and writes one product; returns a promise only when the disk is behind
   * (or, for an image-processing channel, when its FIFO of waiting rows is full).
   */
  add(product: Product, context: MappingContext): Promise<void> | undefined {
    if (this.failure) return undefined;
    if (this.processing) return this.addWithImages(product, context, this.processing);
    try {
      const result = mapProduct(product, this.compiled, context);
      if (!result.ok) return this.exclude(product.id, result.reasons);
      return this.write(result.item, result.warnings, result.fallbacks);
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  private exclude(id: string, reasons: Reason[]): Promise<void> | undefined {
    const code = reasons[0]?.code ?? "MAPPING_ERROR";
    bump(this.excluded, code);
    if (isDataQualityReason(code)) this.rejected++;
    return this.guard(this.report.add(id, reasons));
  }

  private write(item: FeedItem, warnings: readonly Reason<WarningCode>[], fallbacks: Record<string, string>): Promise<void> | undefined {
    for (const warning of warnings) bump(this.warnings, warning.code);
    for (const [field, locale] of Object.entries(fallbacks)) bump(this.fallbacks, `${field}:${locale}`);
    const row = this.writer.row(item);
    if (this.sample.length < SAMPLE_ROWS) this.sample.push(row);
    this.items++;
    return this.guard(this.out.write(row));
  }

  /** Maps now, queues the row behind its image jobs (started now); cache hits are written at once. */
  private addWithImages(product: Product, context: MappingContext, processing: ImageProcessing): Promise<void> | undefined {
    const { pipeline, channel, queue } = processing;
    try {
      const result = mapProduct(product, this.compiled, context);
      if (!result.ok) return queue.push({ kind: "excluded", id: product.id, reasons: result.reasons });
      const sources = selectImageSources(product, this.compiled.images).slice(0, 1 + channel.settings.maxAdditional);
      const item: FeedItem = { ...result.item, imageSources: sources };
      const row = (images: ImageOutcome[]): PendingRow => ({ kind: "item", id: product.id, item, warnings: result.warnings, fallbacks: result.fallbacks, images });
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
      if (row.kind === "excluded") return this.exclude(row.id, row.reasons);
      const applied = applyImages(row.item, row.images, this.processing!.channel.settings.onError);
      if (!applied.ok) return this.exclude(row.id, [applied.reason]);
      return this.write(applied.item, [...row.warnings, ...applied.warnings], row.fallbacks);
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
    void this.abort();
  }

  /** Footer, sample check, gate, then publish (or not); returns the manifest entry. */
  async finish(options: FinishOptions): Promise<ChannelEntry> {
    // Rows still waiting for images belong to this run's file.
    await this.processing?.queue.drain();
    const base = {
      name: this.channel.name,
      preset: this.channel.preset.name,
      locale: this.channel.mapping.locale,
      format: this.channel.format,
      contentType: WRITERS[this.channel.format].contentType,
      file: this.channel.outputFile,
      items: this.items,
      excluded: this.excluded,
      warnings: this.warnings,
      fallbacks: this.fallbacks,
      report: `${REPORTS_DIR}/${this.channel.name}.csv`,
    };
    const notPublished = (reason: string, bytes = 0, sha256 = ""): ChannelEntry => ({ ...base, bytes, sha256, published: reason, live: options.live });

    if (this.failure) return notPublished(`failed: ${this.failure.message}`);
    let stats;
    try {
      const footer = this.writer.footer();
      this.out.write(footer);
      stats = await this.out.finish();
      const problem = checkSample(this.channel.layout.spec, this.header, this.sample, footer);
      if (problem) throw new Error(`the feed does not parse back: ${problem}`);
    } catch (error) {
      this.fail(error);
      return notPublished(`failed: ${this.failure!.message}`);
    }
    if (options.dryRun) {
      await this.abort();
      return notPublished("dry run", stats.bytes, stats.sha256);
    }
    const verdict = evaluateGate({ items: this.items, rejected: this.rejected, liveItems: options.live?.items }, this.channel.gate, options.force);
    try {
      // The report describes this run whatever the gate says: it is what the catalogue team fixes.
      await this.report.publish();
      if (!verdict.publish) {
        await this.out.abort();
        return notPublished(`gate: ${verdict.reason}`, stats.bytes, stats.sha256);
      }
      await this.out.publish();
    } catch (error) {
      // A full disk or a rename refused at the last step fails this channel alone.
      this.fail(error);
      return notPublished(`failed: ${this.failure!.message}`, stats.bytes, stats.sha256);
    }
    const live: LiveFile = {
      file: this.channel.outputFile,
      items: this.items,
      bytes: stats.bytes,
      sha256: stats.sha256,
      publishedAt: options.publishedAt,
      ...(stats.gzip ? { gzip: { file: this.channel.outputFile + ".gz", bytes: stats.gzip.bytes } } : {}),
    };
    return { ...base, bytes: stats.bytes, sha256: stats.sha256, published: true, live };
  }

  /** Nothing of this run is published. Best effort: a cleanup error never hides the failure. */
  async abort(): Promise<void> {
    this.aborted = true;
    await Promise.all([this.out.abort(), this.report.abort()].map((p) => p.catch(() => undefined)));
  }
}
