/**
 * Writes ASCII text straight into a byte buffer. Stream lines are built here
 * instead of as strings: a product as a string is a rope of hundreds of
 * pieces, and turning it into bytes (V8 flattens it first) costs as much as
 * generating it; pieces written one by one cost a copy each.
 *
 * Text must be one byte per character (the JSON here is ASCII: PHP-style escapes).
 * Constant text is best encoded once (encode, encodeAll) and written with b().
 */
/** "00" .. "99" as byte pairs. */
const PAIRS = new Uint8Array(200);
for (let k = 0; k < 100; k++) {
  PAIRS[2 * k] = 48 + ((k / 10) | 0);
  PAIRS[2 * k + 1] = 48 + (k % 10);
}

export class ByteWriter {
  /** Where the bytes go; replaced by a bigger buffer of its own when the first one is full. */
  buf: Buffer;
  pos = 0;

  constructor(target: Buffer) {
    this.buf = target;
  }

  /** The bytes written so far. */
  bytes(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  private grow(need: number): void {
    const bigger = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.pos + need, 4096));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  /** A string; short ones are copied by a loop (a call into C++ costs more than copying a few bytes). */
  s(text: string): void {
    const n = text.length;
    if (this.pos + n > this.buf.length) this.grow(n);
    if (n > 40) {
      this.pos += this.buf.write(text, this.pos, n, "latin1");
      return;
    }
    const buf = this.buf;
    let p = this.pos;
    for (let k = 0; k < n; k++) buf[p++] = text.charCodeAt(k);
    this.pos = p;
  }

  /** A number as JavaScript prints it (non-negative int32 two digits at a time, anything else via String). */
  n(value: number): void {
    if ((value | 0) !== value || value < 0) {
      this.s(String(value));
      return;
    }
    const len = value < 10 ? 1 : value < 100 ? 2 : value < 1e3 ? 3 : value < 1e4 ? 4 : value < 1e5 ? 5 : value < 1e6 ? 6 : value < 1e7 ? 7 : value < 1e8 ? 8 : value < 1e9 ? 9 : 10;
    if (this.pos + len > this.buf.length) this.grow(len);
    const buf = this.buf;
    let p = this.pos + len;
    let t = value;
    while (t >= 100) {
      const q = (t / 100) | 0;
      const r = (t - q * 100) * 2;
      buf[--p] = PAIRS[r + 1] as number;
      buf[--p] = PAIRS[r] as number;
      t = q;
    }
    if (t >= 10) {
      buf[p - 1] = PAIRS[t * 2 + 1] as number;
      buf[p - 2] = PAIRS[t * 2] as number;
    } else {
      buf[p - 1] = 48 + t;
    }
    this.pos += len;
  }

  /** Makes room for `n` more bytes, for callers that write into `buf` themselves (then advance `pos`). */
  room(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  /** One byte. */
  c(code: number): void {
    if (this.pos === this.buf.length) this.grow(1);
    this.buf[this.pos++] = code;
  }

  /** Bytes [start, end) written earlier, once more (text repeated within a record). */
  again(start: number, end: number): void {
    const n = end - start;
    if (this.pos + n > this.buf.length) this.grow(n);
    this.buf.copyWithin(this.pos, start, end);
    this.pos += n;
  }

  /** Bytes prepared once (see encode): a native copy, or a loop for a few bytes. */
  b(bytes: Uint8Array): void {
    const n = bytes.length;
    if (this.pos + n > this.buf.length) this.grow(n);
    if (n > 24) {
      this.buf.set(bytes, this.pos);
      this.pos += n;
      return;
    }
    const buf = this.buf;
    let p = this.pos;
    for (let k = 0; k < n; k++) buf[p++] = bytes[k] as number;
    this.pos = p;
  }
}

/**
 * Text as bytes, once: a copy of prepared bytes costs about as much as a loop
 * over 15 characters, whatever the length (copying a string costs a call into
 * C++, or a loop over every character).
 */
export function encode(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "latin1"));
}

/** encode() over every value of a table of literals. */
export function encodeAll<K extends string>(table: Record<K, string>): Record<K, Uint8Array> {
  return Object.fromEntries(Object.entries(table).map(([key, text]) => [key, encode(text as string)])) as Record<K, Uint8Array>;
}
