/**
 * The one place feed bytes reach the disk. Text is gathered into large blocks,
 * written with backpressure, hashed on the way, optionally gzipped into a `.gz`
 * twin, and kept in temporary files beside the targets until `publish()` renames
 * them into place: a reader sees the previous complete file or the new complete
 * file, never a partial one. `abort()` leaves the previous files untouched.
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { createGzip, type Gzip } from "node:zlib";
import { PharmafeedError } from "../errors.js";
import { crashPoint } from "./crash-point.js";
import { renameIntoPlace, temporaryPath } from "./atomic-file.js";
import { plantedTemporary, refuseLink } from "./safe-path.js";

export interface AtomicOutputOptions {
  /** Also write `<target>.gz`. */
  gzip?: boolean;
  /** Bytes gathered before a write (default 64 KiB). */
  blockSize?: number;
}

/**
 * Temporary files are created, never reused: with O_CREAT | O_EXCL, open(2) fails with EEXIST
 * whatever sits at the name, a symbolic link included, even a dangling one (POSIX: "If O_CREAT
 * and O_EXCL are set, and path names a symbolic link, open() shall fail"). The failure becomes
 * this output's UNSAFE_PATH (writeFailed), so only its channel fails.
 */
const EXCLUSIVE = "wx";

/** The usual block: 64 KiB. */
const BLOCK_SIZE = 64 * 1024;

/**
 * An output's first block: it doubles as text comes, up to its block size, before anything is
 * written. A run of many shops opens three outputs per channel and shop (feed, exclusions,
 * warnings), most reports get a few lines, and a full block each held 2 MB per shop to the end
 * of the run (107 MB of 50 shops' heap over 2,000 products).
 */
const FIRST_BLOCK = 4 * 1024;

/**
 * Written blocks of BLOCK_SIZE kept for the next flushes, by every output of the process
 * together: a few are in flight per output at a time (see the queue). Kept per output (4 each)
 * they stayed with it until the run ended, finished or not: a run of many shops has hundreds of
 * outputs, and they held ~1 MB each to the end (docs/shops.md, Figures).
 */
const FREE_BLOCKS: Buffer[] = [];
const MAX_FREE_BLOCKS = 64;

const NO_BLOCK = Buffer.alloc(0);

function takeFree(size: number): Buffer {
  return (size === BLOCK_SIZE ? FREE_BLOCKS.pop() : undefined) ?? Buffer.allocUnsafeSlow(size);
}

function giveBack(block: Buffer): void {
  if (block.length === BLOCK_SIZE && FREE_BLOCKS.length < MAX_FREE_BLOCKS) FREE_BLOCKS.push(block);
}

export interface OutputStats {
  file: string;
  bytes: number;
  sha256: string;
  gzip?: { file: string; bytes: number };
}

async function closeStream(stream: WriteStream): Promise<void> {
  if (stream.closed) return;
  stream.end();
  await once(stream, "close");
}

export class AtomicOutput {
  readonly target: string;
  private readonly tmp: string;
  private readonly file: WriteStream;
  private readonly gzip?: { stream: Gzip; file: WriteStream; tmp: string; target: string };
  private readonly hash = createHash("sha256");
  private readonly blockSize: number;
  /** Text is encoded into this block as it comes (see write()). */
  private block: Buffer;
  private used = 0;
  private bytes = 0;
  private state: "open" | "finished" | "published" | "aborted" = "open";
  private failure: Error | undefined;

  constructor(target: string, options: AtomicOutputOptions = {}) {
    this.target = target;
    this.tmp = temporaryPath(target);
    this.blockSize = options.blockSize ?? BLOCK_SIZE;
    this.block = this.blockSize > FIRST_BLOCK ? Buffer.allocUnsafeSlow(FIRST_BLOCK) : this.takeBlock();
    // A few blocks may queue before write() asks to wait: waiting on every block left the
    // run idle ~10% of the time with 22 feeds; 44 outputs x 256 KiB bounds what is queued.
    const queue = { highWaterMark: 256 * 1024 };
    this.file = this.watch(createWriteStream(this.tmp, { flags: EXCLUSIVE, mode: 0o644, ...queue }));
    if (options.gzip) {
      const gzTarget = `${target}.gz`;
      const gzTmp = temporaryPath(gzTarget);
      const stream = this.watch(createGzip({ level: 6 }));
      const file = this.watch(createWriteStream(gzTmp, { flags: EXCLUSIVE, mode: 0o644, ...queue }));
      stream.pipe(file);
      this.gzip = { stream, file, tmp: gzTmp, target: gzTarget };
    }
  }

  /**
   * A free block, or a new one. Blocks are reused once written: a new block per
   * flush left tens of MB of written blocks waiting for V8 to collect their (old)
   * wrappers, ~45 outputs at once, and peak RSS crept up with the run.
   */
  private takeBlock(): Buffer {
    return takeFree(this.blockSize);
  }

  /** Gives `block` back once every stream that got it is done with it. */
  private releaseAfter(block: Buffer, streams: number): (error?: Error | null) => void {
    let left = streams;
    return (error) => {
      if (--left === 0 && !error) giveBack(block);
    };
  }

  private watch<T extends WriteStream | Gzip>(stream: T): T {
    stream.on("error", (error: Error) => (this.failure ??= error));
    return stream;
  }

  /**
   * Encodes `text` into the current block at once; returns a promise only when a
   * full block was handed to the disk and the disk is behind. Encoding at once
   * (rather than keeping the strings until a block is full) lets every row die
   * young: kept strings survived into V8's old space and grew the heap with the
   * run (peak RSS +100 MB with 22 feeds).
   */
  write(text: string): Promise<void> | undefined {
    this.checkOpen();
    // A UTF-16 unit never takes more than 3 bytes in UTF-8.
    if (this.fits(text.length * 3)) {
      this.used += this.block.write(text, this.used, "utf8");
      return undefined;
    }
    return this.flush(text);
  }

  /** As write(), for text already encoded in UTF-8 (rows rendered by a worker thread). */
  writeBytes(bytes: Uint8Array): Promise<void> | undefined {
    this.checkOpen();
    if (this.fits(bytes.length)) {
      this.block.set(bytes, this.used);
      this.used += bytes.length;
      return undefined;
    }
    return this.flush(bytes);
  }

  /** Whether `bytes` more fit the block, grown towards the block size when they do not (FIRST_BLOCK). */
  private fits(bytes: number): boolean {
    const need = this.used + bytes;
    if (need <= this.block.length) return true;
    if (need > this.blockSize) return false;
    const size = Math.min(this.blockSize, Math.max(need, this.block.length * 2));
    const bigger = size === BLOCK_SIZE ? takeFree(size) : Buffer.allocUnsafeSlow(size);
    this.block.copy(bigger, 0, 0, this.used);
    this.block = bigger;
    return true;
  }

  private checkOpen(): void {
    if (this.state !== "open") throw new PharmafeedError("WRITE_FAILED", `write to ${this.target} after it was ${this.state}`);
  }

  private async flush(next?: string | Uint8Array): Promise<void> {
    try {
      await this.flushPending(next);
    } catch (cause) {
      throw this.writeFailed(cause);
    }
  }

  /** Hands the block (then `next`, when it does not fit a block) to the disk; a new block takes its place. */
  private async flushPending(next?: string | Uint8Array): Promise<void> {
    const block = this.block;
    const full = this.used > 0 ? block.subarray(0, this.used) : undefined;
    // Reached with a first block not grown yet only when `next` is larger than a block (fits()): it goes as it is.
    if (full) {
      this.block = this.takeBlock();
      this.used = 0;
    }
    let rest: Uint8Array | undefined;
    if (typeof next === "string") {
      if (next.length * 3 <= this.blockSize) this.used = this.block.write(next, 0, "utf8");
      else rest = Buffer.from(next, "utf8");
    } else if (next !== undefined) {
      if (next.length <= this.blockSize) {
        this.block.set(next, 0);
        this.used = next.length;
      } else rest = next;
    }
    // Both streams get their chunks before any wait, so chunks stay in order even if a caller
    // writes again before this promise settles.
    const waits: Promise<unknown>[] = [];
    for (const chunk of [full, rest]) {
      if (chunk === undefined) continue;
      this.bytes += chunk.length;
      this.hash.update(chunk);
      this.check();
      const done = chunk === full ? this.releaseAfter(block, this.gzip ? 2 : 1) : undefined;
      if (!this.file.write(chunk, done)) waits.push(once(this.file, "drain"));
      if (this.gzip && !this.gzip.stream.write(chunk, done)) waits.push(once(this.gzip.stream, "drain"));
    }
    if (waits.length > 0) await Promise.all(waits);
  }

  private check(): void {
    if (this.failure) throw this.writeFailed(this.failure);
  }

  private writeFailed(cause: unknown): PharmafeedError {
    if (cause instanceof PharmafeedError) return cause;
    // The temporary is opened exclusively and without following links (safe-path.ts).
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ELOOP") return plantedTemporary((cause as NodeJS.ErrnoException).path ?? this.tmp, cause);
    return new PharmafeedError("WRITE_FAILED", `cannot write ${this.target}: ${(cause as Error).message}`, {
      cause,
      context: { file: this.target },
    });
  }

  /** Flushes and closes the temporary files; the targets are not touched yet. */
  async finish(): Promise<OutputStats> {
    let gzip: OutputStats["gzip"];
    try {
      await this.flushPending();
      // Nothing is written after: the empty block goes to the other outputs.
      giveBack(this.block);
      this.block = NO_BLOCK;
      await closeStream(this.file);
      if (this.gzip) {
        this.gzip.stream.end();
        await once(this.gzip.file, "close");
        gzip = { file: this.gzip.target, bytes: this.gzip.file.bytesWritten };
      }
      this.check();
    } catch (cause) {
      throw this.writeFailed(cause);
    }
    this.state = "finished";
    return { file: this.target, bytes: this.bytes, sha256: this.hash.digest("hex"), ...(gzip ? { gzip } : {}) };
  }

  /** The path of the finished temporary file, for validation before publishing. */
  get temporaryFile(): string {
    return this.tmp;
  }

  /**
   * Renames the finished files into place, durably (core/atomic-file.ts), the .gz twin first, so
   * both are new together as far as possible. Both links are refused before either rename.
   */
  async publish(): Promise<void> {
    if (this.state !== "finished") throw new PharmafeedError("WRITE_FAILED", `publish of ${this.target} before finish`);
    await Promise.all([this.target, ...(this.gzip ? [this.gzip.target] : [])].map(refuseLink));
    if (this.gzip) {
      await renameIntoPlace(this.gzip.tmp, this.gzip.target);
      crashPoint("rename");
    }
    await renameIntoPlace(this.tmp, this.target);
    crashPoint("rename");
    this.state = "published";
  }

  /** Removes the temporary files; the previously published files stay. */
  async abort(): Promise<void> {
    if (this.state === "published" || this.state === "aborted") return;
    this.state = "aborted";
    this.file.destroy();
    this.gzip?.stream.destroy();
    this.gzip?.file.destroy();
    // A write stream opens its file in the threadpool: removed before that open lands, the
    // temporary would be created after its removal and stay. "close" comes after the open,
    // failed or not (its error is already the failure's; see watch()).
    await Promise.all([this.file, ...(this.gzip ? [this.gzip.file] : [])].map((f) => (f.closed ? undefined : new Promise<void>((closed) => f.once("close", () => closed())))));
    const removals = [rm(this.tmp, { force: true }), ...(this.gzip ? [rm(this.gzip.tmp, { force: true })] : [])];
    const failed = (await Promise.allSettled(removals)).find((r) => r.status === "rejected");
    if (failed) throw this.writeFailed(failed.reason);
  }
}
