/**
 * output/state/rows.ndjson, the run's state log: what the last run did with every
 * product, in the order of its source's lines. The next refresh copies from it instead
 * of mapping (reuse.ts), and explain reads a product's outcomes from it (the explain
 * index holds only the keys to find a product and where its line is, explain/store.ts).
 * One JSON line per product, then one trailer line that says what the lines are valid
 * for (code, snapshot, reference lists, channels and their published files).
 *
 *   run ── ExplainHook ── add(product, outcomes) ─> .rows.ndjson.tmp-<pid> ── commit(trailer) ─> rename
 *
 * Plain lines, written and read in one sequential pass with flat memory: a refresh
 * reads every entry in order, so an indexed store would buy nothing. Without a trailer
 * (a run killed while writing, a truncated copy), or with entries that do not match its
 * digest, the file is not used.
 */
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { renameIntoPlaceSync, temporaryPath } from "../core/atomic-file.js";
import type { IndexProduct, Outcome } from "../explain/entry.js";
import type { Rejection } from "../catalogue/stream/line.js";

/** Raised whenever the lines or the trailer change meaning: an older file is not used. */
export const ROWS_VERSION = 2;

export function rowsPath(outputDir: string): string {
  return join(outputDir, STATE_DIR, ROWS_FILE);
}

export { type FileIdentity, fileIdentity, sameIdentity } from "../publish/file-identity.js";
import type { FileIdentity } from "../publish/file-identity.js";
import { ROWS_FILE, STATE_DIR } from "../core/layout.js";

/** One output of a channel (feed, exclusion report, warnings report): where its lines start. */
export interface OutputFile {
  file: string;
  /** Bytes before the first row or line. */
  header: number;
  identity: FileIdentity;
}

export interface TrailerChannel {
  name: string;
  /** channelFingerprint(): settings, layout, format, gzip. */
  fingerprint: string;
  /** Rows can be copied: not image-processed (those rows depend on the image pipeline). */
  copyable: boolean;
  /** Between two rows. */
  separator: string;
  /** The channel's files as published by that run; absent when it published none (gate, failure). */
  outputs?: { feed: OutputFile; report: OutputFile; warnings: OutputFile };
}

export interface Trailer {
  rowcache: number;
  /** The run's start (manifest.startedAt), as its explain index says too: a refresh copies that index. */
  startedAt: string;
  code: string;
  /** The snapshot generation whose line numbers the entries give (snapshot/store.ts); absent: the source was not a snapshot kept. */
  snapshot?: string;
  /** The run's clock (Unix seconds): the entries' horizons were reckoned from it. */
  now: number;
  reference: string;
  /** Whether the run had an offers file (the entries' offer fingerprints mean something). */
  offers: boolean;
  products: number;
  channels: TrailerChannel[];
  /** The lines of the source refused as records, replayed by a refresh that reads none. */
  rejections: Rejection[];
  /** sha256 (base64url) of every byte before the trailer: entries edited, cut, reordered or damaged are not used. */
  digest: string;
}

/** What a channel did with a product (explain/entry.ts): explain and a refresh read the same. */
export type EntryOutcome = Outcome;

export interface Entry {
  /** The product as the explain index keeps it (id, codes, names, brand). */
  p: IndexProduct;
  /** Its line among the source's (0-based). */
  n: number;
  /** OffersIndex.fingerprint() of its offer ("" for none). */
  o: string;
  /** Its rows' horizon (mapping/clock.ts); absent: none. */
  u?: number;
  c: EntryOutcome[];
}

/**
 * An entry's line from its outcomes' JSON texts (explain/run-hook.ts keeps them so): the very text
 * JSON.stringify(entry) gives, keys in Entry's order, without parsing the outcomes back.
 */
export function entryText(product: IndexProduct, ordinal: number, offer: string, until: number, outcomes: readonly string[]): string {
  const horizon = until === Infinity ? "" : `,"u":${JSON.stringify(until)}`;
  return `{"p":${JSON.stringify(product)},"n":${ordinal},"o":${JSON.stringify(offer)}${horizon},"c":[${outcomes.join(",")}]}`;
}

/** Where an entry's line is in the file: the explain index points at it (explain/store.ts). */
export interface LinePosition {
  at: number;
  bytes: number;
}

const CHUNK = 1 << 18;

/**
 * Lines are encoded into a buffer as they come, never kept as strings: kept strings would
 * survive a scavenge or two into V8's old space and pile up there until a full collection
 * (the first version held ~150 MB of dead strings at the end of a refresh).
 */
export class RowsWriter {
  private readonly fd: number;
  private readonly tmp: string;
  private buffer = Buffer.allocUnsafeSlow(CHUNK);
  private used = 0;
  /** Bytes handed to the file before the buffer's. */
  private flushed = 0;
  private products = 0;
  private closed = false;
  private readonly hash = createHash("sha256");
  private digest: string | undefined;

  constructor(readonly file: string) {
    this.tmp = temporaryPath(file);
    // Created, never reused: a link planted at the temporary name is refused (as core/atomic-output.ts).
    this.fd = openSync(this.tmp, "wx", 0o644);
  }

  /** Appends an entry; returns where its line is (without the newline). */
  add(entry: Entry): LinePosition {
    return this.addLine(JSON.stringify(entry));
  }

  /** Appends an entry given as its JSON text (one line). */
  addLine(text: string): LinePosition {
    const position = this.write(text);
    this.products++;
    return position;
  }

  private write(text: string): LinePosition {
    // A UTF-16 unit never takes more than 3 bytes in UTF-8.
    const need = text.length * 3 + 1;
    if (this.used + need > this.buffer.length) {
      this.flush();
      if (need > this.buffer.length) this.buffer = Buffer.allocUnsafeSlow(need);
    }
    const at = this.flushed + this.used;
    const bytes = this.buffer.write(text, this.used, "utf8");
    this.used += bytes;
    this.buffer[this.used++] = 0x0a;
    return { at, bytes };
  }

  private flush(): void {
    // The trailer, written once the digest is taken, is not part of it.
    if (this.digest === undefined) this.hash.update(this.buffer.subarray(0, this.used));
    for (let at = 0; at < this.used; ) at += writeSync(this.fd, this.buffer, at, this.used - at);
    this.flushed += this.used;
    this.used = 0;
  }

  /** Writes the trailer (the digest of everything before it) and renames the file into place. */
  /** Returns the digest of the entries (the trailer's): the explain index records it (explain/store.ts). */
  commit(trailer: Omit<Trailer, "rowcache" | "products" | "digest">): string {
    this.flush();
    const digest = (this.digest = this.hash.digest("base64url"));
    this.write(JSON.stringify({ rowcache: ROWS_VERSION, products: this.products, ...trailer, digest }));
    this.flush();
    closeSync(this.fd);
    this.closed = true;
    renameIntoPlaceSync(this.tmp, this.file);
    return digest;
  }

  abort(): void {
    if (!this.closed) closeSync(this.fd);
    this.closed = true;
    rmSync(this.tmp, { force: true });
  }
}

function digestOf(fd: number, end: number): string {
  const hash = createHash("sha256");
  const buffer = Buffer.allocUnsafeSlow(CHUNK);
  for (let position = 0; position < end; ) {
    const read = readSync(fd, buffer, 0, Math.min(CHUNK, end - position), position);
    if (read === 0) break;
    hash.update(buffer.subarray(0, read));
    position += read;
  }
  return hash.digest("base64url");
}

/** The last run's entries and trailer, read in order; undefined when there is no usable file (with why). */
export class RowsReader {
  private constructor(
    private readonly fd: number,
    readonly trailer: Trailer,
    private readonly trailerAt: number,
  ) {}

  /**
   * `checked(key)`: whether the file, as `key` (size, times, inode of the open descriptor) names it,
   * was already checked whole against its digest in this process (a server answering searches
   * reads one file many times); the pass over every byte is then skipped.
   */
  static open(file: string, checked?: { has(key: string): boolean; add(key: string): unknown }): { reader: RowsReader } | { reason: string } {
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch (error) {
      return { reason: (error as NodeJS.ErrnoException).code === "ENOENT" ? "no rows recorded yet (a run writes them)" : `${file}: ${(error as Error).message}` };
    }
    try {
      const size = fstatSync(fd).size;
      // The trailer is the last line: read back from the end until its newline.
      let tail = Buffer.alloc(0);
      let from = size;
      let start = -1;
      while (start < 0 && from > 0) {
        const length = Math.min(CHUNK, from);
        const chunk = Buffer.allocUnsafe(length);
        readSync(fd, chunk, 0, length, from - length);
        tail = Buffer.concat([chunk, tail]);
        from -= length;
        const nl = tail.lastIndexOf(0x0a, tail.length - 2);
        if (nl >= 0) start = from + nl + 1;
      }
      if (size === 0 || start < 0) throw new Error("no trailer (a run that did not finish?)");
      const text = tail.subarray(start - from).toString("utf8");
      const trailer = JSON.parse(text) as Trailer;
      if (trailer?.rowcache !== ROWS_VERSION) throw new Error(`format ${String(trailer?.rowcache)}, this version reads ${ROWS_VERSION}`);
      if (!text.endsWith("\n")) throw new Error("cut short");
      // Before a single row is copied: the entries are every byte that run wrote (~0.1 s for 80 MB).
      const st = fstatSync(fd, { bigint: true });
      const key = `${trailer.digest} ${st.size} ${st.mtimeNs} ${st.ctimeNs} ${st.ino} ${st.dev}`;
      if (!checked?.has(key)) {
        if (digestOf(fd, start) !== trailer.digest) throw new Error("its entries are not those its trailer describes (edited, cut or damaged)");
        checked?.add(key);
      }
      return { reader: new RowsReader(fd, trailer, start) };
    } catch (error) {
      closeSync(fd);
      return { reason: `${file} is not usable: ${(error as Error).message}` };
    }
  }

  /** The entries, in order (the trailer excluded). Lines are decoded one by one (small strings die young). */
  *entries(): Generator<Entry> {
    let buffer = Buffer.allocUnsafeSlow(CHUNK);
    let kept = 0;
    let position = 0;
    while (position < this.trailerAt) {
      if (kept === buffer.length) {
        const bigger = Buffer.allocUnsafeSlow(buffer.length * 2);
        buffer.copy(bigger, 0, 0, kept);
        buffer = bigger;
      }
      const read = readSync(this.fd, buffer, kept, Math.min(buffer.length - kept, this.trailerAt - position), position);
      if (read === 0) break;
      position += read;
      const end = kept + read;
      const filled = buffer.subarray(0, end);
      let start = 0;
      for (let nl = filled.indexOf(0x0a); nl !== -1; nl = filled.indexOf(0x0a, start)) {
        yield JSON.parse(filled.toString("utf8", start, nl)) as Entry;
        start = nl + 1;
      }
      kept = end - start;
      buffer.copy(buffer, 0, start, end);
    }
  }

  /**
   * The entry whose line is at `position` (explain/store.ts), or undefined when no whole line of
   * entries is there: a line starts after a newline and ends at one, before the trailer.
   */
  lineAt({ at, bytes }: LinePosition): Entry | undefined {
    if (!Number.isSafeInteger(at) || !Number.isSafeInteger(bytes) || at < 0 || bytes < 2 || at + bytes >= this.trailerAt) return undefined;
    const from = at === 0 ? 0 : at - 1;
    const buffer = Buffer.allocUnsafe(at + bytes + 1 - from);
    if (readSync(this.fd, buffer, 0, buffer.length, from) !== buffer.length) return undefined;
    if ((at > 0 && buffer[0] !== 0x0a) || buffer[buffer.length - 1] !== 0x0a) return undefined;
    try {
      return JSON.parse(buffer.toString("utf8", at - from, buffer.length - 1)) as Entry;
    } catch {
      return undefined;
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}
