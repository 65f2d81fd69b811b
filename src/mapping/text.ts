/**
 * Title and description text. Both stay plain, unescaped text: `& < > " '` and
 * emoji pass through, the writers escape them once.
 */
import type { Description, Product } from "../catalogue/schemas/product.js";
import { htmlToTextMemo } from "./html-text.js";
import { collapseWhitespace, truncateText } from "./truncate.js";

export interface TextResult {
  text: string;
  truncated: boolean;
}

/**
 * A rendered title: whitespace collapsed, a brand repeated at the start
 * ("Avène Avène Eau thermale", when the name already starts with the brand)
 * said once, then cut on a word boundary.
 */
export function finishTitle(rendered: string, brand: string | undefined, maxLength: number): TextResult {
  let title = collapseWhitespace(rendered);
  if (brand !== undefined && brand !== "") {
    const b = collapseWhitespace(brand);
    const end = 2 * b.length + 1;
    // Cheap rejections first: most titles are "Brand Name", not "Brand Brand Name".
    if (title.length >= end && title.charCodeAt(b.length) === 32 && (end === title.length || title.charCodeAt(end) === 32)) {
      const first = title.slice(0, b.length).toLowerCase();
      if (first === title.slice(b.length + 1, end).toLowerCase() && first === b.toLowerCase()) title = title.slice(b.length + 1);
    }
  }
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
