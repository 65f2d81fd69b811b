/**
 * JSON text as the service's PHP stack writes it: Symfony's JsonResponse
 * defaults (json_encode with HEX_TAG | HEX_APOS | HEX_AMP | HEX_QUOT, unicode
 * and slashes escaped), so `é` is `\u00e9`, `<` is `\u003C`, `/` is `\/`.
 * Clients meet escapes everywhere, and the bytes are pure ASCII, which node
 * writes to a socket far faster than mixed text.
 */

function unicodeEscape(ch: string): string {
  return "\\u" + ch.charCodeAt(0).toString(16).padStart(4, "0");
}

const HEX_UPPER: Record<string, string> = { "<": "\\u003C", ">": "\\u003E", "&": "\\u0026", "'": "\\u0027" };

// eslint-disable-next-line no-control-regex
const BEYOND_LATIN1 = /[^\x00-\xff]/;

/**
 * Re-escapes the output of JSON.stringify the PHP way (string contents only are
 * touched). The result is ASCII, and is made a one-byte string: replace() on a
 * text holding "›" or an emoji returns a two-byte string even when every such
 * character is gone, and one two-byte piece makes a whole 64 KB batch two-byte,
 * which halves the stream's speed.
 */
export function phpEscape(json: string): string {
  const out = json.replace(/\\.|[<>&'/\u007f-\uffff]/g, (m) => {
    if (m.length === 2) return m === '\\"' ? "\\u0022" : m;
    if (m === "/") return "\\/";
    return HEX_UPPER[m] ?? unicodeEscape(m);
  });
  return BEYOND_LATIN1.test(json) ? Buffer.from(out, "latin1").toString("latin1") : out;
}

/** Any value as PHP-style JSON text. */
export function phpJson(value: unknown): string {
  return phpEscape(JSON.stringify(value));
}

/** A string as a PHP-style JSON string literal, quotes included. */
export function q(text: string): string {
  return phpEscape(JSON.stringify(text));
}

/** A string's escaped contents, without the quotes (for building literals from parts). */
export function qInner(text: string): string {
  const quoted = q(text);
  return quoted.slice(1, -1);
}

/** A localized map {locale: text} as JSON, in the map's key order. */
export function localizedJson(map: Record<string, string>): string {
  let out = "{";
  let first = true;
  for (const key in map) {
    out += (first ? '"' : ',"') + key + '":' + q(map[key] as string);
    first = false;
  }
  return out + "}";
}
