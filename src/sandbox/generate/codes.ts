/**
 * Product codes with real check digits: GS1 GTIN-8/12/13/14 and French CIP13
 * (a GTIN-13 in the 3400 range), and the product id scheme of the service.
 */
import type { Rng } from "./prng.js";

/** The GS1 check digit of `body` (all digits but the last): weights 3,1,3,... from the right. */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let k = 0; k < body.length; k++) {
    const digit = body.charCodeAt(body.length - 1 - k) - 48;
    sum += k % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** A valid GTIN of `length` digits that starts with `prefix`. */
export function makeGtin(rng: Rng, length: number, prefix = ""): string {
  const body = prefix + rng.digits(length - 1 - prefix.length);
  return body + String(gs1CheckDigit(body));
}

/** The same code with a wrong check digit (a data-entry error the feed must catch). */
export function breakCheckDigit(code: string): string {
  const last = code.charCodeAt(code.length - 1) - 48;
  return code.slice(0, -1) + String((last + 1 + (code.length % 9)) % 10);
}

/** GTIN-14 of a GTIN-13: indicator digit 0 and a recomputed check digit (here unchanged). */
export function gtin14Of(gtin13: string): string {
  const body = "0" + gtin13.slice(0, -1);
  return body + String(gs1CheckDigit(body));
}

/**
 * Product ids look like the service's (`M34C3D3A5E`: "M" and 9 uppercase hex
 * digits) but increase with the index, so `id ASC` is index order and an id
 * maps back to its index in O(1). The offset depends on the seed only.
 */
const ID_STRIDE = 4099;
const ID_SPAN = 0x1000000000; // 16^9

/** The id of index 0 (before jitter), from a hash of the seed. */
export function idBase(seedHash: number): number {
  return 0x200000000 + seedHash * 4;
}

export function productId(base: number, index: number, jitter: number): string {
  const value = base + index * ID_STRIDE + (jitter % ID_STRIDE);
  return "M" + (value % ID_SPAN).toString(16).toUpperCase().padStart(9, "0");
}

/** The index of a product id, or -1 when it is not of this catalogue's form (the caller checks the range). */
export function indexOfProductId(base: number, id: string): number {
  if (!/^M[0-9A-F]{9}$/.test(id)) return -1;
  const value = parseInt(id.slice(1), 16);
  if (value < base) return -1;
  return Math.floor((value - base) / ID_STRIDE);
}
