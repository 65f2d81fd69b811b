/**
 * Writes a stream response: one `{"meta":{"total","index"},"result"}` line per
 * record (format in generate/worker-lines.ts), generated as it is written.
 * Every write that fills the socket buffer waits for 'drain', so a slow client
 * holds back generation instead of filling memory.
 *
 * Two ways to build the lines, same bytes:
 * - batches (streams without faults): lines written straight into bytes, a
 *   batch of records at a time; on long streams the sandbox's worker threads
 *   build the batches in parallel (pool.ts) and this thread only sends them,
 *   in order. A batch the pool cannot deliver is built here instead.
 * - per line (streams with faults): the faults apply line by line (drop,
 *   stall, delay, corrupt line, tiny chunks, cuts, a wrong meta.total).
 */
import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { linePrefix, streamLine, writeLines, type LineSource, type RecordWriter } from "../generate/worker-lines.js";
import type { StreamFaults } from "./faults.js";
import { poolCounters, poolSettings, type Built, type LinePool } from "./pool.js";

export const STREAM_CONTENT_TYPE = "application/x-json-stream";
const BATCH_BYTES = 64 * 1024;
/** Records per batch: ~300 KB of products, ~250 KB of media items. */
export const BATCH_RECORDS: Record<LineSource, number> = { products: 32, media: 256 };
/**
 * Slots per worker: enough batches queued that no worker idles while this
 * thread waits for its turn on a busy machine (with 3, the pool gained
 * nothing at a load average of 5 on two cores). In-thread, a few suffice.
 */
const SLOTS_PER_WORKER = 8;
const SLOTS_IN_THREAD = 3;

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
  /** The batch path: the source item (product index, media id) at position k, its record writer, the pool. */
  batches?: { source: LineSource; item(k: number): number; write: RecordWriter; pool: LinePool; inThread?: boolean };
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
  return faults.dropAfter === undefined && faults.stallAfter === undefined && faults.lineDelayMs <= 0 && faults.corruptIndex === undefined && faults.chunkBytes === undefined && faults.cutAt === undefined && faults.totalOffset === 0 && !faults.noFinalNewline && faults.repeatIdEvery === undefined;
}

interface Batch {
  from: number;
  count: number;
  /** Built by the pool (the promise owns the slot until it settles), or undefined: build it here, in `slot`. */
  built: Promise<Built | undefined> | undefined;
  slot: ArrayBuffer | undefined;
}

type Batches = NonNullable<StreamReply["batches"]>;

export async function writeStream(res: ServerResponse, reply: StreamReply, faults: StreamFaults): Promise<void> {
  if (faults.cutAt !== undefined && faults.cutShape === "close-delimited") {
    // Neither Content-Length nor chunked encoding: the body ends when the connection closes.
    res.removeHeader("content-length");
    res.removeHeader("transfer-encoding");
  }
  res.writeHead(200, { "content-type": STREAM_CONTENT_TYPE });
  // Headers go out now: a stalled first line must look like a slow body, not a slow response.
  res.flushHeaders();
  if (reply.batches && reply.ascii && noFaults(faults)) {
    const pooled = reply.batches.inThread !== true && reply.batches.pool.usable && reply.total >= poolSettings.minRecords;
    await writeBatches(res, reply, reply.batches, pooled);
  } else if (!(await writePerLine(res, reply, faults))) {
    return;
  }
  if (!res.destroyed) res.end();
}

/**
 * Batches go out in order. Each is written into a slot (a buffer of the
 * stream: lent to a worker, or written here), the socket sends it from there,
 * and the slot is reused once that write completed. So nothing is allocated
 * per batch, and the slots bound the memory of a stream of any length.
 */
async function writeBatches(res: ServerResponse, reply: StreamReply, batches: Batches, pooled: boolean): Promise<void> {
  const { pool, source, item } = batches;
  const size = BATCH_RECORDS[source];
  const count = pooled ? pool.size * SLOTS_PER_WORKER : SLOTS_IN_THREAD;
  const slotBytes = poolSettings.slotBytes;
  const free = pool.borrow(count, slotBytes);
  // Slots come back to `free` after their write; once the stream is over and all are back, to the pool.
  let freed: (() => void) | undefined;
  let over = false;
  const giveBack = () => {
    if (over && free.length === count) pool.giveBack(free.splice(0));
  };
  const release = (slot: ArrayBuffer) => {
    free.push(slot);
    freed?.();
    giveBack();
  };
  const itemsOf = (from: number, n: number) => {
    const items = new Int32Array(n);
    for (let j = 0; j < n; j++) items[j] = item(from + j);
    return items;
  };
  const queue: Batch[] = [];
  let next = 0;
  const refill = () => {
    while (free.length > 0 && next < reply.total) {
      const slot = free.pop() as ArrayBuffer;
      const from = next;
      const n = Math.min(size, reply.total - from);
      next += n;
      if (pooled && pool.usable) {
        // Handled at once: a rejected batch must not become an unhandled rejection while earlier ones are written.
        queue.push({ from, count: n, slot: undefined, built: pool.lines(source, reply.total, from, itemsOf(from, n), slot).catch(() => undefined) });
      } else {
        queue.push({ from, count: n, slot, built: undefined });
      }
    }
  };
  const here = (batch: Batch, slot: ArrayBuffer) => writeLines(batches.write, reply.total, batch.from, itemsOf(batch.from, batch.count), Buffer.from(slot));
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
      let slot = batch.slot;
      let bytes: Buffer | undefined;
      if (batch.built) {
        const built = await batch.built;
        // A dead worker keeps the slot it was lent: the stream goes on with a new one.
        slot = built?.slot ?? new ArrayBuffer(slotBytes);
        bytes = built?.bytes;
      }
      const own = slot as ArrayBuffer;
      bytes ??= here(batch, own);
      if (res.destroyed) return;
      if (!res.write(bytes, () => release(own))) {
        poolCounters.drainWaits++;
        await waitDrain(res);
      }
    }
  } finally {
    res.off("close", onClose);
    over = true;
    giveBack();
  }
}

/**
 * Pauses `ms`, or less when the client goes away first: a test can ask for a stall far longer
 * than any client timeout (so that the client's timer fires first however slow the machine is)
 * without the sandbox holding a dead response for that long.
 */
async function stall(res: ServerResponse, ms: number): Promise<void> {
  if (res.destroyed) return;
  const gone = new AbortController();
  const onClose = () => gone.abort();
  res.once("close", onClose);
  try {
    await sleep(ms, undefined, { signal: gone.signal });
  } catch {
    // Aborted: the client closed the connection, which is what the stall waited for.
  } finally {
    res.off("close", onClose);
  }
}

/** The per-line path, with faults. Returns false when the body was cut or ended early on purpose. */
async function writePerLine(res: ServerResponse, reply: StreamReply, faults: StreamFaults): Promise<boolean> {
  const prefix = linePrefix(reply.total + faults.totalOffset);
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
  const every = faults.repeatIdEvery;
  const record = (at: number): string => reply.record(every !== undefined && at % every === every - 1 ? at - 1 : at);
  for (let k = 0; k < reply.total; k++) {
    if (res.destroyed) return false;
    if (k === faults.dropAfter) {
      if (pending !== "") await writeFlushed(res, pending);
      res.destroy();
      return false;
    }
    if (k === faults.cutAt) {
      const line = streamLine(prefix, k, record(k));
      if (faults.cutShape !== "short-end") pending += line.slice(0, Math.floor(line.length / 2));
      await flush();
      if (faults.cutShape === "mid-line-reset") res.destroy();
      else res.end();
      return false;
    }
    if (k === faults.stallAfter) {
      await flush();
      await stall(res, faults.stallMs);
    }
    if (perLine) await sleep(faults.lineDelayMs);
    const line = streamLine(prefix, k, record(k));
    pending += k === faults.corruptIndex ? line.slice(0, Math.floor((line.length - 1) / 2)) + "\n" : line;
    // The last line stays pending so that noFinalNewline can take its newline off.
    if ((perLine || pending.length >= BATCH_BYTES) && k < reply.total - 1) await flush();
  }
  if (faults.noFinalNewline && pending.endsWith("\n")) pending = pending.slice(0, -1);
  await flush();
  return true;
}
