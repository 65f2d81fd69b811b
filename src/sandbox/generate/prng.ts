/**
 * Deterministic randomness. Every product draws from its own stream seeded by
 * (seed, index, salt), so product i can be generated without generating 0..i-1
 * (random access, nothing held in memory) and a change to one field's draws does
 * not shift the draws of another stream.
 */

/** A 32-bit avalanche hash of up to three integers (murmur3's finaliser, chained). */
export function hash3(a: number, b: number, c = 0): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ Math.imul(c, 0x27d4eb2f), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform float in [0, 1) from (seed, index, salt) without creating a generator. */
export function unit3(a: number, b: number, c = 0): number {
  return hash3(a, b, c) / 4294967296;
}

/** mulberry32: tiny, fast and good enough for test data (not for anything secret). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** true with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A string of n decimal digits (leading zeros allowed). */
  digits(n: number): string {
    let out = "";
    for (let k = 0; k < n; k++) out += String(Math.floor(this.next() * 10));
    return out;
  }

  /** n lowercase hex characters. */
  hex(n: number): string {
    let out = "";
    while (out.length < n) out += (((this.next() * 4294967296) >>> 0).toString(16)).padStart(8, "0");
    return out.slice(0, n);
  }

  /** Picks by weight: `weights[k]` is the relative share of `items[k]`. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let k = 0; k < items.length; k++) {
      r -= weights[k] ?? 0;
      if (r < 0) return items[k] as T;
    }
    return items[items.length - 1] as T;
  }
}
