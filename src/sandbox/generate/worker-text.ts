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

function unicodeEscape(w: ByteWriter, c: number, digits: number[]): void {
  w.c(92);
  w.c(117);
  for (let shift = 12; shift >= 0; shift -= 4) w.c(digits[(c >>> shift) & 15] as number);
}

/** q(text): a JSON string literal, quotes included, escaped the PHP way; any text. */
export function quote(w: ByteWriter, text: string): void {
  w.c(34);
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    // Every code unit from DEL up (surrogates included, paired or not) becomes \\uXXXX in lowercase.
    const kind = c < 128 ? ASCII[c] : 1;
    if (kind === 0) w.c(c);
    else if (kind === 1) unicodeEscape(w, c, HEX);
    else if (kind === 2) unicodeEscape(w, c, HEX_UPPER);
    else w.s(kind as string);
  }
  w.c(34);
}

/** names.ts FOLD: accented letters and ligatures, by code unit. */
const FOLD = new Map<number, number[]>(
  Object.entries({ à: "a", â: "a", ä: "a", á: "a", ç: "c", é: "e", è: "e", ê: "e", ë: "e", î: "i", ï: "i", í: "i", ô: "o", ö: "o", ó: "o", ù: "u", û: "u", ü: "u", ú: "u", ÿ: "y", ñ: "n", œ: "oe", ß: "ss" }).map(([ch, to]) => [
    ch.charCodeAt(0),
    Array.from(to, (t) => t.charCodeAt(0)),
  ]),
);

/**
 * slug(text): lowercase ASCII words joined by "-". slug() walks code points and
 * this walks code units, which is the same here: no code point beyond 0xFFFF
 * folds to a letter, and a run of separators makes one dash.
 */
export function slugInto(w: ByteWriter, text: string): void {
  const lower = text.toLowerCase();
  let written = false;
  let dash = false;
  for (let k = 0; k < lower.length; k++) {
    const c = lower.charCodeAt(k);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (dash) w.c(45);
      w.c(c);
    } else {
      const folded = FOLD.get(c);
      if (!folded) {
        dash = written;
        continue;
      }
      if (dash) w.c(45);
      for (const f of folded) w.c(f);
    }
    written = true;
    dash = false;
  }
}
