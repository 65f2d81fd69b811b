/**
 * Kelkoo (issue 13, item 2), read back from the written feed: availability
 * codes 1-6, merchant-category never empty, description <= 300 characters of
 * plain text, landing-page-url without tracking. Sources: the Kelkoo field
 * guides of exportfeed.com and feed-donkey.io (see README, Preset fields).
 */
import { describe, expect, it } from "vitest";
import { product } from "../mapping/fixtures.js";
import { runPreset } from "./harness.js";

const OFFERS = [
  "id,price,quantity,availability",
  "IN1,10.00,5,in_stock",
  "BACK1,10.00,0,backorder",
  "PRE1,10.00,0,preorder",
  "OUT1,10.00,0,out_of_stock",
].join("\n");

describe("kelkoo preset", () => {
  it("writes Kelkoo's availability codes: 1 in stock, 2 stock on order, 4 preorder, 6 out of stock", async () => {
    const ids = ["IN1", "BACK1", "PRE1", "OUT1"];
    const run = await runPreset("kelkoo", ids.map((id) => product({ id })), { offersCsv: OFFERS });
    expect(Object.fromEntries(ids.map((id) => [id, run.rows.get(id)?.["availability"]]))).toEqual({ IN1: "1", BACK1: "2", PRE1: "4", OUT1: "6" });
  });

  it("fills merchant-category with the path in the channel's language, else the configured default, else leaves the product out", async () => {
    const products = [product({ id: "CAT1" }), product({ id: "NOCAT1", publicCategories: [] })];
    const bare = await runPreset("kelkoo", products);
    expect(bare.rows.get("CAT1")?.["merchant-category"]).toBe("Soin > Solaires");
    expect(bare.rows.has("NOCAT1")).toBe(false);
    expect(bare.excluded.get("NOCAT1")).toEqual([{ code: "MISSING_CATEGORY" }]);

    const withDefault = await runPreset("kelkoo", products, { channel: { categories: { defaultPath: "Parapharmacie > Hygiène" } } });
    expect(withDefault.rows.get("NOCAT1")?.["merchant-category"]).toBe("Parapharmacie > Hygiène");
    expect(withDefault.rows.get("CAT1")?.["merchant-category"]).toBe("Soin > Solaires");

    const dutch = await runPreset("kelkoo", [product({ id: "CAT1" })], { channel: { locale: "nl", fallbackLocales: ["fr"], title: { fallback: true }, description: { fallback: true } } });
    expect(dutch.rows.get("CAT1")?.["merchant-category"]).toBe("Verzorging > Solaires");
    for (const run of [bare, withDefault, dutch]) {
      for (const row of run.rows.values()) expect(String(row["merchant-category"]).trim()).not.toBe("");
    }
  });

  it("cuts the description at 300 characters of plain text", async () => {
    const long = `<p>${"Apaise &amp; <b>adoucit</b> la peau sensible. ".repeat(40)}</p>`;
    const run = await runPreset("kelkoo", [
      product({ id: "LONG1", descriptions: [{ id: 1, type: "full_description", locales: ["fr"], targetGroups: ["public"], content: { fr: long } }] }),
    ]);
    const description = String(run.rows.get("LONG1")?.["description"]);
    expect(description.length).toBeLessThanOrEqual(300);
    expect(description.length).toBeGreaterThan(250);
    expect(description).not.toMatch(/<[a-z/]|&amp;/i);
    expect(description.startsWith("Apaise & adoucit la peau sensible.")).toBe(true);
  });

  it("adds landing-page-url: the product link without tracking parameters", async () => {
    const run = await runPreset("kelkoo", [product({ id: "URL1" })]);
    const row = run.rows.get("URL1")!;
    expect(row["product-url"]).toBe("https://shop.example/eau-thermale-spray-URL1.html?utm_source=feed&ref=7");
    expect(row["landing-page-url"]).toBe("https://shop.example/eau-thermale-spray-URL1.html?ref=7");
  });
});
