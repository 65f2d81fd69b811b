/**
 * Cutting text to a channel's limit. Lengths are UTF-16 units, which are never
 * fewer than the characters channels count, so a cut text always fits; a cut
 * never splits a surrogate pair (an emoji stays whole or goes).
 */

/** Whether `text` has whitespace other than single inner spaces (a scan: most titles need nothing). */
function needsCollapse(text: string): boolean {
  const n = text.length;
  if (n === 0) return false;
  if (text.charCodeAt(0) === 32 || text.charCodeAt(n - 1) === 32) return true;
  let space = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      if (space) return true;
      space = true;
      continue;
    }
    space = false;
    // Other ASCII whitespace and controls, NBSP, and the Unicode spaces \s knows (all >= U+1680).
    if (c < 32 || c === 160 || (c >= 0x1680 && /\s/.test(text[i] as string))) return true;
  }
  return false;
}

/** Collapse all whitespace (titles are one line). */
export function collapseWhitespace(text: string): string {
  return needsCollapse(text) ? text.replace(/\s+/g, " ").trim() : text;
}

const TRAILING = /[\s,;:\-–—(/]+$/;

/**
 * Cut at the last whitespace within the limit when that keeps at least half the
 * limit; else hard cut (single long word) without splitting a surrogate pair.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = -1;
  for (let j = max; j > max / 2; j--) {
    const c = text.charCodeAt(j);
    if (c === 32 || c === 10 || c === 9 || c === 160) {
      cut = j;
      break;
    }
  }
  if (cut === -1) {
    cut = max;
    const before = text.charCodeAt(cut - 1);
    if (before >= 0xd800 && before <= 0xdbff) cut -= 1;
  }
  const head = text.slice(0, cut).replace(TRAILING, "");
  return head.length > 0 ? head : text.slice(0, cut);
}
