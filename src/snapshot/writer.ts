/**
 * Writes a snapshot file (format.ts) beside the live one and renames it into
 * place, off the hot path:
 *
 *   add(line) ─> 512 KB block ─> one DeflateRaw stream (libuv's thread pool), a full flush per block
 *                                  └─> in order: sha256 + FileHandle.write ─> .snapshot.pfs.tmp-<pid>
 *   commit(read) ─> trailer + footer ─> fsync ─> rename over snapshot.pfs (atomic)
 *
 * The main thread only copies lines into the block and hashes deflated bytes
 * (~12 KB a block); deflating and writing run beside the mapping. One stream
 * and not zlib.deflateRaw() per block: each call sets up a deflate state on
 * the main thread (0.75 ms a block measured, 23x the rest of the block's
 * main-thread work); Z_FULL_FLUSH ends each block on a byte boundary with an
 * empty dictionary, so every block still inflates on its own (reader.ts).
 * At most MAX_PENDING blocks are in flight: add() then returns a promise to await.
 * A write that fails (a full disk) is kept and given by commit(): the caller
 * publishes its feeds anyway and the previous snapshot stays.
 */
import { randomUUID } from "node:crypto";
import { mkdir, open, rm, type FileHandle } from "node:fs/promises";
import { dirname, join } from "node:path";
import { constants, createDeflateRaw } from "node:zlib";
import { PharmafeedError } from "../errors.js";
import { renameIntoPlace, temporaryPath } from "../core/atomic-file.js";
import { type Block, digest, footer, MAGIC, type ReadCounts, type SnapshotInfo, type Trailer } from "./format.js";

/**
 * Lines gathered per block. 512 KB and not 64 KB: each block costs a flush, its callbacks and a
 * write, and deflating 146 MB (15,664 sandbox products) took 1.7 s of CPU in 64 KB blocks, 1.0 s in
 * 512 KB ones (deflateRawSync alone: 0.5 s); a random line read (explain) inflates one block, ~2 ms.
 */
const BLOCK_BYTES = 512 * 1024;
/** Blocks deflated or written at once: enough to keep the pool busy; each holds a block's bytes until written. */
const MAX_PENDING = 4;
/** Deflated output per read from zlib: a block's output in one or two pieces (the default 16 KB cut it in ~6). */
const ZLIB_CHUNK = 128 * 1024;
/** Format version 1 (SQLite): removed once a snapshot of this version is in place. */
const OLD_FILE = "snapshot.sqlite";

export interface Reference {
  categories: unknown[];
  brands: unknown[];
}

/** A test hook: PHARMAFEED_STATE_ENOSPC=<bytes> makes the snapshot's writes fail once that many bytes were written. */
function injectedLimit(): number {
  const text = process.env["PHARMAFEED_STATE_ENOSPC"];
  const value = Number(text);
  return text !== undefined && text !== "" && Number.isInteger(value) && value >= 0 ? value : Infinity;
}

export class SnapshotWriter {
  private block = Buffer.allocUnsafeSlow(BLOCK_BYTES + ZLIB_CHUNK);
  private used = 0;
  private count = 0;
  private records = 0;
  private written = MAGIC.length;
  private readonly blocks: Block[] = [];
  private reference: Reference = { categories: [], brands: [] };
  /** Blocks deflating or being written, oldest first; each resolves once its bytes are in the file. */
  private readonly pending: Promise<void>[] = [];
  private tail: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  private done = false;
  private readonly limit = injectedLimit();
  private readonly zlib = createDeflateRaw({ level: constants.Z_BEST_SPEED, chunkSize: ZLIB_CHUNK });
  /** Deflated output of the block being flushed, and the blocks waiting for their flush. */
  private out: Buffer[] = [];
  private readonly flushes: { resolve(data: Buffer): void; reject(error: Error): void }[] = [];

  private constructor(
    private readonly file: string,
    private readonly tmp: string,
    private readonly fh: FileHandle,
    private readonly info: Omit<SnapshotInfo, "records" | "read">,
    /** SnapshotInfo.generation of the snapshot being written. */
    readonly generation: string,
  ) {
    this.zlib.on("data", (chunk: Buffer) => this.out.push(chunk));
    this.zlib.on("error", (error) => {
      for (const f of this.flushes.splice(0)) f.reject(error);
    });
  }

  /** One block through the stream: its bytes, up to a full flush. */
  private deflate(bytes: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.flushes.push({ resolve, reject });
      this.zlib.write(bytes);
      this.zlib.flush(constants.Z_FULL_FLUSH, () => {
        const data = Buffer.concat(this.out);
        this.out = [];
        this.flushes.shift()?.resolve(data);
      });
    });
  }

  /** A new snapshot beside `file`; the previous one stays until commit(). Fails with WRITE_FAILED. */
  static async create(file: string, info: Omit<SnapshotInfo, "records" | "generation" | "read">): Promise<SnapshotWriter> {
    const tmp = temporaryPath(file);
    let fh: FileHandle | undefined;
    try {
      await mkdir(dirname(file), { recursive: true });
      fh = await open(tmp, "w");
      if (injectedLimit() < MAGIC.length) throw Object.assign(new Error("no space left on device (injected)"), { code: "ENOSPC" });
      await fh.write(MAGIC);
    } catch (cause) {
      await fh?.close().catch(() => {});
      await rm(tmp, { force: true });
      throw new PharmafeedError("WRITE_FAILED", `cannot write the snapshot ${tmp}: ${(cause as Error).message}`, { cause, context: { file: tmp } });
    }
    const generation = randomUUID();
    return new SnapshotWriter(file, tmp, fh, { ...info, generation }, generation);
  }

  /** Lines added so far. */
  get lines(): number {
    return this.records;
  }

  /** The first write that failed, if any: nothing more is written, commit() refuses. */
  get failed(): Error | undefined {
    return this.failure;
  }

  /**
   * One stream line, without its newline (copied: the caller's buffer may be reused).
   * A promise when too many blocks are in flight: await it before the next line.
   */
  add(line: Uint8Array): Promise<void> | undefined {
    const need = this.used + line.length + 1;
    if (need > this.block.length) {
      const bigger = Buffer.allocUnsafeSlow(need * 2);
      this.block.copy(bigger, 0, 0, this.used);
      this.block = bigger;
    }
    this.block.set(line, this.used);
    this.used += line.length;
    this.block[this.used++] = 0x0a;
    this.count++;
    this.records++;
    if (this.used < BLOCK_BYTES) return undefined;
    this.flush();
    return this.pending.length >= MAX_PENDING ? this.pending[0] : undefined;
  }

  /** The run's reference lists (kept in the trailer). */
  setReference(reference: Reference): void {
    this.reference = reference;
  }

  private flush(): void {
    if (this.count === 0) return;
    const bytes = this.block.subarray(0, this.used);
    const lines = this.count;
    // The block goes to the pool as it is: the next lines go into a new buffer.
    this.block = Buffer.allocUnsafeSlow(BLOCK_BYTES + ZLIB_CHUNK);
    this.used = 0;
    this.count = 0;
    if (this.failure) return;
    const deflated = this.deflate(bytes);
    // Handled in the chain below; a rejection must not count as unhandled meanwhile.
    deflated.catch(() => {});
    const step = (this.tail = this.tail.then(async () => {
      const data = await deflated;
      if (this.failure || this.done) return;
      if (this.written + data.length > this.limit) throw Object.assign(new Error("no space left on device (injected)"), { code: "ENOSPC" });
      await this.fh.write(data);
      this.written += data.length;
      this.blocks.push([data.length, lines, bytes.length, digest(data).toString("base64")]);
    }).catch((error: unknown) => {
      this.failure ??= error as Error;
    }));
    this.pending.push(step);
    void step.then(() => this.pending.shift());
  }

  /** Writes what is left, the trailer with `read`, and renames the snapshot into place. */
  async commit(read?: ReadCounts): Promise<number> {
    this.flush();
    await this.tail;
    if (this.done) throw new PharmafeedError("WRITE_FAILED", `the snapshot ${this.file} was already committed or aborted`);
    this.done = true;
    try {
      if (this.failure) throw this.failure;
      const trailer: Trailer = { info: { ...this.info, records: this.records, ...(read ? { read } : {}) }, reference: this.reference, blocks: this.blocks };
      const bytes = Buffer.from(JSON.stringify(trailer));
      const end = Buffer.concat([bytes, footer(bytes)]);
      if (this.written + end.length > this.limit) throw Object.assign(new Error("no space left on device (injected)"), { code: "ENOSPC" });
      await this.fh.write(end);
      await this.fh.sync();
      await this.fh.close();
      this.zlib.close();
      await renameIntoPlace(this.tmp, this.file, { synced: true });
    } catch (cause) {
      this.zlib.close();
      await this.fh.close().catch(() => {});
      await rm(this.tmp, { force: true });
      throw new PharmafeedError("WRITE_FAILED", `cannot write the snapshot ${this.file}: ${(cause as Error).message}`, { cause, context: { file: this.file } });
    }
    await rm(join(dirname(this.file), OLD_FILE), { force: true }).catch(() => {});
    return this.records;
  }

  /** Throws the temporary file away; the previous snapshot stays. */
  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.tail;
    this.zlib.close();
    await this.fh.close().catch(() => {});
    await rm(this.tmp, { force: true });
  }
}
