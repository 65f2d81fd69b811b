/**
 * URLs as marketplaces read them: ASCII only, RFC 3986. Google's link and
 * image_link (answers 6324416, 6324350) want "ASCII characters only, RFC 3986
 * compliant", symbols and spaces URL-encoded, "a comma as %2C"; the W3C feed
 * validator reports an IRI (`UriNotIri`) in Google, Microsoft and Meta XML.
 *
 * A shop's spreadsheet link (`/p/crème-été?ref=ü`) or a catalogue photo URL
 * (`lait corps,100ml.jpeg`) is encoded here: non-ASCII characters as their UTF-8
 * bytes, every character RFC 3986 does not allow where it stands (space, `"`,
 * `<`, `|`, a second `#`, brackets outside the host) and the comma as
 * `%XX`; an international host becomes its punycode form. What is already
 * percent-encoded stays as it is (`%C3%A9` is never `%25C3%25A9`): encoding is
 * idempotent. Nothing else changes (no normalisation of case, port, path or
 * query order), so an ASCII URL without a comma comes out byte for byte.
 */
import { domainToASCII } from "node:url";

/** Characters RFC 3986 allows anywhere after the authority (unreserved, reserved, `%`), but the comma. */
const PLAIN = /^[A-Za-z0-9\-._~:/?#@!$&'()*+;=%]*$/;
const HEX = /^[0-9A-Fa-f]{2}$/;

function percent(char: string): string {
  let out = "";
  for (const byte of Buffer.from(char, "utf8")) out += "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  return out;
}

/** Path, query and fragment: allowed characters kept, valid `%XX` kept, everything else encoded. */
function encodeRest(rest: string): string {
  let out = "";
  let inFragment = false;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    const code = c.charCodeAt(0);
    if (c === "%") {
      const hex = rest.slice(i + 1, i + 3);
      if (!HEX.test(hex)) {
        out += "%25";
        continue;
      }
      // Kept, in RFC 3986's normal form (section 6.2.2.1: uppercase hex digits), so that one URL has one spelling.
      out += "%" + hex.toUpperCase();
      i += 2;
      continue;
    }
    if (c === "#") {
      out += inFragment ? "%23" : "#";
      inFragment = true;
      continue;
    }
    if (c === "," || c === "[" || c === "]") {
      out += percent(c);
      continue;
    }
    if (code < 0x80 && /[A-Za-z0-9\-._~:/?@!$&'()*+;=]/.test(c)) {
      out += c;
      continue;
    }
    // A surrogate pair is one character; a lone surrogate has no UTF-8 form: it is dropped.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < rest.length) {
      const next = rest.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += percent(rest.slice(i, i + 2));
        i++;
        continue;
      }
    }
    if (code >= 0xd800 && code <= 0xdfff) continue;
    out += percent(c);
  }
  return out;
}

/** `scheme://authority` with a non-ASCII host in punycode; undefined when the host is not a valid name. */
function encodeAuthority(authority: string): string | undefined {
  const at = authority.lastIndexOf("@");
  const userinfo = at === -1 ? "" : authority.slice(0, at + 1);
  const hostPort = authority.slice(at + 1);
  const colon = hostPort.startsWith("[") ? hostPort.indexOf(":", hostPort.indexOf("]")) : hostPort.lastIndexOf(":");
  const host = colon === -1 ? hostPort : hostPort.slice(0, colon);
  const port = colon === -1 ? "" : hostPort.slice(colon);
  // eslint-disable-next-line no-control-regex -- ASCII is the question
  const asciiHost = /^[\x00-\x7F]*$/.test(host) ? host : domainToASCII(host);
  if (asciiHost === "") return undefined;
  return encodeRest(userinfo) + asciiHost + port;
}

/**
 * `url` as an ASCII, RFC 3986 URL (see above). The same string when nothing had
 * to change: the common case costs one regular-expression test.
 */
export function feedUrl(url: string): string {
  const start = url.indexOf("://");
  if (start === -1) return url;
  const authorityStart = start + 3;
  let end = url.length;
  for (const c of ["/", "?", "#"]) {
    const i = url.indexOf(c, authorityStart);
    if (i !== -1 && i < end) end = i;
  }
  const authority = url.slice(authorityStart, end);
  const rest = url.slice(end);
  if (PLAIN.test(rest) && !rest.includes("%") && /^[\x21-\x7E]*$/.test(authority) && !authority.includes(",")) return url;
  const encodedAuthority = encodeAuthority(authority) ?? authority;
  return url.slice(0, authorityStart) + encodedAuthority + encodeRest(rest);
}

/**
 * The separator of a list field percent-encoded inside one URL, so that joining
 * never splits it (idealo's `;`-separated imageUrl; a comma is already `%2C`).
 */
export function urlInList(url: string, separator: string): string {
  if (separator === "" || !url.includes(separator)) return url;
  return url.split(separator).join(percent(separator));
}
