/**
 * Free text (product names) written as bytes: the JSON string literal that
 * q() gives (json.ts: JSON.stringify, then the PHP escapes), and the slug
 * that slug() gives (names.ts), without building either as a string.
 */
import type { ByteWriter } from "./worker-writer.js";

const HEX = Array.from("0123456789abcdef", (c) => c.charCodeAt(0));
const HEX_UPPER = Array.from("0123456789ABCDEF", (c) => c.charCodeAt(0));

/**
 * What q() makes of each code unit below 128: 0 = itself, 1 = \\u + 4 lowercase
 * hex digits (controls, DEL), 2 = \\u00XX uppercase (< > & ' and the quote),
 * or a two-character escape.
 */
const ASCII: (0 | 1 | 2 | string)[] = Array.from({ length: 128 }, (_, c) => {
  if (c === 0x22 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x27) return 2;
  if (c === 0x5c) return "\\\\";
  if (c === 0x2f) return "\\/";
  const short: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" };
  if (short[c]) return short[c] as string;
  return c < 0x20 || c === 0x7f ? 1 : 0;
});

/** q(text): a JSON string literal, quotes included, escaped the PHP way; any text. */
export function quote(w: ByteWriter, text: string): void {
  // At most 6 bytes per code unit (\\uXXXX), and the quotes.
  w.room(text.length * 6 + 2);
  const buf = w.buf;
  let p = w.pos;
  buf[p++] = 34;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    // Every code unit from DEL up (surrogates included, paired or not) becomes \\uXXXX in lowercase.
    const kind = c < 128 ? (ASCII[c] as 0 | 1 | 2 | string) : 1;
    if (kind === 0) {
      buf[p++] = c;
    } else if (typeof kind === "string") {
      buf[p++] = 92;
      buf[p++] = kind.charCodeAt(1);
    } else {
      const digits = kind === 1 ? HEX : HEX_UPPER;
      buf[p++] = 92;
      buf[p++] = 117;
      buf[p++] = digits[(c >>> 12) & 15] as number;
      buf[p++] = digits[(c >>> 8) & 15] as number;
      buf[p++] = digits[(c >>> 4) & 15] as number;
      buf[p++] = digits[c & 15] as number;
    }
  }
  buf[p++] = 34;
  w.pos = p;
}

/** names.ts FOLD: accented letters and ligatures, by code unit (all below 0x180). */
const FOLD: (number[] | undefined)[] = [];
for (const [ch, to] of Object.entries({ à: "a", â: "a", ä: "a", á: "a", ç: "c", é: "e", è: "e", ê: "e", ë: "e", î: "i", ï: "i", í: "i", ô: "o", ö: "o", ó: "o", ù: "u", û: "u", ü: "u", ú: "u", ÿ: "y", ñ: "n", œ: "oe", ß: "ss" })) {
  FOLD[ch.charCodeAt(0)] = Array.from(to, (t) => t.charCodeAt(0));
}

/**
 * slug(text): lowercase ASCII words joined by "-". slug() walks code points and
 * this walks code units, which is the same here: no code point beyond 0xFFFF
 * folds to a letter, and a run of separators makes one dash.
 */
export function slugInto(w: ByteWriter, text: string): void {
  const lower = text.toLowerCase();
  // At most 2 bytes per code unit (a dash and a letter, or a ligature's two letters; never both).
  w.room(lower.length * 2);
  const buf = w.buf;
  let p = w.pos;
  const start = p;
  let dash = false;
  for (let k = 0; k < lower.length; k++) {
    const c = lower.charCodeAt(k);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (dash) buf[p++] = 45;
      buf[p++] = c;
    } else {
      const folded = c < 0x180 ? FOLD[c] : undefined;
      if (!folded) {
        dash = p > start;
        continue;
      }
      if (dash) buf[p++] = 45;
      for (const f of folded) buf[p++] = f;
    }
    dash = false;
  }
  w.pos = p;
}
