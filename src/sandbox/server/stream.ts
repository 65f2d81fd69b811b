/**
 * Writes a stream response: one `{"meta":{"total","index"},"result"}` line per
 * record (format in generate/worker-lines.ts), generated as it is written.
 * Every write that fills the socket buffer waits for 'drain', so a slow client
 * holds back generation instead of filling memory.
 *
 * Two ways to build the lines, same bytes:
 * - pooled (long streams without faults): the sandbox's worker threads build
 *   batches of lines in parallel (pool.ts); this thread only writes them, in
 *   order, with a bounded number of batches in flight, so memory does not grow
 *   with the stream. A batch the pool cannot deliver is built here instead.
 * - in-thread: lines batched into ~64 KB writes (one chunk each), with the
 *   faults applied per line (drop, stall, delay, corrupt line, tiny chunks).
 */
import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { linePrefix, streamLine, writeLines, type LineSource } from "../generate/worker-lines.js";
import type { StreamFaults } from "./faults.js";
import { poolSettings, type LinePool } from "./pool.js";

export const STREAM_CONTENT_TYPE = "application/x-json-stream";
const BATCH_BYTES = 64 * 1024;
/** Records per pooled batch: ~150 KB of products, ~100 KB of media items. */
const POOL_BATCH: Record<LineSource, number> = { products: 32, media: 256 };
/**
 * Slots per worker: one being built, one waiting to be built, one going out
 * through the socket, so no worker idles while a batch is written.
 */
const SLOTS_PER_WORKER = 8;

export interface StreamReply {
  kind: "stream";
  total: number;
  /** The JSON of the record at result position k (0 <= k < total). */
  record(k: number): string;
  /**
   * Records are pure ASCII (PHP-style escapes; tested), so the writer can use
   * latin1, which for ASCII is a plain copy instead of a UTF-8 encode.
   */
  ascii?: boolean;
  /** How pool workers rebuild the records: the source, and the source item (product index, media id) at position k. */
  parallel?: { pool: LinePool; source: LineSource; item(k: number): number };
}

function waitDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

function writeFlushed(res: ServerResponse, data: string | Buffer): Promise<void> {
  return new Promise((resolve) => res.write(data, () => resolve()));
}

function noFaults(faults: StreamFaults): boolean {
  return faults.dropAfter === undefined && faults.stallAfter === undefined && faults.lineDelayMs <= 0 && faults.corruptIndex === undefined && faults.chunkBytes === undefined;
}

export async function writeStream(res: ServerResponse, reply: StreamReply, faults: StreamFaults): Promise<void> {
  res.writeHead(200, { "content-type": STREAM_CONTENT_TYPE });
  // Headers go out now: a stalled first line must look like a slow body, not a slow response.
  res.flushHeaders();
  const pooled = reply.parallel && reply.ascii && reply.parallel.pool.usable && reply.total >= poolSettings.minRecords && noFaults(faults);
  if (pooled) await writePooled(res, reply, reply.parallel as NonNullable<StreamReply["parallel"]>);
  else if (!(await writeInThread(res, reply, faults))) return;
  if (!res.destroyed) res.end();
}

interface Batch {
  from: number;
  count: number;
  slot: number;
  /** undefined: the pool failed (or was off when the batch was cut): build it here. */
  bytes: Promise<Buffer | undefined> | undefined;
}

/**
 * Batches go out in order. Each has a slot of one shared buffer per stream:
 * a worker writes the batch's lines there, the socket sends them from there,
 * and the slot is reused once that write completed. So nothing is allocated
 * per batch, and the slots bound the memory of a stream of any length.
 */
async function writePooled(res: ServerResponse, reply: StreamReply, parallel: NonNullable<StreamReply["parallel"]>): Promise<void> {
  const { pool, source, item } = parallel;
  const size = POOL_BATCH[source];
  const slots = pool.size * SLOTS_PER_WORKER;
  const slotBytes = poolSettings.slotBytes;
  const shared = pool.borrow(slots * slotBytes);
  const slotOf = (slot: number) => ({ buffer: shared, offset: slot * slotBytes, size: slotBytes });
  const free = Array.from({ length: slots }, (_, k) => slots - 1 - k);
  let freed: (() => void) | undefined;
  // The buffer goes back to the pool when the stream is over and every slot came back; never
  // after a failed batch, whose worker might still be writing to its slot.
  let over = false;
  let failed = false;
  const giveBack = () => {
    if (over && !failed && free.length === slots) pool.giveBack(shared);
  };
  const release = (slot: number) => {
    free.push(slot);
    freed?.();
    giveBack();
  };
  const queue: Batch[] = [];
  let next = 0;
  const refill = () => {
    while (free.length > 0 && next < reply.total) {
      const slot = free.pop() as number;
      const from = next;
      const count = Math.min(size, reply.total - from);
      next += count;
      let bytes: Batch["bytes"];
      if (pool.usable) {
        const items = new Int32Array(count);
        for (let j = 0; j < count; j++) items[j] = item(from + j);
        // Handled at once: a rejected batch must not become an unhandled rejection while earlier ones are written.
        bytes = pool.lines(source, reply.total, from, items, slotOf(slot)).catch(() => undefined);
      }
      queue.push({ from, count, slot, bytes });
    }
  };
  const onClose = () => freed?.();
  res.on("close", onClose);
  try {
    while (!res.destroyed) {
      refill();
      const batch = queue.shift();
      if (!batch) {
        if (next >= reply.total) return;
        // Every slot is still on its way out through the socket.
        await new Promise<void>((resolve) => (freed = resolve));
        freed = undefined;
        continue;
      }
      let bytes = batch.bytes && (await batch.bytes);
      if (!bytes && batch.bytes) {
        // A batch the pool failed goes to a buffer of its own: a dying worker may still write to its slot.
        failed = true;
        bytes = linesInThread(reply, batch.from, batch.count, Buffer.allocUnsafe(slotBytes));
      }
      bytes ??= linesInThread(reply, batch.from, batch.count, Buffer.from(shared, batch.slot * slotBytes, slotBytes));
      if (res.destroyed) return;
      if (!res.write(bytes, () => release(batch.slot))) await waitDrain(res);
    }
  } finally {
    res.off("close", onClose);
    over = true;
    giveBack();
  }
}

/** A batch built in this thread (the pool is off, or failed this batch). */
function linesInThread(reply: StreamReply, from: number, count: number, target: Buffer): Buffer {
  const positions = Array.from({ length: count }, (_, j) => from + j);
  return writeLines((k) => reply.record(k), reply.total, from, positions, target);
}

/** The per-line path, with faults. Returns false when the connection was dropped on purpose. */
async function writeInThread(res: ServerResponse, reply: StreamReply, faults: StreamFaults): Promise<boolean> {
  const prefix = linePrefix(reply.total);
  let pending = "";
  const flush = async (): Promise<void> => {
    if (pending === "") return;
    const data = pending;
    pending = "";
    if (faults.chunkBytes !== undefined) {
      const bytes = Buffer.from(data, "utf8");
      for (let at = 0; at < bytes.length && !res.destroyed; at += faults.chunkBytes) {
        if (!res.write(bytes.subarray(at, at + faults.chunkBytes))) await waitDrain(res);
      }
    } else if (!res.write(data, reply.ascii ? "latin1" : "utf8")) {
      await waitDrain(res);
    }
  };
  const perLine = faults.lineDelayMs > 0;
  for (let k = 0; k < reply.total; k++) {
    if (res.destroyed) return false;
    if (k === faults.dropAfter) {
      if (pending !== "") await writeFlushed(res, pending);
      res.destroy();
      return false;
    }
    if (k === faults.stallAfter) {
      await flush();
      await sleep(faults.stallMs);
    }
    if (perLine) await sleep(faults.lineDelayMs);
    const line = streamLine(prefix, k, reply.record(k));
    pending += k === faults.corruptIndex ? line.slice(0, Math.floor((line.length - 1) / 2)) + "\n" : line;
    if (perLine || pending.length >= BATCH_BYTES) await flush();
  }
  await flush();
  return true;
}
