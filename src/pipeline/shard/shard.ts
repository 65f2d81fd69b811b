/**
 * What a worker thread of generate does with a batch of stream lines: parse and
 * validate them (as the client would), map every product for every channel and
 * render its row or report line, product after product so that the product's
 * facts are computed once for all channels. Runs in the main thread too, for a
 * small catalogue (see pool.ts), so both paths produce the same bytes.
 */
import { checkRecord, readEnvelope, type Rejection } from "../../catalogue/stream/line.js";
import { Product } from "../../catalogue/schemas/product.js";
import { buildContext, type MappingContext } from "../../mapping/context.js";
import { ChannelMapper, emptyTally, type MappedForImages } from "../channel-mapper.js";
import type { ChannelPart } from "../channel-run.js";
import { SAMPLE_ROWS } from "../sample-check.js";
import type { BatchRequest, BatchResult, ShardInit } from "./protocol.js";
import { excludedOutcome, indexProduct, type IndexProduct, itemOutcome } from "../../explain/entry.js";

/** A stream line to a valid product, or the reason it is refused (codes and paths as the client gives them). */
export function parseLine(text: string, line: number, index: number): { ok: true; product: Product } | { ok: false; rejection: Rejection } {
  const envelope = readEnvelope(text, line);
  if (!envelope.ok) return { ok: false, rejection: { ...envelope.reason, index } };
  const checked = checkRecord(Product, envelope.result, line, index);
  return checked.ok ? { ok: true, product: checked.value } : { ok: false, rejection: checked.reason };
}

interface ChannelState {
  mapper: ChannelMapper;
  rows: ByteSink;
  report: ByteSink;
  warnings: ByteSink;
  imagesMaxAdditional: number | undefined;
  failed: string | undefined;
  /** Rows sent as samples so far: the main thread's first SAMPLE_ROWS rows are among each worker's first SAMPLE_ROWS. */
  sampled: number;
}

/**
 * A channel's rows (or report lines) of a batch, encoded as they come: strings
 * kept until the end of a batch would outlive a scavenge or two and be copied
 * and promoted; bytes in a reused buffer cost V8's heap nothing.
 */
class ByteSink {
  private buffer = Buffer.allocUnsafeSlow(64 * 1024);
  private used = 0;

  write(text: string): void {
    // A UTF-16 unit never takes more than 3 bytes in UTF-8.
    const need = this.used + text.length * 3;
    if (need > this.buffer.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(need, this.buffer.length * 2));
      this.buffer.copy(bigger, 0, 0, this.used);
      this.buffer = bigger;
    }
    this.used += this.buffer.write(text, this.used, "utf8");
  }

  get empty(): boolean {
    return this.used === 0;
  }

  /** The bytes written since the last take, in a buffer of their own (to transfer); the sink starts over. */
  take(): Uint8Array | undefined {
    if (this.used === 0) return undefined;
    const bytes = new Uint8Array(this.used);
    bytes.set(this.buffer.subarray(0, this.used));
    this.used = 0;
    return bytes;
  }
}

/** A shop's channels and context in a worker (one per ShardTarget). */
interface TargetState {
  context: MappingContext;
  channels: ChannelState[];
  explain: boolean;
}

export class Shard {
  private readonly targets: TargetState[];

  constructor(init: ShardInit) {
    // Every shop's context shares the first one's reference data and per-product work (mapping/context.ts).
    let first: MappingContext | undefined;
    this.targets = init.targets.map((target) => ({
      context: first ? buildContext(target.context, first) : (first = buildContext(target.context)),
      explain: target.explain === true,
      channels: target.channels.map((spec) => ({ mapper: new ChannelMapper(spec), rows: new ByteSink(), report: new ByteSink(), warnings: new ByteSink(), imagesMaxAdditional: spec.imagesMaxAdditional, failed: undefined, sampled: 0 })),
    }));
  }

  /** The batch's result, and the buffers to transfer with it. */
  batch(request: BatchRequest): { result: BatchResult; transfer: ArrayBuffer[] } {
    const rejections: Rejection[] = [];
    const channels = this.targets.flatMap((t) => t.channels);
    const samples = channels.map((): string[] => []);
    const mapped = channels.map((c) => (c.imagesMaxAdditional === undefined ? undefined : ([] as MappedForImages[])));
    for (const channel of channels) channel.mapper.tally = emptyTally();
    const index = this.targets.map((t) => (t.explain ? { products: [] as IndexProduct[], until: [] as number[] } : undefined));
    const explaining = index.some((i) => i !== undefined);
    const ordinals: number[] = [];
    const explains = channels.map((): string[] => []);
    let products = 0;
    const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
    let start = 0;
    for (const ref of request.lines) {
      // Decoded only now, so that the batch's other lines stay bytes, off the heap.
      const parsed = parseLine(bytes.toString("utf8", start, ref.end), ref.line, ref.index);
      start = ref.end;
      if (!parsed.ok) {
        rejections.push(parsed.rejection);
        continue;
      }
      products++;
      if (explaining) ordinals.push(ref.ordinal);
      // Parsed and checked once; mapped per shop (its offers), channel after channel.
      let i = 0;
      for (let t = 0; t < this.targets.length; t++) {
        const { context, channels: own } = this.targets[t]!;
        const shopIndex = index[t];
        shopIndex?.products.push(indexProduct(parsed.product, context));
        context.clock.reset();
        for (const channel of own) {
          this.mapOne(parsed.product, context, channel, i, { samples, mapped, explains: shopIndex ? explains : undefined });
          i++;
        }
        shopIndex?.until.push(context.clock.horizon);
      }
    }
    const transfer: ArrayBuffer[] = [];
    const take = (sink: ByteSink): Uint8Array | undefined => {
      const bytes = sink.take();
      if (bytes) transfer.push(bytes.buffer as ArrayBuffer);
      return bytes;
    };
    const explainsOf = this.targets.flatMap((t) => t.channels.map(() => t.explain));
    const parts = channels.map((channel, i): ChannelPart => {
      if (channel.failed !== undefined) return { tally: emptyTally(), sample: [], failed: channel.failed };
      const part: ChannelPart = { tally: channel.mapper.tally, sample: samples[i]! };
      const rowBytes = take(channel.rows);
      const reportBytes = take(channel.report);
      const warningBytes = take(channel.warnings);
      if (warningBytes) part.warnings = warningBytes;
      if (rowBytes) part.rows = rowBytes;
      if (reportBytes) part.report = reportBytes;
      if (mapped[i]) part.mapped = mapped[i];
      else if (explainsOf[i]) part.outcomes = explains[i]!.join("\n");
      return part;
    });
    return { result: { seq: request.seq, products, rejections, parts, ...(explaining ? { index, ordinals } : {}) }, transfer };
  }

  /** One product into one channel: its row or report line written, its explain outcome kept; a throwing writer fails the channel only. */
  private mapOne(product: Product, context: MappingContext, channel: ChannelState, i: number, out: { samples: string[][]; mapped: (MappedForImages[] | undefined)[]; explains: string[][] | undefined }): void {
    if (channel.failed !== undefined) return;
    try {
      if (channel.imagesMaxAdditional !== undefined) {
        out.mapped[i]!.push(channel.mapper.mapForImages(product, context, channel.imagesMaxAdditional));
        return;
      }
      const outcome = channel.mapper.map(product, context);
      if (out.explains) {
        // As text, the row's offset 0 (entry.ts withOffset): cheaper to send than objects.
        out.explains[i]!.push(
          JSON.stringify(
            outcome.row === undefined
              ? excludedOutcome(outcome.reasons, Buffer.byteLength(outcome.report))
              : itemOutcome(0, Buffer.byteLength(outcome.row), outcome.warnings, outcome.fallbacks, { warningBytes: Buffer.byteLength(outcome.warningLines), mask: channel.mapper.lastMask, facts: channel.mapper.lastFacts }),
          ),
        );
      }
      if (outcome.row === undefined) channel.report.write(outcome.report);
      else {
        if (outcome.warningLines !== "") channel.warnings.write(outcome.warningLines);
        if (!channel.rows.empty) channel.rows.write(channel.mapper.writer.separator);
        channel.rows.write(outcome.row);
        if (channel.sampled < SAMPLE_ROWS) {
          out.samples[i]!.push(outcome.row);
          channel.sampled++;
        }
      }
    } catch (error) {
      channel.failed = error instanceof Error ? error.message : String(error);
    }
  }
}
