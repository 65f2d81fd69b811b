/**
 * The products of the stream into every channel: in this thread for a small
 * catalogue (starting workers would cost more than it saves), through the
 * worker pool otherwise. Decided on the first line, which carries meta.total.
 * Either way the lines are parsed by the same code (shard.ts) and the files
 * come out byte for byte the same.
 */
import type { RawLine, RecordStream } from "../../catalogue/stream/record-stream.js";
import type { Product } from "../../catalogue/schemas/product.js";
import type { MappingContext } from "../../mapping/context.js";
import type { ChannelRun } from "../channel-run.js";
import { ShardPool } from "./pool.js";
import type { BatchResult, LineRef, ShardInit } from "./protocol.js";
import { parseLine } from "./shard.js";

/** Lines per batch: ~0.5 MB of JSON, big enough that messaging is a small share of a batch's cost. */
const BATCH_LINES = 50;

export interface DispatchOptions {
  /** Worker threads; 0 maps in this thread. */
  workers: number;
  /** Catalogues smaller than this (meta.total) are mapped in this thread. */
  minProducts: number;
  /** Valid products handed to the channels so far (progress). */
  onProducts(count: number): void;
}

function shardInit(runs: ChannelRun[], context: MappingContext): ShardInit {
  return {
    channels: runs.map((run) => {
      const { name, mapping, layout, format } = run.channel;
      const max = run.imagesMaxAdditional;
      return { name, mapping, layout, format, meta: run.meta, ...(max === undefined ? {} : { imagesMaxAdditional: max }) };
    }),
    context: { categories: [...context.categories.values()], brands: [...context.brands.values()], offers: context.offers, now: context.now, priceUnit: context.priceUnit },
  };
}

/** Returns how many worker threads mapped the products (0: this thread did). */
export async function dispatch(stream: RecordStream<Product>, runs: ChannelRun[], context: MappingContext, options: DispatchOptions): Promise<number> {
  let pool: ShardPool | undefined;
  let local: boolean | undefined;
  let received = 0;
  let batch: LineRef[] = [];
  const apply = async (result: BatchResult): Promise<void> => {
    for (const rejection of result.rejections) stream.reject(rejection);
    await Promise.all(result.parts.map((part, i) => runs[i]!.addPart(part)));
    options.onProducts((received += result.products));
  };
  const inThread = async (line: RawLine): Promise<void> => {
    const parsed = parseLine(line);
    if (!parsed.ok) return stream.reject(parsed.rejection);
    for (const run of runs) {
      const pending = run.add(parsed.product, context);
      if (pending) await pending;
    }
    options.onProducts(++received);
  };
  try {
    for await (const line of stream.lines()) {
      if (local === undefined) {
        local = options.workers <= 0 || line.total < options.minProducts;
        if (!local) pool = new ShardPool(shardInit(runs, context), options.workers, apply);
      }
      if (!pool) {
        await inThread(line);
        continue;
      }
      batch.push({ text: line.text, line: line.line, index: line.index });
      if (batch.length === BATCH_LINES) {
        await pool.submit(batch);
        batch = [];
      }
    }
    if (pool && batch.length > 0) await pool.submit(batch);
    await pool?.drain();
    return pool ? options.workers : 0;
  } finally {
    await pool?.close();
  }
}
