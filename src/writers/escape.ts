/**
 * Per-format escaping. Every value a writer emits goes through exactly one of
 * these, once: mapping hands over plain text, templates never escape.
 */

/**
 * The contents of a plain character class (`/[...]/`, not negated, no flags), or undefined:
 * two such classes join into one (`[${a}${b}]`), one scan where an alternation tries each
 * branch at every position.
 */
export function classBody(pattern: RegExp): string | undefined {
  return pattern.flags === "" && PLAIN_CLASS.test(pattern.source) ? pattern.source.slice(1, -1) : undefined;
}
const PLAIN_CLASS = /^\[(?!\^)(?:\\.|[^\\\]])*\]$/;

// Characters XML 1.0 forbids even when escaped: C0 controls but tab/LF/CR,
// lone surrogates, U+FFFE and U+FFFF. One stray control byte in a title makes a
// marketplace reject the whole file, so they are dropped rather than escaped.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVALID_XML_CHARS = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// The same characters and any surrogate, paired or not: one plain class, a fast first test.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const MAY_BE_INVALID = /[\0-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
// A raw CR would be normalised away by every XML parser (XML 1.0 section 2.11).
const XML_SPECIALS = /[&<>"'\r]/g;
const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\r": "&#13;", "\n": "&#10;", "\t": "&#9;" };
// In an attribute value a raw tab or line break is normalised to a space (XML 1.0 section 3.3.3): references keep them.
const XML_ATTRIBUTE_SPECIALS = /[&<>"'\r\n\t]/g;

/** Drops characters that cannot appear in an XML 1.0 document. */
export function stripInvalidXmlChars(value: string): string {
  if (!MAY_BE_INVALID.test(value)) return value;
  INVALID_XML_CHARS.lastIndex = 0;
  return INVALID_XML_CHARS.test(value) ? value.replace(INVALID_XML_CHARS, "") : value;
}

/** `value` with each XML special character as its entity: the text between matches copied in slices. */
function replaceXmlSpecials(value: string, specials = XML_SPECIALS): string {
  specials.lastIndex = 0;
  let out = "";
  let from = 0;
  for (let m = specials.exec(value); m !== null; m = specials.exec(value)) {
    out += value.slice(from, m.index) + XML_ENTITIES[m[0]]!;
    from = m.index + 1;
  }
  return from === 0 ? value : out + value.slice(from);
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
  return replaceXmlSpecials(stripInvalidXmlChars(value));
}

// eslint-disable-next-line no-control-regex -- control characters are what it looks for
export const XML_ATTRIBUTE_TOUCHES = /[&<>"'\r\n\t\0-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** An attribute value: as escapeXml, and tab, LF and CR as `&#9;`, `&#10;`, `&#13;`. */
export function escapeXmlAttribute(value: string): string {
  if (!XML_ATTRIBUTE_TOUCHES.test(value)) return value;
  return replaceXmlSpecials(stripInvalidXmlChars(value), XML_ATTRIBUTE_SPECIALS);
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
  if (!TSV_TOUCHES.test(value)) return value;
  let out = value.replace(TSV_BREAKS, " ");
  if (out.includes('"')) out = out.replace(TSV_QUOTE, (_, at: number) => (at === 0 || OPENS_QUOTE.test(out[at - 1]!) ? "\u201C" : "\u201D"));
  return out;
}

// Module constants: a regular expression literal in a function is a new object on every call.
const TSV_TOUCHES = /[\t\r\n"]/;
const TSV_BREAKS = /[\t\r\n]+/g;
const TSV_QUOTE = /"/g;
/** After these, a `"` opens a quotation. */
const OPENS_QUOTE = /[\s([{\u2018\u201C-]/;
