/**
 * HTML descriptions to plain text: tags removed, block elements become line
 * breaks, comments / CDATA / script / style / template content dropped,
 * entities decoded until none is left (entities.ts), whitespace collapsed. A small
 * hand-written scanner rather than a DOM: descriptions are mapped per product
 * per channel and this runs in the hot loop (results are memoised too).
 *
 * The text keeps `& < > " '` and emoji as characters: escaping is the writers'
 * job. One guarantee on top: the result never contains `<` directly followed by
 * a letter, `/`, `!` or `?`, so no tag can be read into it, whatever the input
 * (`<<b>b>` or `&lt;b&gt;`); such a `<` gets a space after it.
 */
import { decodeEntities } from "./entities.js";

const BLOCK = new Set([
  "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure", "footer",
  "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table",
  "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
]);
const DROP_CONTENT = new Set(["script", "style", "template", "noscript", "title"]);

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Index of the `>` closing a tag that starts before `from`, skipping quoted attribute values; -1 if none. */
function tagEnd(html: string, from: number): number {
  for (let j = from; j < html.length; j++) {
    const c = html.charCodeAt(j);
    if (c === 62) return j; // >
    if (c === 61) {
      // =: a quote right after it (spaces allowed) opens a value that may contain '>'
      let k = j + 1;
      while (k < html.length && (html.charCodeAt(k) === 32 || html.charCodeAt(k) === 9 || html.charCodeAt(k) === 10)) k++;
      const q = html[k];
      if (q === '"' || q === "'") {
        const close = html.indexOf(q, k + 1);
        if (close === -1) return -1;
        j = close;
      }
    }
  }
  return -1;
}

function tagName(html: string, from: number): string {
  let j = from;
  while (j < html.length) {
    const c = html.charCodeAt(j);
    if (isAsciiLetter(c) || (c >= 48 && c <= 57) || c === 45) j++;
    else break;
  }
  return html.slice(from, j).toLowerCase();
}

/**
 * Index of the next `</name` (any case) from `from`, -1 if none. Compares only the few characters
 * after each `</` instead of lower-casing the whole input per tag: lower-casing made a description
 * of many short <script>/<style> elements quadratic (1 MB took minutes).
 */
function closingTagAt(html: string, name: string, from: number): number {
  for (let p = html.indexOf("</", from); p !== -1; p = html.indexOf("</", p + 2)) {
    if (html.slice(p + 2, p + 2 + name.length).toLowerCase() === name) return p;
  }
  return -1;
}

/** Until stable: a description escaped twice (`&amp;amp;`) is text with no entity left (entities.ts). */
function decode(text: string): string {
  return text.includes("&") ? decodeEntities(text) : text;
}

function tidy(text: string): string {
  let s = text.replace(/\r\n?/g, "\n").replace(/[^\S\n]+/g, " ").replace(/ ?\n\s*/g, "\n").trim();
  if (/<[A-Za-z!/?]/.test(s)) s = s.replace(/<(?=[A-Za-z!/?])/g, "< ");
  return s;
}

export function htmlToText(html: string): string {
  if (!html.includes("<")) return tidy(decode(html));
  let out = "";
  let i = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf("<", i);
    if (lt === -1) {
      out += decode(html.slice(i));
      break;
    }
    if (lt > i) out += decode(html.slice(i, lt));
    const c = html.charCodeAt(lt + 1);
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      i = end === -1 ? n : end + 3;
      continue;
    }
    if (html.startsWith("<![CDATA[", lt)) {
      const end = html.indexOf("]]>", lt + 9);
      i = end === -1 ? n : end + 3;
      continue;
    }
    const closing = c === 47; // /
    if (!isAsciiLetter(c) && !closing && c !== 33 && c !== 63) {
      out += "<"; // a literal '<' ("a < b")
      i = lt + 1;
      continue;
    }
    const end = tagEnd(html, lt + 1);
    if (end === -1) {
      // An unterminated tag at the end is kept as text (the tidy step defuses it).
      out += decode(html.slice(lt));
      break;
    }
    i = end + 1;
    if (c === 33 || c === 63) continue; // <!doctype>, <?xml?>: dropped
    const name = tagName(html, closing ? lt + 2 : lt + 1);
    if (BLOCK.has(name)) out += name === "li" && !closing ? "\n- " : "\n";
    else if (!closing && DROP_CONTENT.has(name) && html.charCodeAt(end - 1) !== 47) {
      const close = closingTagAt(html, name, i);
      if (close === -1) break;
      const closeEnd = html.indexOf(">", close);
      i = closeEnd === -1 ? n : closeEnd + 1;
    } else if (!closing && out.length > 0) {
      // Inline tags can separate words ("a<span>b</span>" stays "ab", but "a<img>b" should not glue).
      if (name === "img") out += " ";
    }
  }
  return tidy(out);
}

/** htmlToText with a run-wide memo: the same description is mapped for several channels. */
export function htmlToTextMemo(html: string, memo: Map<string, string>, limit = 4096): string {
  const hit = memo.get(html);
  if (hit !== undefined) return hit;
  const text = htmlToText(html);
  if (memo.size >= limit) memo.clear();
  memo.set(html, text);
  return text;
}
