/**
 * One channel during a run: maps each product, writes the row or records the
 * exclusion, and at the end checks, gates and publishes its file. A failure
 * (a template that throws, a full disk) stops this channel only; the previous
 * file stays live and the run goes on with the others.
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
import { isDataQualityReason } from "../mapping/reasons.js";
import { checkSample, SAMPLE_ROWS } from "./sample-check.js";

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
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

  constructor(channel: LoadedChannel, outputDir: string, meta: FeedMeta) {
    this.channel = channel;
    this.compiled = compileChannel(channel.mapping, channel.name);
    this.writer = WRITERS[channel.format].create(channel.layout, meta);
    this.out = new AtomicOutput(join(outputDir, channel.outputFile), { gzip: channel.gzip });
    this.report = new ExclusionReport(join(outputDir, REPORTS_DIR, `${channel.name}.csv`));
    this.header = this.writer.header();
    this.out.write(this.header);
  }

  get failed(): Error | undefined {
    return this.failure;
  }

  /** Maps and writes one product; returns a promise only when the disk is behind. */
  add(product: Product, context: MappingContext): Promise<void> | undefined {
    if (this.failure) return undefined;
    try {
      const result = mapProduct(product, this.compiled, context);
      if (!result.ok) {
        const code = result.reasons[0]?.code ?? "MAPPING_ERROR";
        bump(this.excluded, code);
        if (isDataQualityReason(code)) this.rejected++;
        return this.guard(this.report.add(product.id, result.reasons));
      }
      for (const warning of result.warnings) bump(this.warnings, warning.code);
      for (const [field, locale] of Object.entries(result.fallbacks)) bump(this.fallbacks, `${field}:${locale}`);
      const row = this.writer.row(result.item);
      if (this.sample.length < SAMPLE_ROWS) this.sample.push(row);
      this.items++;
      return this.guard(this.out.write(row));
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
    await Promise.all([this.out.abort(), this.report.abort()].map((p) => p.catch(() => undefined)));
  }
}
