/**
 * Splits an NDJSON body into lines on the newline byte (0x0A), across Buffer
 * chunks of any size. A line is decoded as UTF-8 only once complete, so a
 * multi-byte character cut between two chunks is never broken; a line that
 * sits within one chunk is decoded straight from it, without a copy.
 *
 * Lines are handed out one at a time (`push` a chunk, then `nextBytes()` or
 * `next()` until it says undefined), so only the line in hand is a string: the
 * rest of the chunk stays bytes off the JavaScript heap instead of a batch of
 * strings that the garbage collector would copy around while the records are
 * validated. `nextBytes()` does not decode at all, for a line that is only
 * passed on (to a worker thread, see RecordStream.lines()).
 * Lines come back as they are, blank ones included, so that the caller can
 * number them; a line longer than `maxLineBytes` comes back as `null` (its
 * bytes are dropped instead of growing memory without bound).
 */
const NEWLINE = 0x0a;

export class LineSplitter {
  readonly #maxLineBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #oversized = false;
  #chunk: Buffer | undefined;
  #at = 0;

  constructor(maxLineBytes = 64 * 1024 * 1024) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Takes the next chunk; call only once `next()` has returned undefined. */
  push(chunk: Buffer): void {
    this.#chunk = chunk;
    this.#at = 0;
  }

  /** The next complete line, or undefined when the pushed chunk holds no more (its tail is kept). */
  next(): string | null | undefined {
    const bytes = this.nextBytes();
    return bytes ? bytes.toString("utf8") : bytes;
  }

  /**
   * As next(), the line's bytes undecoded: a view of the pushed chunk (valid as
   * long as the chunk is), or a copy when the line spanned chunks.
   */
  nextBytes(): Buffer | null | undefined {
    const chunk = this.#chunk;
    if (chunk === undefined) return undefined;
    const start = this.#at;
    const end = chunk.indexOf(NEWLINE, start);
    if (end === -1) return this.#rest(chunk, start);
    this.#at = end + 1;
    if (this.#pendingBytes === 0 && !this.#oversized) return chunk.subarray(start, end);
    return this.#take(chunk.subarray(start, end));
  }

  /** The last line when the body did not end with a newline. */
  end(): string | null | undefined {
    const bytes = this.endBytes();
    return bytes ? bytes.toString("utf8") : bytes;
  }

  /** As end(), the bytes. */
  endBytes(): Buffer | null | undefined {
    if (this.#pendingBytes === 0 && !this.#oversized) return undefined;
    return this.#take(Buffer.alloc(0));
  }

  /** The chunk has no newline after `start`: its tail waits for the next chunk. */
  #rest(chunk: Buffer, start: number): undefined {
    if (start < chunk.length) this.#keep(chunk.subarray(start));
    this.#chunk = undefined;
    return undefined;
  }

  #keep(piece: Buffer): void {
    if (this.#oversized) return;
    if (this.#pendingBytes + piece.length > this.#maxLineBytes) {
      this.#oversized = true;
      this.#pending = [];
      this.#pendingBytes = 0;
      return;
    }
    // A copy of the tail only: a subarray would pin the whole chunk until the line completes.
    this.#pending.push(Buffer.from(piece));
    this.#pendingBytes += piece.length;
  }

  #take(last: Buffer): Buffer | null {
    this.#keep(last);
    const line = this.#oversized ? null : Buffer.concat(this.#pending, this.#pendingBytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#oversized = false;
    return line;
  }
}

/** Every line of a whole body given as chunks (for tests and small bodies). */
export function splitLines(chunks: Iterable<Buffer>, maxLineBytes?: number): (string | null)[] {
  const splitter = new LineSplitter(maxLineBytes);
  const lines: (string | null)[] = [];
  for (const chunk of chunks) {
    splitter.push(chunk);
    for (let line = splitter.next(); line !== undefined; line = splitter.next()) lines.push(line);
  }
  const last = splitter.end();
  if (last !== undefined) lines.push(last);
  return lines;
}

/** isBlank of a line still in bytes. */
export function isBlankBytes(line: Uint8Array): boolean {
  // The usual line starts with "{" and ends with "}": no need to decode it.
  if (line.length > 0 && line[0]! > 0x20 && line[line.length - 1]! > 0x20) return false;
  return isBlank(Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString("utf8"));
}

/** A line holding only whitespace (or nothing) carries no record. */
export function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  const first = line.charCodeAt(0);
  const last = line.charCodeAt(line.length - 1);
  if (first > 0x20 && last > 0x20) return false;
  return line.trim().length === 0;
}
