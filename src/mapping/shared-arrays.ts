/**
 * Shared memory for the offers index (offers-table.ts): typed arrays in
 * SharedArrayBuffers that grow by doubling, and a pool of strings stored as
 * UTF-8 bytes and found again through an open-addressing hash table. Worker
 * threads receive these arrays by reference; only the main thread adds.
 */

export type Typed = Uint8Array | Int32Array | Uint32Array | Float64Array;
export type TypedCtor<T extends Typed> = { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number };

export function sharedArray<T extends Typed>(ctor: TypedCtor<T>, length: number, fill?: number): T {
  const array = new ctor(new SharedArrayBuffer(length * ctor.BYTES_PER_ELEMENT));
  if (fill !== undefined && fill !== 0) array.fill(fill);
  return array;
}

/** `array`, or a copy at least `length` long (doubled); the new tail filled with `fill`. */
export function ensure<T extends Typed>(array: T, length: number, fill?: number): T {
  if (array.length >= length) return array;
  let size = Math.max(array.length, 16);
  while (size < length) size *= 2;
  const bigger = sharedArray(array.constructor as TypedCtor<T>, size);
  bigger.set(array as never);
  if (fill !== undefined && fill !== 0) bigger.fill(fill, array.length);
  return bigger;
}

/** FNV-1a over bytes. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** Strings as UTF-8 in one byte pool, each found again by its bytes through an open-addressing table. */
export class StringPool {
  private static scratch = Buffer.allocUnsafe(256);

  constructor(
    private bytes: Uint8Array,
    private used: number,
    /** End offset of string i in `bytes` (it starts where i - 1 ends). */
    private ends: Uint32Array,
    private hashes: Uint32Array,
    public count: number,
    /** String index + 1 per slot; 0 is empty. Its length is a power of two, at least twice `count`. */
    private slots: Int32Array,
  ) {}

  static create(): StringPool {
    return new StringPool(sharedArray(Uint8Array, 1024), 0, sharedArray(Uint32Array, 64), sharedArray(Uint32Array, 64), 0, sharedArray(Int32Array, 128));
  }

  static from(d: SharedPool): StringPool {
    return new StringPool(d.bytes, d.used, d.ends, d.hashes, d.count, d.slots);
  }

  share(): SharedPool {
    return { bytes: this.bytes, used: this.used, ends: this.ends, hashes: this.hashes, count: this.count, slots: this.slots };
  }

  get(index: number): string {
    const start = index === 0 ? 0 : this.ends[index - 1]!;
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + start, this.ends[index]! - start).toString("utf8");
  }

  /** The index of `text`, or -1. */
  find(text: string): number {
    const length = this.encode(text);
    return this.probe(StringPool.scratch, length, hashBytes(StringPool.scratch, 0, length)).index;
  }

  /** The index of `text`, added when new. */
  intern(text: string): number {
    const length = this.encode(text);
    const scratch = StringPool.scratch;
    const hash = hashBytes(scratch, 0, length);
    const { index, slot } = this.probe(scratch, length, hash);
    if (index >= 0) return index;
    const added = this.count++;
    this.bytes = ensure(this.bytes, this.used + length);
    this.bytes.set(scratch.subarray(0, length), this.used);
    this.used += length;
    this.ends = ensure(this.ends, this.count);
    this.hashes = ensure(this.hashes, this.count);
    this.ends[added] = this.used;
    this.hashes[added] = hash;
    this.slots[slot] = added + 1;
    if (this.count * 2 > this.slots.length) this.rehash();
    return added;
  }

  private encode(text: string): number {
    const length = Buffer.byteLength(text, "utf8");
    if (length > StringPool.scratch.length) StringPool.scratch = Buffer.allocUnsafe(length * 2);
    return StringPool.scratch.write(text, 0, "utf8");
  }

  private probe(key: Uint8Array, length: number, hash: number): { index: number; slot: number } {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return { index: -1, slot };
      const index = entry - 1;
      if (this.hashes[index] === hash && this.equals(index, key, length)) return { index, slot };
    }
  }

  private equals(index: number, key: Uint8Array, length: number): boolean {
    const start = index === 0 ? 0 : this.ends[index - 1]!;
    if (this.ends[index]! - start !== length) return false;
    for (let i = 0; i < length; i++) if (this.bytes[start + i] !== key[i]) return false;
    return true;
  }

  private rehash(): void {
    const slots = sharedArray(Int32Array, this.slots.length * 2);
    const mask = slots.length - 1;
    for (let index = 0; index < this.count; index++) {
      let slot = this.hashes[index]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = index + 1;
    }
    this.slots = slots;
  }
}

export interface SharedPool {
  bytes: Uint8Array;
  used: number;
  ends: Uint32Array;
  hashes: Uint32Array;
  count: number;
  slots: Int32Array;
}
