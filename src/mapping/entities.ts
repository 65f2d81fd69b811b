/**
 * HTML entities decoded until none is left. A name or description that reached
 * the catalogue escaped twice (`&amp;amp;`, `karit&amp;eacute;`) decoded one level
 * only would reach every marketplace as `&amp;` / `&eacute;`, shown verbatim (and
 * flagged `ContainsHTML` by the W3C feed validator): plain text has no entity left.
 * Each level that changes something shortens the text; 32 levels are more than any
 * real export nests, and bound the work on hostile input.
 */
import { decodeHTML } from "entities";

const MAX_LEVELS = 32;

export function decodeEntities(text: string): string {
  let s = text;
  for (let level = 0; level < MAX_LEVELS && s.includes("&"); level++) {
    const decoded = decodeHTML(s);
    if (decoded === s) break;
    s = decoded;
  }
  return s;
}
