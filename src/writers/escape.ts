/**
 * Per-format escaping. Every value a writer emits goes through exactly one of
 * these, once: mapping hands over plain text, templates never escape.
 */

// Characters XML 1.0 forbids even when escaped: C0 controls but tab/LF/CR,
// lone surrogates, U+FFFE and U+FFFF. One stray control byte in a title makes a
// marketplace reject the whole file, so they are dropped rather than escaped.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVALID_XML_CHARS = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// A raw CR would be normalised away by every XML parser (XML 1.0 section 2.11).
const NEEDS_XML_ESCAPE = /[&<>"'\r]/;
const XML_SPECIALS = /[&<>"'\r]/g;
const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\r": "&#13;" };

/** Drops characters that cannot appear in an XML 1.0 document. */
export function stripInvalidXmlChars(value: string): string {
  INVALID_XML_CHARS.lastIndex = 0;
  return INVALID_XML_CHARS.test(value) ? value.replace(INVALID_XML_CHARS, "") : value;
}

/**
 * One test for the common case (nothing to escape, nothing to drop): a feed row has ~25 values.
 * A string it does not match is one escapeXml returns as it is (the template engine's `touches`).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
export const XML_TOUCHES = /[&<>"'\r\0-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Text content or attribute value. */
export function escapeXml(value: string): string {
  if (!XML_TOUCHES.test(value)) return value;
  const clean = stripInvalidXmlChars(value);
  return NEEDS_XML_ESCAPE.test(clean) ? clean.replace(XML_SPECIALS, (c) => XML_ENTITIES[c] ?? c) : clean;
}

/** A CDATA section; `]]>` inside the value is split across two sections. */
export function cdata(value: string): string {
  // A CR cannot live in CDATA (parsers normalise it away): it steps out as a character reference.
  const body = stripInvalidXmlChars(value).replaceAll("]]>", "]]]]><![CDATA[>").replaceAll("\r", "]]>&#13;<![CDATA[");
  return `<![CDATA[${body}]]>`;
}

/**
 * A TSV field reads the same whether the reader honours quotes or not. Google's
 * help for TSV data sources (answer 14998273) says new data sources read quoted
 * fields by default, older ones and Microsoft read none: a field starting with
 * `"` then breaks the row (`'\t' expected after '"'`) for one and keeps the
 * quote for the other. RFC 4180 quoting cannot satisfy both, so a value never
 * carries `"`: each becomes a typographic quote (`“` opening, `”` closing, by
 * position), which neither reader treats specially. Tabs and line breaks, which
 * no unquoted field can hold, become one space per run. URLs carry no `"`: it is
 * `%22` there (mapping/feed-url.ts).
 */
export function tsvValue(value: string): string {
  let out = /[\t\r\n]/.test(value) ? value.replace(/[\t\r\n]+/g, " ") : value;
  if (out.includes('"')) out = out.replace(/"/g, (_, at: number) => (at === 0 || /[\s([{\u2018\u201C-]/.test(out[at - 1]!) ? "\u201C" : "\u201D"));
  return out;
}
