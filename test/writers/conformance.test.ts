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

/** Where each layout puts the title and the link. */
const FIELDS: Record<string, { title: string; link: string }> = {
  google: { title: "title", link: "link" },
  "meta-xml": { title: "title", link: "link" },
  kelkoo: { title: "title", link: "product-url" },
  beslist: { title: "title", link: "productlink" },
  meta: { title: "title", link: "link" },
  idealo: { title: "title", link: "url" },
  "generic-csv": { title: "title", link: "link" },
  "google-tsv": { title: "title", link: "link" },
  "generic-json": { title: "title", link: "link" },
  "generic-ndjson": { title: "title", link: "link" },
};

const layouts = readdirSync(BUILTIN_TEMPLATES).sort();

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
        const expected = isTsv ? items[i]!.title.replace(/[\t\r\n]+/g, " ") : items[i]!.title;
        expect(row[fields.title]).toBe(expected);
        expect(row[fields.link]).toBe(items[i]!.link);
      });
      expect(text).not.toContain("&#x3D;");
      expect(text).not.toContain("&amp;amp;");
    });

    it("writes identical bytes for identical input", async () => {
      const items = [feedItem(), ...hostileItems()];
      expect((await render(name, items)).text).toBe((await render(name, items)).text);
    });
  });
});
