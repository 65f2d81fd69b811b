/**
 * The conformance suite every built-in layout passes: an empty catalogue, the
 * hostile texts, and identical output for identical input, all read back by
 * independent parsers.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FeedItem } from "../../src/mapping/feed-item.js";
import { BUILTIN_TEMPLATES, loadLayout } from "../../src/writers/load-layout.js";
import { createWriter } from "../../src/writers/registry.js";
import type { FeedMeta } from "../../src/writers/types.js";
import { feedItem, hostileItems } from "../fixtures/feed-items.js";
import { readCsv, readJson, readNdjson, readTsv, readXml, type Row } from "./read-back.js";

const META: FeedMeta = {
  channel: "test",
  title: `Pharmacie & Co "test" <feed>`,
  link: "https://shop.example/?a=1&b=2",
  description: "Feed",
  generatedAt: "2026-11-21T02:00:00.000Z",
  locale: "fr",
  country: "FR",
};

/** Where each layout puts the title and the link (medizinfuchs writes no title). */
const FIELDS: Record<string, { title?: string; link: string }> = {
  google: { title: "title", link: "link" },
  "meta-xml": { title: "title", link: "link" },
  kelkoo: { title: "title", link: "product-url" },
  beslist: { title: "title", link: "productlink" },
  meta: { title: "title", link: "link" },
  idealo: { title: "title", link: "url" },
  "idealo-de": { title: "title", link: "url" },
  billiger: { title: "name", link: "link" },
  medizinfuchs: { link: "produktlink" },
  "generic-csv": { title: "title", link: "link" },
  "google-tsv": { title: "title", link: "link" },
  "generic-json": { title: "title", link: "link" },
  "generic-ndjson": { title: "title", link: "link" },
};

const layouts = readdirSync(BUILTIN_TEMPLATES).sort();

/** Every character no feed may carry, in one string (the lone surrogates apart, so they stay lone). */
const EVERY_CONTROL = (() => {
  let s = "";
  for (let c = 0; c <= 0x9f; c++) if ((c < 0x20 && c !== 9 && c !== 10 && c !== 13) || c >= 0x7f) s += String.fromCharCode(c);
  return `${s}\uFFFE\uFFFF \uD800 x \uDC00 \uDBFF`;
})();
// eslint-disable-next-line no-control-regex -- the characters under test
const FORBIDDEN = /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function forbiddenIn(value: unknown, path = "$"): string[] {
  if (typeof value === "string") return FORBIDDEN.test(value) ? [path] : [];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => forbiddenIn(v, `${path}.${k}`));
}

async function render(name: string, items: FeedItem[]): Promise<{ text: string; rows: Row[] }> {
  const layout = await loadLayout(`${BUILTIN_TEMPLATES}/${name}`);
  const writer = createWriter(layout, META);
  const text = writer.header() + items.map((item) => writer.row(item)).join(writer.separator) + writer.footer(items.length);
  switch (layout.spec.format) {
    case "xml":
      return { text, rows: readXml(text).items };
    case "csv":
      return { text, rows: readCsv(text, layout.spec.delimiter) };
    case "tsv":
      return { text, rows: readTsv(text) };
    case "json":
      return { text, rows: readJson(text) };
    case "ndjson":
      return { text, rows: readNdjson(text) };
  }
}

describe("writer conformance", () => {
  it("covers every built-in layout", () => {
    expect(layouts).toEqual(Object.keys(FIELDS).sort());
  });

  describe.each(layouts)("%s", (name) => {
    const fields = FIELDS[name]!;
    const isTsv = name.endsWith("tsv");

    it("writes a valid feed with no items for an empty catalogue", async () => {
      const { rows } = await render(name, []);
      expect(rows).toEqual([]);
    });

    it("carries hostile text through exactly, escaped once", async () => {
      const items = hostileItems();
      const { text, rows } = await render(name, items);
      expect(rows).toHaveLength(items.length);
      rows.forEach((row, i) => {
        // TSV: tabs and line breaks become spaces, `"` a typographic quote (escape.ts, tsvValue).
        const expected = isTsv ? items[i]!.title.replace(/[\t\r\n]+/g, " ") : items[i]!.title;
        if (fields.title !== undefined) expect(isTsv ? String(row[fields.title]).replace(/[“”]/g, '"') : row[fields.title]).toBe(expected);
        expect(row[fields.link]).toBe(items[i]!.link);
      });
      // Google reads TSV with quoted fields on (new data sources) or off: both must give the same rows.
      if (isTsv) expect(readTsv(text, { quoted: true })).toEqual(rows);
      expect(text).not.toContain("&#x3D;");
      expect(text).not.toContain("&amp;amp;");
    });

    it("lets no control character through: every C0 but tab/LF/CR, DEL, C1, U+FFFE/U+FFFF, lone surrogates", async () => {
      const item = feedItem({ id: "CONTROLS", title: `Sérum${EVERY_CONTROL}doux`, description: `a${EVERY_CONTROL}b`, brand: `Av${EVERY_CONTROL}ène`, productType: `x${EVERY_CONTROL}y`, custom: { deliveryCosts: `4${EVERY_CONTROL}95` } });
      const { text, rows } = await render(name, [item]);
      expect(rows).toHaveLength(1);
      if (fields.title !== undefined) expect(rows[0]![fields.title]).toBe("Sérum  x  doux");
      expect(forbiddenIn(rows), "a parsed value").toEqual([]);
      expect(FORBIDDEN.exec(text)?.[0], "the raw feed").toBeUndefined();
      // JSON escapes them rather than writing them: `\u0000`, `\ud800` would decode to the same characters.
      expect(/\\u(?:00[01][0-9a-f]|007f|008[0-9a-f]|009[0-9a-f]|d[89a-f][0-9a-f]{2}|fffe|ffff)/i.exec(text)?.[0], "an escape").toBeUndefined();
    });

    it("writes identical bytes for identical input", async () => {
      const items = [feedItem(), ...hostileItems()];
      expect((await render(name, items)).text).toBe((await render(name, items)).text);
    });
  });
});
