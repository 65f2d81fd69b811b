/**
 * The products of the run into every channel: in this thread for a small
 * catalogue (starting workers would cost more than it saves), through the
 * worker pool otherwise. Decided on the first line to map, which carries
 * meta.total (a refresh's pool starts after options.poolAfter lines). Either
 * way the lines are parsed by the same code (shard.ts) and the files come out
 * byte for byte the same.
 *
 * A refresh (src/rowcache/reuse.ts) gives copies among the lines, in order: the
 * products whose lines are written from the last run's files. Until the pool
 * starts they are written at once; after, they ride in the batches, in their
 * places, and a batch that holds copies is written product by product (each
 * mapped product as its outcome says, ChannelRun.addCopied), so the lines a
 * refresh maps again are mapped on the workers too.
 */
import type { Rejection } from "../../catalogue/stream/line.js";
import type { RawLine } from "../../catalogue/stream/record-stream.js";
import type { MappingContext } from "../../mapping/context.js";
import type { Product } from "../../catalogue/schemas/product.js";
import type { ChannelRun } from "../channel-run.js";
import { ShardPool } from "./pool.js";
import type { BatchResult, LineRef, ShardInit } from "./protocol.js";
import { parseLine } from "./shard.js";
import { indexProduct, type IndexProduct, type Outcome } from "../../explain/entry.js";
import { PartLines } from "./part-lines.js";

/**
 * A batch's size: `lines` to map (~0.5 MB of JSON, big enough that messaging is a small
 * share of a batch's cost), or `products` copies and lines together (a refresh that maps
 * few products: its copies wait in the batch for the lines before them). Tests make them
 * small to see many batches.
 */
export const BATCH = { lines: 50, products: 512 };

/** A product written from what the last run recorded of it (a refresh's, src/rowcache/reuse.ts). */
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
  /** The batch's copies in their places among its lines (null: the next line's product); undefined while it has none. */
  order: (Copy | null)[] | undefined;
  products = 0;

  add(line: RawLine, ordinal: number): void {
    if (this.used + line.bytes.length > this.bytes.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(this.used + line.bytes.length, this.bytes.length * 2));
      this.bytes.copy(bigger, 0, 0, this.used);
      this.bytes = bigger;
    }
    this.used += line.bytes.copy(this.bytes, this.used);
    this.lines.push({ end: this.used, line: line.line, index: line.index, ordinal });
    this.order?.push(null);
    this.products++;
  }

  addCopy(copy: Copy): void {
    this.order ??= this.lines.map(() => null);
    this.order.push(copy);
    this.products++;
  }

  get full(): boolean {
    return this.lines.length === BATCH.lines || this.products >= BATCH.products;
  }

  /** The batch so far; the builder starts a new one. */
  take(): { bytes: Uint8Array; lines: LineRef[]; order: (Copy | null)[] | undefined } {
    const batch = { bytes: new Uint8Array(this.bytes.buffer, 0, this.used), lines: this.lines, order: this.order };
    this.bytes = Buffer.allocUnsafeSlow(this.bytes.length);
    this.used = 0;
    this.lines = [];
    this.order = undefined;
    this.products = 0;
    return batch;
  }
}

export interface DispatchOptions {
  /** Worker threads; 0 maps in this thread. */
  workers: number;
  /** Catalogues smaller than this (meta.total) are mapped in this thread. */
  minProducts: number;
  /**
   * Lines mapped in this thread before the pool starts (default 0: at the first line). A refresh
   * maps only the products whose offer changed: the pool's start and its threads' memory pay
   * only when there are many.
   */
  poolAfter?: number;
  /** Valid products handed to the channels so far (progress). */
  onProducts(count: number): void;
  /** The explain index: told of every valid product before the channels map it (its line among the source's, and its rows' horizon when known), closed after. */
  explain?: { product(entry: IndexProduct, ordinal: number, until?: number, offer?: string): void; close(until: number): void };
}

/** The offers travel as SharedArrayBuffers: every worker reads the main thread's index, none gets a copy. */
function shardInit(runs: ChannelRun[], context: MappingContext, explain: boolean): ShardInit {
  return {
    explain,
    channels: runs.map((run) => {
      const max = run.imagesMaxAdditional;
      return { ...run.spec, ...(max === undefined ? {} : { imagesMaxAdditional: max }) };
    }),
    context: { categories: [...context.categories.values()], brands: [...context.brands.values()], offers: context.offers?.share(), now: context.clock.now, priceUnit: context.priceUnit },
  };
}

/** One product into every channel, in this thread, the explain index told before and closed with the rows' horizon after. */
export async function mapInThread(product: Product, ordinal: number, runs: readonly ChannelRun[], context: MappingContext, explain: DispatchOptions["explain"]): Promise<void> {
  explain?.product(indexProduct(product), ordinal);
  context.clock.reset();
  for (const run of runs) {
    const pending = run.add(product, context);
    if (pending) await pending;
  }
  explain?.close(context.clock.horizon);
}

/**
 * A batch with copies among its lines, product by product in order: a copy as it says,
 * a mapped product through ChannelRun.addCopied with its outcome (the state log's, sent as
 * text) and its lines read from the worker's part. The parts' tallies are not added: each
 * product is counted from its outcome, as a copy is.
 */
async function applyInOrder(result: BatchResult, order: readonly (Copy | null)[], runs: readonly ChannelRun[], explain: DispatchOptions["explain"]): Promise<void> {
  if (!result.index || !explain) throw new Error("a refresh's batch came back without its products' outcomes");
  const outcomes = result.parts.map((part) => part.outcomes?.split("\n"));
  const lines = result.parts.map((part, i) => new PartLines(part, runs[i]!.separatorBytes));
  result.parts.forEach((part, i) => part.failed !== undefined && runs[i]!.fail(new Error(part.failed)));
  let k = 0;
  for (const step of order) {
    if (step) {
      await step.copy();
      continue;
    }
    explain.product(result.index[k]!, result.ordinals![k]!, result.until![k]!);
    for (let i = 0; i < runs.length; i++) {
      const text = outcomes[i]?.[k];
      if (text === undefined) continue;
      const pending = runs[i]!.addCopied(JSON.parse(text) as Exclude<Outcome, null>, lines[i]!);
      if (pending) await pending;
    }
    k++;
  }
  if (k !== result.products) throw new Error(`a refresh's batch gave ${result.products} products for ${k} lines`);
}

/** Returns how many worker threads mapped the products (0: this thread did). */
export async function dispatch(stream: ProductSource, runs: ChannelRun[], context: MappingContext, options: DispatchOptions): Promise<number> {
  let pool: ShardPool<(Copy | null)[] | undefined> | undefined;
  let mappedHere = 0;
  let received = 0;
  const batch = new BatchBuilder();
  const apply = async (result: BatchResult, order: (Copy | null)[] | undefined): Promise<void> => {
    for (const rejection of result.rejections) stream.reject(rejection);
    if (order) {
      await applyInOrder(result, order, runs, options.explain);
      options.onProducts((received += order.length - result.rejections.length));
      return;
    }
    result.index?.forEach((entry, k) => options.explain?.product(entry, result.ordinals![k]!, result.until![k]!));
    await Promise.all(result.parts.map((part, i) => runs[i]!.addPart(part)));
    options.onProducts((received += result.products));
  };
  const inThread = async (line: RawLine, ordinal: number): Promise<void> => {
    const parsed = parseLine(line.bytes.toString("utf8"), line.line, line.index);
    if (!parsed.ok) return stream.reject(parsed.rejection);
    await mapInThread(parsed.product, ordinal, runs, context, options.explain);
    options.onProducts(++received);
  };
  // The lines' places among the source's lines: line n of a snapshot, whatever the source's meta.index says.
  let ordinal = 0;
  try {
    for await (const step of stream.lines()) {
      if ("copy" in step) {
        if (pool) batch.addCopy(step);
        else {
          await step.copy();
          options.onProducts(++received);
        }
      } else {
        const at = step.ordinal ?? ordinal++;
        if (!pool && options.workers > 0 && step.total >= options.minProducts && mappedHere >= (options.poolAfter ?? 0)) {
          pool = new ShardPool(shardInit(runs, context, options.explain !== undefined), options.workers, apply);
        }
        if (!pool) {
          await inThread(step, at);
          mappedHere++;
          continue;
        }
        batch.add(step, at);
      }
      if (pool && batch.full) {
        const { order, ...next } = batch.take();
        await pool.submit(next, order);
      }
    }
    if (pool && batch.products > 0) {
      const { order, ...last } = batch.take();
      await pool.submit(last, order);
    }
    await pool?.drain();
    return pool ? options.workers : 0;
  } finally {
    await pool?.close();
  }
}
