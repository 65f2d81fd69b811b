/**
 * Splits an NDJSON body into lines on the newline byte (0x0A), across Buffer
 * chunks of any size. A line is decoded as UTF-8 only once complete, so a
 * multi-byte character cut between two chunks is never broken; a line that
 * sits within one chunk is decoded straight from it, without a copy.
 *
 * Lines come back as they are, blank ones included, so that the caller can
 * number them; a line longer than `maxLineBytes` comes back as `null`
 * (its bytes are dropped instead of growing memory without bound).
 */
const NEWLINE = 0x0a;

export class LineSplitter {
  readonly #maxLineBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #oversized = false;

  constructor(maxLineBytes = 64 * 1024 * 1024) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** The lines completed by this chunk, in order. */
  push(chunk: Buffer): (string | null)[] {
    const lines: (string | null)[] = [];
    let start = 0;
    let end = chunk.indexOf(NEWLINE, start);
    while (end !== -1) {
      if (this.#pendingBytes === 0 && !this.#oversized) {
        lines.push(chunk.toString("utf8", start, end));
      } else {
        lines.push(this.#take(chunk.subarray(start, end)));
      }
      start = end + 1;
      end = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) this.#keep(chunk.subarray(start));
    return lines;
  }

  /** The last line when the body did not end with a newline. */
  end(): (string | null)[] {
    if (this.#pendingBytes === 0 && !this.#oversized) return [];
    return [this.#take(Buffer.alloc(0))];
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

  #take(last: Buffer): string | null {
    this.#keep(last);
    const line = this.#oversized ? null : Buffer.concat(this.#pending, this.#pendingBytes).toString("utf8");
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#oversized = false;
    return line;
  }
}

/** A line holding only whitespace (or nothing) carries no record. */
export function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  const first = line.charCodeAt(0);
  const last = line.charCodeAt(line.length - 1);
  if (first > 0x20 && last > 0x20) return false;
  return line.trim().length === 0;
}
