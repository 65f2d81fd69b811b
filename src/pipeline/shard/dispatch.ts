/**
 * The products of the run into every channel: in this thread for a small
 * catalogue (starting workers would cost more than it saves), through the
 * worker pool otherwise. Decided on the first line, which carries meta.total.
 * Either way the lines are parsed by the same code (shard.ts) and the files
 * come out byte for byte the same.
 *
 * A refresh (src/rowcache/reuse.ts) gives copies among its lines, in order: the
 * products written from the last run's files. It runs in this thread (run.ts
 * asks for no workers): its main thread, copying, is what bounds it, and on two
 * cores a pool mapping its other lines made it slower (issue 25).
 */
import type { Rejection } from "../../catalogue/stream/line.js";
import type { RawLine } from "../../catalogue/stream/record-stream.js";
import type { MappingContext } from "../../mapping/context.js";
import type { Product } from "../../catalogue/schemas/product.js";
import type { ChannelRun } from "../channel-run.js";
import { ShardPool } from "./pool.js";
import type { BatchResult, LineRef, ShardInit } from "./protocol.js";
import { parseLine } from "./shard.js";
import { indexProduct, type IndexProduct } from "../../explain/entry.js";

/** Lines per batch: ~0.5 MB of JSON, big enough that messaging is a small share of a batch's cost. */
const BATCH_LINES = 50;

/** A product written from what the last run recorded of it (a refresh's, src/rowcache/reuse.ts), in its place among the lines. */
export interface Copy {
  copy(): Promise<void>;
}

/** A line to map; `ordinal`, its place among the source's lines when not simply the next one (a refresh's). */
export type LineToMap = RawLine & { ordinal?: number };

/** What dispatch() maps and writes: a stream's or snapshot's lines, or a refresh's lines and copies. */
export interface ProductSource {
  lines(): AsyncIterable<LineToMap | Copy>;
  reject(rejection: Rejection): void;
}

/** The lines of the next batch, copied out of the response's chunks into a buffer of its own (to transfer). */
class BatchBuilder {
  private bytes = Buffer.allocUnsafeSlow(512 * 1024);
  private used = 0;
  lines: LineRef[] = [];

  add(line: RawLine, ordinal: number): void {
    if (this.used + line.bytes.length > this.bytes.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(this.used + line.bytes.length, this.bytes.length * 2));
      this.bytes.copy(bigger, 0, 0, this.used);
      this.bytes = bigger;
    }
    this.used += line.bytes.copy(this.bytes, this.used);
    this.lines.push({ end: this.used, line: line.line, index: line.index, ordinal });
  }

  /** The batch so far; the builder starts a new one. */
  take(): { bytes: Uint8Array; lines: LineRef[] } {
    const batch = { bytes: new Uint8Array(this.bytes.buffer, 0, this.used), lines: this.lines };
    this.bytes = Buffer.allocUnsafeSlow(this.bytes.length);
    this.used = 0;
    this.lines = [];
    return batch;
  }
}

/** The explain index of one shop: told of every valid product before its channels map it (its line among the source's, and its rows' horizon when known), closed after. */
export interface ExplainTarget {
  product(entry: IndexProduct, ordinal: number, until?: number, offer?: string): void;
  close(until: number): void;
}

/** One shop's channels, its mapping context (its offers) and its explain index: a run of many shops has one each (docs/shops.md). */
export interface Target {
  runs: ChannelRun[];
  context: MappingContext;
  explain?: ExplainTarget | undefined;
}

export interface DispatchOptions {
  /** Worker threads; 0 maps in this thread. */
  workers: number;
  /** Catalogues smaller than this (meta.total) are mapped in this thread. */
  minProducts: number;
  /** Valid products handed to the channels so far (progress). */
  onProducts(count: number): void;
}

/** The offers travel as SharedArrayBuffers: every worker reads the main thread's index, none gets a copy. */
function shardInit(targets: readonly Target[]): ShardInit {
  return {
    targets: targets.map(({ runs, context, explain }, t) => ({
      explain: explain !== undefined,
      channels: runs.map((run) => {
        const max = run.imagesMaxAdditional;
        return { ...run.spec, ...(max === undefined ? {} : { imagesMaxAdditional: max }) };
      }),
      // The reference lists once: the other shops' contexts share the first one's (shard.ts).
      context: { ...(t === 0 ? { categories: [...context.categories.values()], brands: [...context.brands.values()] } : {}), offers: context.offers?.share(), now: context.clock.now, priceUnit: context.priceUnit },
    })),
  };
}

/** One product into every channel of every shop, in this thread, each shop's explain index told before and closed with its rows' horizon after. */
export async function mapInThread(product: Product, ordinal: number, targets: readonly Target[]): Promise<void> {
  for (const { runs, context, explain } of targets) {
    explain?.product(indexProduct(product, context), ordinal);
    context.clock.reset();
    for (const run of runs) {
      const pending = run.add(product, context);
      if (pending) await pending;
    }
    explain?.close(context.clock.horizon);
  }
}

/** Returns how many worker threads mapped the products (0: this thread did). */
export async function dispatch(stream: ProductSource, targets: readonly Target[], options: DispatchOptions): Promise<number> {
  let pool: ShardPool | undefined;
  let local: boolean | undefined;
  let received = 0;
  const batch = new BatchBuilder();
  const runs = targets.flatMap((t) => t.runs);
  const apply = async (result: BatchResult): Promise<void> => {
    for (const rejection of result.rejections) stream.reject(rejection);
    result.index?.forEach((shop, t) => shop?.products.forEach((entry, k) => targets[t]!.explain?.product(entry, result.ordinals![k]!, shop.until[k]!)));
    await Promise.all(result.parts.map((part, i) => runs[i]!.addPart(part)));
    options.onProducts((received += result.products));
  };
  const inThread = async (line: RawLine, ordinal: number): Promise<void> => {
    const parsed = parseLine(line.bytes.toString("utf8"), line.line, line.index);
    if (!parsed.ok) return stream.reject(parsed.rejection);
    await mapInThread(parsed.product, ordinal, targets);
    options.onProducts(++received);
  };
  // The lines' places among the source's lines: line n of a snapshot, whatever the source's meta.index says.
  let ordinal = 0;
  try {
    for await (const step of stream.lines()) {
      if ("copy" in step) {
        // Written at once, between the lines mapped before and after it: only in this thread.
        if (pool) throw new Error("a copied product came to a run that maps on worker threads");
        await step.copy();
        options.onProducts(++received);
        continue;
      }
      const at = step.ordinal ?? ordinal++;
      if (local === undefined) {
        local = options.workers <= 0 || step.total < options.minProducts;
        if (!local) pool = new ShardPool(shardInit(targets), options.workers, apply);
      }
      if (!pool) {
        await inThread(step, at);
        continue;
      }
      batch.add(step, at);
      if (batch.lines.length === BATCH_LINES) await pool.submit(batch.take());
    }
    if (pool && batch.lines.length > 0) await pool.submit(batch.take());
    await pool?.drain();
    return pool ? options.workers : 0;
  } finally {
    await pool?.close();
  }
}
