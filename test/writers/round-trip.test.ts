/**
 * Round trip through every built-in layout, as properties (fast-check): what
 * mapping hands over is what an independent reader gets back. Extended by issue
 * 24 to URLs (any path and query a catalogue or a spreadsheet holds: accents,
 * spaces, commas, `;`, quotes, `%`, `#`) and to text escaped any number of times.
 */
import { escapeUTF8 } from "entities";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { feedUrl } from "../../src/mapping/feed-url.js";
import { htmlToText } from "../../src/mapping/html-text.js";
import { nameToText } from "../../src/mapping/title-text.js";
import type { FeedItem } from "../../src/mapping/feed-item.js";
import type { LoadedLayout } from "../../src/writers/layout.js";
import { BUILTIN_TEMPLATES, loadLayout } from "../../src/writers/load-layout.js";
import { createWriter } from "../../src/writers/registry.js";
import { feedItem } from "../fixtures/feed-items.js";
import { imageUrls, readCsv, readJson, readNdjson, readTsv, readXml, type Row } from "./read-back.js";

const LAYOUTS = ["google", "google-tsv", "meta", "meta-xml", "idealo", "kelkoo", "beslist", "generic-csv", "generic-json", "generic-ndjson"];
const LINK: Record<string, string> = { kelkoo: "product-url", beslist: "productlink", idealo: "url" };
const META = { channel: "t", title: "T", link: "https://shop.example/", description: "D", generatedAt: "2026-11-21T02:00:00.000Z", locale: "fr", country: "FR" };

const layouts = new Map<string, LoadedLayout>();
async function layout(name: string): Promise<LoadedLayout> {
  if (!layouts.has(name)) layouts.set(name, await loadLayout(`${BUILTIN_TEMPLATES}/${name}`));
  return layouts.get(name)!;
}

async function roundTrip(name: string, item: FeedItem): Promise<Row> {
  const l = await layout(name);
  const w = createWriter(l, META);
  const text = w.header() + w.row(item) + w.footer(1);
  const rows = l.spec.format === "xml" ? readXml(text).items : l.spec.format === "csv" ? readCsv(text, l.spec.delimiter) : l.spec.format === "tsv" ? readTsv(text) : l.spec.format === "json" ? readJson(text) : readNdjson(text);
  if (l.spec.format === "tsv") expect(readTsv(text, { quoted: true })).toEqual(rows);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** The bytes a URL stands for: `%XX` as that byte, anything else as its UTF-8. */
function bytesOf(url: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < url.length; i++) {
    if (url[i] === "%" && /^[0-9A-Fa-f]{2}$/.test(url.slice(i + 1, i + 3))) {
      out.push(parseInt(url.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const cp = url.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      out.push(...Buffer.from(ch, "utf8"));
      i += ch.length - 1;
    }
  }
  return out;
}

const URL_PART = fc.array(fc.constantFrom("a", "Z", "0", "-", "é", "ü", "è", "日", "😀", " ", ",", ";", '"', "'", "<", "|", "%", "%C3%A9", "%2C", "#", "[", "]", "=", "&", "/", "?", "+", "~"), { maxLength: 12 }).map((xs) => xs.join(""));
const URL = fc.tuple(URL_PART, URL_PART).map(([path, query]) => `https://assets.example/p/${path}.jpeg?q=${query}`);
const RFC3986 = /^https:\/\/(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+;=]|%[0-9A-F]{2})+$/;

describe("URLs round-trip through every layout, ASCII and RFC 3986", () => {
  it("feedUrl: ASCII, RFC 3986, no comma, idempotent, and the same bytes as the original", () => {
    fc.assert(
      fc.property(URL, (url) => {
        const encoded = feedUrl(url);
        expect(encoded).toMatch(RFC3986);
        expect(encoded).not.toContain(",");
        expect(feedUrl(encoded)).toBe(encoded);
        expect(bytesOf(encoded)).toEqual(bytesOf(url));
      }),
      { numRuns: 500 },
    );
  });

  it.each(LAYOUTS)("%s reads back the link and every image URL as mapping gave them, none split", async (name) => {
    await fc.assert(
      fc.asyncProperty(URL, URL, URL, async (a, b, c) => {
        const [link, main, extra] = [feedUrl(a), feedUrl(b), feedUrl(c)];
        const row = await roundTrip(name, feedItem({ link, landingPageUrl: link, imageLink: main, additionalImageLinks: [extra] }));
        expect(row[LINK[name] ?? "link"]).toBe(link);
        const images = imageUrls(name, row).map((u) => (name === "idealo" ? u.replaceAll("%3B", ";") : u));
        expect(images).toEqual(name === "kelkoo" ? [main] : [main, extra]);
      }),
      { numRuns: 60 },
    );
  });
});

const TEXT = fc.array(fc.constantFrom("a", "B", " ", "é", "&", ";", ">", '"', "'", "<3", "a < b", "karité", "12 %"), { minLength: 1, maxLength: 12 }).map((xs) => xs.join(""));
const ENTITY = /&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#x[0-9A-Fa-f]+);/;

function escaped(text: string, times: number): string {
  let s = text;
  for (let i = 0; i < times; i++) s = escapeUTF8(s);
  return s;
}

describe("text escaped any number of times round-trips as plain text", () => {
  it("names and descriptions decode until stable: the text as written, no entity left", () => {
    fc.assert(
      fc.property(TEXT, fc.integer({ min: 0, max: 5 }), (text, times) => {
        const plain = text.replace(/\s+/g, " ").trim();
        expect(nameToText(escaped(text, times))).toBe(plain);
        expect(htmlToText(escaped(text, times))).toBe(plain);
      }),
      { numRuns: 500 },
    );
  });

  it.each(LAYOUTS)("%s reads back a title decoded from any escaping, with no entity in it", async (name) => {
    await fc.assert(
      fc.asyncProperty(TEXT, fc.integer({ min: 1, max: 4 }), async (text, times) => {
        const title = nameToText(escaped(text, times));
        const row = await roundTrip(name, feedItem({ title, description: htmlToText(escaped(text, times)) }));
        const got = String(row["title"]);
        expect(name === "google-tsv" ? got.replace(/[“”]/g, '"') : got).toBe(title);
        // Only the text's own `&` may stand before letters and a `;` here: the alphabet makes no entity.
        expect(ENTITY.test(got) && !ENTITY.test(title)).toBe(false);
      }),
      { numRuns: 40 },
    );
  });
});
