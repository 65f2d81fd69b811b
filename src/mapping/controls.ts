/**
 * Characters no feed should carry: C0 controls other than tab, LF and CR, DEL,
 * the C1 controls, the noncharacters U+FFFE / U+FFFF and lone surrogates. XML
 * 1.0 forbids most of them outright; CSV and TSV readers choke on NUL or show
 * garbage; JSON would write them as `\u0000` or `\ud800` escapes that decode to
 * the same broken text. Tab, LF and CR stay: every format has its own rule for
 * them (CSV quotes them, TSV turns them into spaces, XML escapes CR).
 *
 * Pure functions of a string: mapping uses them on titles, and the writer
 * registry runs every item through sanitizeItem (src/writers/sanitize.ts).
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// A cheap first test: a surrogate is only suspicious, the precise pattern above decides.
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const SUSPECT = /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** `text` without the characters above; the same string when it has none. */
export function dropControlChars(text: string): string {
  if (!SUSPECT.test(text)) return text;
  return text.replace(CONTROL, "");
}
