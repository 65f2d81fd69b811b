/**
 * Opens a snapshot file (format.ts), checked as a whole before any line is
 * handed out:
 *
 *   footer (end magic, trailer length) ─> trailer's sha256 ─> trailer JSON (zod)
 *     ─> the file's length against the block table ─> every block's sha256
 *
 * Checking every block at open costs one sequential read of the deflated file
 * (~1/5 of the lines' bytes, hashed at several hundred MB/s), and buys the
 * rule a refresh needs: it never maps a line of a snapshot that turns out to
 * be damaged further on, and a delta never merges one into the next snapshot.
 * Each block is checked again when read (the same cost again, per block), so
 * bytes that changed since the open are refused rather than used.
 *
 * Every failure is a STORE_INVALID saying in plain words what is wrong; the
 * caller (run-source.ts) reads the catalogue in full instead.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { constants, inflateRawSync } from "node:zlib";
import { PharmafeedError } from "../errors.js";
import { digest, END_MAGIC, FOOTER_BYTES, FORMAT_VERSION, HEADER_BYTES, MAGIC, SQLITE_MAGIC, type SnapshotInfo, Trailer } from "./format.js";
import type { Reference } from "./writer.js";

export interface Snapshot {
  readonly file: string;
  readonly info: SnapshotInfo;
  readonly reference: Reference;
  /** Every stored line (no newline), in stream order; each buffer is valid until the next. */
  lines(): Generator<Buffer>;
  /** Line `n` (0-based, in stream order), or undefined past the end; valid until the next call. Fast in increasing order. */
  line(n: number): Buffer | undefined;
  close(): void;
}

function refuse(file: string, what: string, cause?: unknown): PharmafeedError {
  return new PharmafeedError("STORE_INVALID", `${file}: ${what}`, { ...(cause ? { cause } : {}), context: { file } });
}

function readAt(fd: number, position: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, bytes, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? bytes : bytes.subarray(0, got);
}

/** What the first bytes say, when they are not this version's magic. */
function headerProblem(header: Buffer): string | undefined {
  if (header.equals(MAGIC)) return undefined;
  if (header.equals(SQLITE_MAGIC.subarray(0, HEADER_BYTES))) return `a snapshot of format version 1 (SQLite); this version reads snapshot format version ${FORMAT_VERSION}`;
  if (header.subarray(0, 6).equals(MAGIC.subarray(0, 6)) && header[7] === 0x0a) return `a snapshot of format version ${header[6]}; this version reads snapshot format version ${FORMAT_VERSION}`;
  return "not a pharmafeed snapshot (its first bytes are damaged or of another file)";
}

function readTrailer(file: string, fd: number, size: number): Trailer {
  if (size < HEADER_BYTES + FOOTER_BYTES) throw refuse(file, `truncated: ${size} bytes, shorter than an empty snapshot`);
  const problem = headerProblem(readAt(fd, 0, HEADER_BYTES));
  if (problem) throw refuse(file, problem);
  const end = readAt(fd, size - FOOTER_BYTES, FOOTER_BYTES);
  if (!end.subarray(40).equals(END_MAGIC)) throw refuse(file, "truncated or damaged: its last bytes are not a snapshot's end");
  const length = end.readBigUInt64BE(0);
  if (length > BigInt(size - HEADER_BYTES - FOOTER_BYTES)) throw refuse(file, `damaged: it announces a trailer of ${length} bytes, more than the file holds`);
  const bytes = readAt(fd, size - FOOTER_BYTES - Number(length), Number(length));
  if (!digest(bytes).equals(end.subarray(8, 40))) throw refuse(file, "damaged: its meta, reference lists and block table do not match their digest");
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch (cause) {
    throw refuse(file, `its trailer is not JSON: ${(cause as Error).message}`, cause);
  }
  const parsed = Trailer.safeParse(json);
  if (!parsed.success) throw refuse(file, `its trailer is not a snapshot's: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`);
  const blocks = parsed.data.blocks.reduce((sum, b) => sum + b[0], 0);
  if (HEADER_BYTES + blocks + Number(length) + FOOTER_BYTES !== size) throw refuse(file, `damaged: ${size} bytes, its block table says ${HEADER_BYTES + blocks + Number(length) + FOOTER_BYTES}`);
  const lines = parsed.data.blocks.reduce((sum, b) => sum + b[1], 0);
  if (lines !== parsed.data.info.records) throw refuse(file, `damaged: its blocks hold ${lines} lines, its meta says ${parsed.data.info.records}`);
  return parsed.data;
}

/**
 * The snapshot at `file`, or undefined when there is none. A snapshot of another
 * format version, truncated or damaged anywhere is refused with STORE_INVALID.
 */
export function openSnapshot(file: string): Snapshot | undefined {
  if (!existsSync(file)) return undefined;
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (cause) {
    throw refuse(file, `cannot be read: ${(cause as Error).message}`, cause);
  }
  try {
    return new FileSnapshot(file, fd, readTrailer(file, fd, fstatSync(fd).size));
  } catch (error) {
    closeSync(fd);
    if (error instanceof PharmafeedError) throw error;
    throw refuse(file, `cannot be read: ${(error as Error).message}`, error);
  }
}

class FileSnapshot implements Snapshot {
  readonly info: SnapshotInfo;
  readonly reference: Reference;
  private readonly blocks: Trailer["blocks"];
  /** Per block, its offset in the file and the number of its first line. */
  private readonly offsets: number[] = [];
  private readonly firsts: number[] = [];
  private current: { k: number; bytes: Buffer; starts: number[] } | undefined;

  constructor(
    readonly file: string,
    private readonly fd: number,
    trailer: Trailer,
  ) {
    this.info = trailer.info;
    this.reference = trailer.reference;
    this.blocks = trailer.blocks;
    let offset = HEADER_BYTES;
    let first = 0;
    for (const [length, lines] of this.blocks) {
      this.offsets.push(offset);
      this.firsts.push(first);
      offset += length;
      first += lines;
    }
    for (let k = 0; k < this.blocks.length; k++) this.deflated(k);
  }

  /** Block k's deflated bytes, checked against its digest. */
  private deflated(k: number): Buffer {
    const [length, , , sha] = this.blocks[k]!;
    const bytes = readAt(this.fd, this.offsets[k]!, length);
    if (bytes.length !== length || digest(bytes).toString("base64") !== sha) {
      throw refuse(this.file, `damaged: block ${k + 1} of ${this.blocks.length} does not match its digest (changed since it was written)`);
    }
    return bytes;
  }

  /** Block k's lines: inflated, its length and line count checked. */
  private block(k: number): { k: number; bytes: Buffer; starts: number[] } {
    const [, lines, inflated] = this.blocks[k]!;
    let bytes: Buffer;
    try {
      // A block ends with a full flush, not a final block (writer.ts).
      bytes = inflateRawSync(this.deflated(k), { finishFlush: constants.Z_SYNC_FLUSH });
    } catch (cause) {
      if (cause instanceof PharmafeedError) throw cause;
      throw refuse(this.file, `block ${k + 1} cannot be inflated: ${(cause as Error).message}`, cause);
    }
    const starts = [0];
    for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, end + 1)) starts.push(end + 1);
    if (bytes.length !== inflated || starts.length - 1 !== lines || bytes[bytes.length - 1] !== 0x0a) {
      throw refuse(this.file, `damaged: block ${k + 1} holds ${starts.length - 1} lines in ${bytes.length} bytes, its table says ${lines} in ${inflated}`);
    }
    return { k, bytes, starts };
  }

  *lines(): Generator<Buffer> {
    for (let k = 0; k < this.blocks.length; k++) {
      const { bytes, starts } = this.block(k);
      for (let i = 0; i + 1 < starts.length; i++) yield bytes.subarray(starts[i]!, starts[i + 1]! - 1);
    }
  }

  line(n: number): Buffer | undefined {
    if (n < 0 || n >= this.info.records || !Number.isInteger(n)) return undefined;
    let current = this.current;
    if (!current || n < this.firsts[current.k]! || n >= this.firsts[current.k]! + current.starts.length - 1) {
      let lo = 0;
      let hi = this.firsts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.firsts[mid]! <= n) lo = mid;
        else hi = mid - 1;
      }
      current = this.current = this.block(lo);
    }
    const i = n - this.firsts[current.k]!;
    return current.bytes.subarray(current.starts[i]!, current.starts[i + 1]! - 1);
  }

  close(): void {
    closeSync(this.fd);
  }
}
