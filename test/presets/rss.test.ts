/**
 * Valid RSS 2.0 (issue 13, item 7) for the Google, Microsoft and Meta XML
 * presets: each item carries RSS's own title, link and description (RSS 2.0:
 * "at least one of title or description must be present") and a guid that is
 * the id, not a permalink; the channel says its language. Read by two readers
 * that share no code with ours or each other: fast-xml-parser (read-back.ts)
 * for the RSS 2.0 rules, and rss-parser (xml2js underneath), the generic RSS
 * tooling a reviewer would point at the feed.
 */
import Parser from "rss-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { product } from "../mapping/fixtures.js";
import type { Row } from "../writers/read-back.js";
import { runPreset, type PresetRun } from "./harness.js";

const RSS_PRESETS = ["google", "microsoft", "meta-xml"];
const PRODUCTS = [
  product({ id: "RSS1" }),
  product({ id: "RSS2", name: { fr: `Crème "visage" & corps 50 ml`, nl: `Crème "gezicht" & lichaam 50 ml` }, seoName: { fr: "creme-visage" } }),
];

const runs = new Map<string, PresetRun>();
beforeAll(async () => {
  for (const name of RSS_PRESETS) runs.set(name, await runPreset(name, PRODUCTS));
  runs.set("meta-xml-nl", await runPreset("meta-xml", PRODUCTS, { channel: { locale: "nl", fallbackLocales: ["fr"], title: { fallback: true }, description: { fallback: true } } }));
});

describe.each([...RSS_PRESETS, "meta-xml-nl"])("%s is RSS 2.0", (name) => {
  it("has the channel elements RSS 2.0 requires, and the channel's language", () => {
    const rss = runs.get(name)!.root!["rss"] as Row;
    expect(rss["@_version"]).toBe("2.0");
    const channel = rss["channel"] as Row;
    for (const element of ["title", "link", "description"]) expect(String(channel[element]).trim(), element).not.toBe("");
    expect(channel["language"]).toBe(name === "meta-xml-nl" ? "nl" : "fr");
  });

  it("gives every item RSS's title, link and description, and a guid that is the id, not a permalink", () => {
    const run = runs.get(name)!;
    expect([...run.rows.keys()].sort()).toEqual(["RSS1", "RSS2"]);
    for (const item of run.items) {
      const row = run.rows.get(item.id)!;
      expect(row["title"], item.id).toBe(item.title);
      expect(row["link"], item.id).toBe(item.link);
      expect(row["description"], item.id).toBe(item.description);
      expect(String(row["description"]).trim()).not.toBe("");
      expect(row["guid"], item.id).toEqual({ "#text": item.id, "@_isPermaLink": "false" });
      expect(row["g:id"], item.id).toBe(item.id);
    }
    expect(run.rows.get("RSS2")!["title"]).toBe(name === "meta-xml-nl" ? `Avène Crème "gezicht" & lichaam 50 ml` : `Avène Crème "visage" & corps 50 ml`);
  });

  it("reads the same way with generic RSS tooling (rss-parser)", async () => {
    const run = runs.get(name)!;
    const feed = await new Parser().parseString(run.text);
    expect(feed.title).toBe("Pharmacie");
    expect(feed.items.map((i) => i.guid)).toEqual(run.items.map((i) => i.id));
    expect(feed.items.map((i) => i.title)).toEqual(run.items.map((i) => i.title));
    expect(feed.items.map((i) => i.link)).toEqual(run.items.map((i) => i.link));
    expect(feed.items.map((i) => i.content)).toEqual(run.items.map((i) => i.description));
  });
});
