/**
 * Catalogue names to plain title text, a pure function of the name: HTML tags
 * pasted into a name go, entities are decoded (`Sérum 200 ml <b>&amp;</b>` ->
 * `Sérum 200 ml &`), control characters go, whitespace collapses. Only real HTML
 * elements count as tags: `Co <Bio>` or `Crème <3 ans>` only look like markup
 * and stay as written. htmlparser2 tokenises (and decodes entities, with the
 * `entities` package underneath); names without `<` or `&` skip it.
 */
import { Parser } from "htmlparser2";
import { dropControlChars } from "./controls.js";
import { decodeEntities } from "./entities.js";
import { collapseWhitespace } from "./truncate.js";

/** The HTML elements (WHATWG, plus the obsolete ones still pasted from old editors). */
const HTML_ELEMENTS = new Set(
  (
    "a abbr acronym address area article aside audio b base bdi bdo big blink blockquote body br button canvas caption " +
    "center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em embed fieldset figcaption " +
    "figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd " +
    "label legend li link main map mark marquee menu meta meter nav nobr noscript object ol optgroup option output p " +
    "param picture pre progress q rp rt ruby s samp script search section select slot small source span strike strong " +
    "style sub summary sup table tbody td template textarea tfoot th thead time title tr track tt u ul var video wbr"
  ).split(" "),
);
/** Elements whose content is code, not text. */
const DROP_CONTENT = new Set(["script", "style", "template", "noscript"]);
/** Elements that separate words when removed. */
const BREAKS = new Set(["br", "p", "div", "li", "td", "th", "tr", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "img"]);

function markupToText(raw: string): string {
  let out = "";
  let dropping = 0;
  const parser: Parser = new Parser(
    {
      ontext(text) {
        if (dropping === 0) out += text;
      },
      onopentag(name) {
        if (!HTML_ELEMENTS.has(name)) {
          // Not HTML: the text as it was written, attributes and case included.
          if (dropping === 0) out += raw.slice(parser.startIndex, parser.endIndex + 1);
          return;
        }
        if (DROP_CONTENT.has(name)) dropping++;
        else if (BREAKS.has(name)) out += " ";
      },
      onclosetag(name, isImplied) {
        if (!HTML_ELEMENTS.has(name)) {
          if (!isImplied && dropping === 0) out += raw.slice(parser.startIndex, parser.endIndex + 1);
          return;
        }
        if (DROP_CONTENT.has(name)) dropping = Math.max(0, dropping - 1);
        else if (BREAKS.has(name)) out += " ";
      },
    },
    { decodeEntities: true },
  );
  parser.end(raw);
  return out;
}

/** A catalogue name as one line of plain text. */
export function nameToText(raw: string): string {
  let text = raw.includes("<") || raw.includes("&") ? markupToText(raw) : raw;
  // A name escaped twice (`karit&amp;eacute;`) still holds an entity after one level: decoded until stable.
  if (text.includes("&")) text = decodeEntities(text);
  return collapseWhitespace(dropControlChars(text));
}

/*
 * Emoji and decorative symbols, for channels whose editorial rules refuse them in
 * titles: Google's "Editorial & professional requirements" (Merchant Center
 * answer 6150244) name emoji, emoticons and gimmicky symbols, and Microsoft
 * takes Google's rules with the format. Pictographs (emoji, with or without
 * their presentation selector), skin tones, flags, keycaps, joiners, and the
 * other "So" symbols and the arrows (stars, dingbats, geometric shapes); kept: the
 * legal marks © ® ™, the degree sign and the estimated sign ℮, which belong to
 * brand names and quantities ("Biafine®", "37 °C", "50 ml ℮").
 */
// Joiners, selectors and the keycap mark stand outside the class: inside one they read as a joined sequence.
const DECORATION = /[\p{Extended_Pictographic}\p{So}\p{Emoji_Modifier}\p{Regional_Indicator}\u2190-\u21FF\u{E0020}-\u{E007F}]|\u200D|\uFE0E|\uFE0F|\u20E3/u;
const DECORATIONS = new RegExp(DECORATION.source, "gu");
const KEPT = new Set(["©", "®", "™", "°", "℮"]);

/** `text` without emoji and decorative symbols, whitespace collapsed again. */
export function dropDecorations(text: string): string {
  if (!DECORATION.test(text)) return text;
  // A kept mark followed by the emoji selector (U+FE0F) was the emoji form: the selector goes, the mark stays.
  return collapseWhitespace(text.replace(DECORATIONS, (c) => (KEPT.has(c) ? c : " ")));
}
