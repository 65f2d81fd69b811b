/**
 * Title and description text. Both stay plain, unescaped text: `& < > " '` and
 * emoji pass through, the writers escape them once.
 */
import type { Description, Product } from "../catalogue/schemas/product.js";
import { dropControlChars } from "./controls.js";
import { htmlToTextMemo } from "./html-text.js";
import { dropDecorations } from "./title-text.js";
import { collapseWhitespace, truncateText } from "./truncate.js";

export interface TextResult {
  text: string;
  truncated: boolean;
}

/** Characters that may sit between a repeated brand and the rest: spaces and light punctuation. */
const SEPARATOR = /[\s,;:|/·\-\u2013\u2014]/;
const WORD = /[\p{L}\p{N}]/u;

/**
 * `title` without a brand said twice at its start ("Avène Avène Eau thermale",
 * "Purapharm Purapharm, collier": the template puts the brand before a name
 * that already starts with it). Case-insensitive; the second mention, with its
 * own punctuation, is the one kept. "Avène Avènement" is not a repetition.
 */
export function dropRepeatedBrand(title: string, brand: string): string {
  const n = brand.length;
  if (n === 0 || title.length <= 2 * n) return title;
  // Prefixes only, never the whole title, are lowercased: this runs for every item.
  const b = brand.toLowerCase();
  const first = title.slice(0, n).toLowerCase();
  // Lowercasing that changes lengths (rare scripts) would shift indices: leave such titles alone.
  if (b.length !== n || first !== b) return title;
  let j = n;
  while (j < title.length && SEPARATOR.test(title[j] as string)) j++;
  if (j === n || title.slice(j, j + n).toLowerCase() !== b) return title;
  const after = title[j + n];
  return after === undefined || !WORD.test(after) ? title.slice(j) : title;
}

export interface TitleOptions {
  /** Drop emoji and decorative symbols (Google, Microsoft). */
  dropDecorations?: boolean;
}

/**
 * A rendered title: plain text on one line (control characters dropped,
 * whitespace collapsed), emoji dropped where the channel refuses them, a brand
 * repeated at the start said once, then cut on a word boundary.
 */
export function finishTitle(rendered: string, brand: string | undefined, maxLength: number, options: TitleOptions = {}): TextResult {
  let title = collapseWhitespace(dropControlChars(rendered));
  if (options.dropDecorations === true) title = dropDecorations(title);
  if (brand !== undefined && brand !== "") title = dropRepeatedBrand(title, collapseWhitespace(brand));
  const cut = truncateText(title, maxLength);
  return { text: cut, truncated: cut.length !== title.length };
}

export interface DescriptionChoice extends TextResult {
  locale: string;
  type: string;
}

function groupOk(d: Description, targetGroup: string | null): boolean {
  if (targetGroup === null) return true;
  const groups = d.targetGroups;
  return !groups || groups.length === 0 || groups.includes(targetGroup);
}

/**
 * The first description, by locale of the chain then by type preference, whose
 * content in that locale has text once the HTML is gone.
 */
export function selectDescription(
  product: Product,
  types: readonly string[],
  targetGroup: string | null,
  chain: readonly string[],
  maxLength: number,
  memo: Map<string, string>,
): DescriptionChoice | undefined {
  const descriptions = product.descriptions;
  if (!descriptions || descriptions.length === 0) return undefined;
  for (const locale of chain) {
    for (const type of types) {
      for (const d of descriptions) {
        if (d.type !== type || !groupOk(d, targetGroup)) continue;
        const html = d.content?.[locale];
        if (typeof html !== "string" || html === "") continue;
        const text = htmlToTextMemo(html, memo);
        if (text === "") continue;
        const cut = truncateText(text, maxLength);
        return { text: cut, truncated: cut.length !== text.length, locale, type };
      }
    }
  }
  return undefined;
}
