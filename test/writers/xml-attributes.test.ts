/**
 * Tabs and line breaks in an XML attribute value are written as character references
 * (`&#9;`, `&#10;`, `&#13;`): raw, every XML parser would read them as spaces (XML 1.0
 * section 3.3.3). Text content keeps them raw. Read back with fast-xml-parser (read-back.ts).
 */
import { describe, expect, it } from "vitest";
import type { LoadedLayout } from "../../src/writers/layout.js";
import { createWriter } from "../../src/writers/registry.js";
import { createXmlWriter } from "../../src/writers/xml.js";
import type { FeedMeta } from "../../src/writers/types.js";
import { feedItem } from "../fixtures/feed-items.js";
import { readXml } from "./read-back.js";

const META: FeedMeta = { channel: "t", title: "T", link: "https://shop.example/", description: "D", generatedAt: "2026-01-15T02:00:00.000Z", locale: "fr", country: "FR" };

function layout(item: string): LoadedLayout {
  return {
    spec: { format: "xml", header: "h.hbs", item: "i.hbs", footer: "f.hbs" },
    templates: { header: "<products>\n", item, footer: "</products>\n" },
    source: "test-layout",
  };
}

const VALUE = "line1\nline2\r\nline3\tend\r & \"q\" 'a' <b>";

describe("XML attribute values", () => {
  const item = [
    `<product id="{{id}}" title="{{title}}" brand='{{brand}}'{{#if mpn}} mpn="{{mpn}}"{{/if}}>`,
    `<text>{{title}}</text>`,
    `{{#each additionalImageLinks}}<img src="{{this}}" n="{{@index}}"/>{{/each}}`,
    `</product>\n`,
  ].join("");

  it("keep tabs and line breaks, and text content keeps them raw", () => {
    const writer = createWriter(layout(item), META);
    const it = feedItem({ title: VALUE, brand: VALUE, mpn: VALUE, additionalImageLinks: ["https://x.example/a\tb.jpg"] });
    const xml = writer.header() + writer.row(it) + writer.footer(1);
    // No raw tab or line break inside a quoted attribute value.
    for (const m of xml.matchAll(/="([^"]*)"|='([^']*)'/g)) expect(m[1] ?? m[2]).not.toMatch(/[\t\n\r]/);
    expect(xml).toContain('title="line1&#10;line2&#13;&#10;line3&#9;end&#13; &amp; &quot;q&quot; &apos;a&apos; &lt;b&gt;"');
    expect(xml).toContain("<text>line1\nline2&#13;\nline3\tend&#13; &amp;");
    const [product] = readXml(xml).items;
    expect(product!["@_title"]).toBe(VALUE);
    expect(product!["@_brand"]).toBe(VALUE);
    expect(product!["@_mpn"]).toBe(VALUE);
    expect(product!["text"]).toBe(VALUE);
    expect((product!["img"] as Record<string, string>)["@_src"]).toBe("https://x.example/a\tb.jpg");
  });

  it("the same through the checked render of an item not yet cleaned (rowIfClean)", () => {
    const writer = createXmlWriter(layout(item), META);
    const it = feedItem({ title: VALUE, brand: "plain", mpn: "a\tb" });
    expect(writer.rowIfClean?.(it)).toBe(writer.row(it));
    expect(writer.row(it)).toContain('mpn="a&#9;b"');
  });

  it("a block that may end inside an attribute value escapes what follows as one", () => {
    const writer = createWriter(layout(`<product{{#if mpn}} a="{{else}} b="{{/if}}{{title}}">{{title}}</product>\n`), META);
    const xml = writer.header() + writer.row(feedItem({ title: "x\ny", mpn: "m" })) + writer.footer(1);
    expect(xml).toContain('a="x&#10;y">x\ny</product>');
    expect(readXml(xml).items[0]!["@_a"]).toBe("x\ny");
  });
});
