/**
 * Worker threads that build stream lines in parallel, one small pool per
 * sandbox, started on the first long stream and ended by closeLinePool (the
 * sandbox's close). Generation, not writing, is what limits a stream's speed,
 * and products are pure functions of (seed, index), so any thread can build
 * any batch: workers get batches of result positions with a slot (a buffer
 * transferred back and forth, see generate/worker.ts), write the lines there
 * and send it back; the writer (stream.ts) sends the batches in order.
 *
 * A pool that cannot start (no worker file, no TypeScript loader) or whose
 * worker dies turns itself off for good: its pending batches reject, and the
 * writer builds them in-thread, so a stream never fails for that.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { workerEntry } from "../../core/worker-entry.js";
import type { Catalogue } from "../generate/catalogue.js";
import type { BatchAnswer, BatchRequest } from "../generate/worker.js";
import type { LineSource } from "../generate/worker-lines.js";

/** Where the worker lives: next to this module's build (dist .js, or src .ts under tsx/vitest). */
function defaultWorkerUrl(): URL {
  return new URL(`../generate/worker${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url);
}

/** Tunables, read when a stream starts (tests lower minRecords to use the pool on small catalogues, or point workerUrl elsewhere). */
export const poolSettings = {
  /** Streams with fewer records are written in-thread: starting workers would cost more than it saves. */
  minRecords: 5_000,
  /** Worker threads per sandbox. */
  size: Math.max(1, Math.min(availableParallelism(), 4)),
  /** Bytes of one batch's slot; the rare batch that does not fit comes back in a buffer of its own. */
  slotBytes: 512 * 1024,
  workerUrl: defaultWorkerUrl(),
};

/**
 * Lines are garbage as soon as they are written, so small heaps cost no speed
 * and keep a worker's memory at its plateau from the first thousand products
 * on (default heaps grow for a long while). A worker holds the catalogue's
 * reference data only, a few MB; one that still ran out would end the pool
 * (in-thread fallback).
 */
const WORKER_HEAP = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 };

/** Slots kept for reuse per pool (those of two streams of two workers; more concurrent streams allocate their own). */
const MAX_SPARE = 32;

/**
 * All pools together, for tests: batches built by workers (told from in-thread fallbacks by
 * this), batches lent to a worker and not back yet, and the times a batch stream stopped on a
 * full socket until 'drain' (a paused client is seen holding the stream back by these events).
 */
export const poolCounters = { built: 0, inFlight: 0, drainWaits: 0 };

/** A batch's lines (undefined when the worker failed them) and its slot, back. */
export interface Built {
  slot: ArrayBuffer;
  bytes: Buffer | undefined;
}

interface Pending {
  resolve(built: Built): void;
  reject(error: Error): void;
}

interface Member {
  worker: Worker;
  pending: Map<number, Pending>;
}

export class LinePool {
  private members: Member[] | undefined;
  private off = false;
  private nextId = 0;
  /** Slots given back by finished streams, for the next ones (a stream's own would wait for GC). */
  private spare: ArrayBuffer[] = [];

  constructor(private readonly catalogue: Catalogue) {}

  /** False once the pool failed or was closed: callers build lines in-thread. */
  get usable(): boolean {
    return !this.off;
  }

  get size(): number {
    return poolSettings.size;
  }

  /** `count` slots of `bytes` each for a stream. */
  borrow(count: number, bytes: number): ArrayBuffer[] {
    const slots: ArrayBuffer[] = [];
    while (slots.length < count) {
      const spare = this.spare.pop();
      if (spare?.byteLength === bytes) slots.push(spare);
      else slots.push(new ArrayBuffer(bytes));
    }
    return slots;
  }

  /** Slots of a finished stream: no worker and no socket write uses them any more. */
  giveBack(slots: ArrayBuffer[]): void {
    for (const slot of slots) if (this.spare.length < MAX_SPARE) this.spare.push(slot);
  }

  /**
   * The lines of positions from .. from+items.length-1 of a stream of `total`
   * records, written by a worker into `slot` (transferred: this thread must not
   * touch it until it comes back with the result).
   */
  lines(source: LineSource, total: number, from: number, items: Int32Array, slot: ArrayBuffer): Promise<Built> {
    if (!this.off && !this.members) {
      try {
        this.members = this.start();
      } catch (error) {
        this.off = true;
        return Promise.reject(error as Error);
      }
    }
    const members = this.members;
    if (this.off || !members?.length) return Promise.reject(new Error("line pool is off"));
    let member = members[0] as Member;
    for (const m of members) if (m.pending.size < member.pending.size) member = m;
    const id = this.nextId++;
    poolCounters.inFlight++;
    return new Promise<Built>((resolve, reject) => {
      const settled = () => poolCounters.inFlight--;
      member.pending.set(id, {
        resolve: (built) => {
          settled();
          resolve(built);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      });
      member.worker.postMessage({ id, source, total, from, items, slot } satisfies BatchRequest, [items.buffer as ArrayBuffer, slot]);
    });
  }

  private start(): Member[] {
    const { seed, total, assetBaseUrl } = this.catalogue;
    const { entry, eval: isCode } = workerEntry(poolSettings.workerUrl);
    const members: Member[] = [];
    for (let n = 0; n < poolSettings.size; n++) {
      const worker = new Worker(entry, { eval: isCode, workerData: { seed, products: total, assetBaseUrl }, resourceLimits: WORKER_HEAP });
      // A forgotten sandbox must not keep the process alive; open sockets do while streams run.
      worker.unref();
      const member: Member = { worker, pending: new Map() };
      worker.on("message", (answer: BatchAnswer) => {
        const job = member.pending.get(answer.id);
        if (!job) return;
        member.pending.delete(answer.id);
        if ("error" in answer) return job.resolve({ slot: answer.slot, bytes: undefined });
        poolCounters.built++;
        job.resolve({ slot: answer.slot, bytes: Buffer.from(answer.bytes ?? answer.slot, 0, answer.length) });
      });
      worker.on("error", (error) => this.fail(members, error));
      worker.on("exit", (code) => this.fail(members, new Error(`line worker exited with code ${code}`)));
      members.push(member);
    }
    return members;
  }

  /** Turns the pool off for good and hands every pending batch back to the writer. */
  private fail(members: Member[], error: Error): void {
    this.off = true;
    for (const member of members) {
      for (const job of member.pending.values()) job.reject(error);
      member.pending.clear();
    }
    void this.close();
  }

  async close(): Promise<void> {
    this.off = true;
    this.spare = [];
    const members = this.members ?? [];
    this.members = [];
    await Promise.all(members.map((m) => m.worker.terminate()));
  }
}

const pools = new WeakMap<Catalogue, LinePool>();

/** The pool of a sandbox's catalogue, created on first use (workers start on the first batch). */
export function linePool(catalogue: Catalogue): LinePool {
  let pool = pools.get(catalogue);
  if (!pool) {
    pool = new LinePool(catalogue);
    pools.set(catalogue, pool);
  }
  return pool;
}

/** Ends the workers of a sandbox's catalogue (called when the sandbox closes). */
export async function closeLinePool(catalogue: Catalogue): Promise<void> {
  await pools.get(catalogue)?.close();
}
