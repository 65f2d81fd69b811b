/**
 * generate's worker threads. Parsing, validating, mapping and rendering 22 rows
 * per product is more than one thread does at the catalogue's pace, and every
 * product is independent, so batches of stream lines go to a small pool of
 * workers (shard.ts) and their results come back in any order; they are applied
 * (written) strictly in batch order, one after the other, so every file is
 * byte for byte what one thread would write. At most `inFlight` batches are out
 * or waiting to be applied: a slow disk slows the workers, then the stream.
 *
 * A worker that dies or fails fails the run (the live files stay): mapping
 * errors are per channel inside the batch, so this is a bug, not bad data.
 */
import { Worker } from "node:worker_threads";
import { PharmafeedError } from "../../errors.js";
import { siblingUrl, workerEntry } from "../../core/worker-entry.js";
import type { BatchRequest, BatchResult, LineRef, ShardInit, WorkerFailure } from "./protocol.js";

/**
 * Lines arrive as bytes and rows leave as bytes, so little outlives a product
 * and a small young generation costs little speed: 16 MB against 32 took ~35 MB
 * less peak RSS with two workers for ~5% fewer products/s (15,664 products, 22
 * outputs). The old generation holds the code, the reference data and the memos.
 */
const WORKER_HEAP = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 256 };

interface Member {
  worker: Worker;
  busy: number;
}

export class ShardPool {
  private readonly members: Member[] = [];
  private readonly results = new Map<number, BatchResult>();
  private nextSeq = 0;
  private nextApply = 0;
  private inFlight = 0;
  private applying = false;
  private failure: Error | undefined;
  private closed = false;
  private waiters: (() => void)[] = [];

  /**
   * `apply` writes a result; it is called in batch order, never twice at once.
   * `inFlight`: batches sent and not yet applied before submit() waits.
   */
  constructor(
    init: ShardInit,
    size: number,
    private readonly apply: (result: BatchResult) => Promise<void>,
    private readonly inFlightLimit = size * 2,
  ) {
    const { entry, eval: isCode } = workerEntry(siblingUrl("./worker", import.meta.url));
    for (let n = 0; n < size; n++) {
      const worker = new Worker(entry, { eval: isCode, workerData: init, resourceLimits: WORKER_HEAP });
      const member: Member = { worker, busy: 0 };
      worker.on("message", (message: BatchResult | WorkerFailure) => {
        if ("error" in message) return this.fail(new PharmafeedError("INTERNAL", `a generate worker failed: ${message.error}`));
        member.busy--;
        this.results.set(message.seq, message);
        void this.pump();
      });
      worker.on("error", (error) => this.fail(new PharmafeedError("INTERNAL", `a generate worker failed: ${error.message}`, { cause: error })));
      worker.on("exit", (code) => this.fail(new PharmafeedError("INTERNAL", `a generate worker exited with code ${code}`)));
      this.members.push(member);
    }
  }

  /** Sends a batch to the least busy worker (its bytes are transferred); resolves when fewer than the limit are out. */
  async submit({ bytes, lines }: { bytes: Uint8Array; lines: LineRef[] }): Promise<void> {
    this.check();
    let member = this.members[0]!;
    for (const m of this.members) if (m.busy < member.busy) member = m;
    member.busy++;
    this.inFlight++;
    member.worker.postMessage({ seq: this.nextSeq++, bytes, lines } satisfies BatchRequest, [bytes.buffer as ArrayBuffer]);
    while (this.inFlight >= this.inFlightLimit) await this.wait();
  }

  /** Resolves when every batch sent has been applied. */
  async drain(): Promise<void> {
    while (this.inFlight > 0) await this.wait();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.members.map((m) => m.worker.terminate()));
  }

  private wait(): Promise<void> {
    this.check();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }

  private fail(error: Error): void {
    if (this.closed) return;
    this.failure ??= error;
    this.wake();
  }

  /** Applies the results that are next in order; one loop at a time. */
  private async pump(): Promise<void> {
    if (this.applying || this.failure) return;
    this.applying = true;
    try {
      for (let result = this.results.get(this.nextApply); result !== undefined; result = this.results.get(this.nextApply)) {
        this.results.delete(this.nextApply);
        this.nextApply++;
        await this.apply(result);
        this.inFlight--;
        this.wake();
      }
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.applying = false;
    }
  }
}
