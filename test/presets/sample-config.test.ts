/**
 * The sample config (config/) as a shop would start from it (issue 13, item 8):
 * every channel has a category map, so Meta's google_product_category, which
 * Meta uses for tax and Purchase Protection, is never empty. Loaded with the
 * real config loader, written with each channel's real layout, read back.
 */
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import type { LoadedConfig } from "../../src/config/types.js";
import { buildContext } from "../../src/mapping/context.js";
import { mapProduct } from "../../src/mapping/map-product.js";
import { createWriter } from "../../src/writers/registry.js";
import { product } from "../mapping/fixtures.js";
import { readCsv, readXml } from "../writers/read-back.js";

const SAMPLE = fileURLToPath(new URL("../../config/pharmafeed.json", import.meta.url));
const ENV = { CATALOGUE_API_KEY_ID: "demo", CATALOGUE_API_KEY_SECRET: "s3cr3t-value-never-printed" };

/** The sandbox's category tree, in part: 517 is mapped in the sample (567), 900 is not (default 491). */
const CATEGORIES = [
  { id: 500, name: { fr: "Santé", nl: "Gezondheid", en: "Health" }, parent: null },
  { id: 517, name: { fr: "Solaires", nl: "Zonnebrand", en: "Sun care" }, parent: 500 },
  { id: 900, name: { fr: "Divers", nl: "Diversen", en: "Other" }, parent: null },
];

let config: LoadedConfig;
beforeAll(async () => {
  config = await loadConfig(SAMPLE, { env: ENV });
});

describe("sample config", () => {
  it("gives every channel a Google category map and a default category", () => {
    expect(config.channels.length).toBeGreaterThan(0);
    for (const channel of config.channels) {
      expect(Object.keys(channel.mapping.categories.googleCategoryMap).length, channel.name).toBeGreaterThan(0);
      expect(channel.mapping.categories.defaultGoogleCategory, channel.name).toBeDefined();
    }
  });

  it.each(["meta-fr", "meta-xml-nl"])("%s fills google_product_category from the channel's map, else its default", async (name) => {
    const channel = config.channels.find((c) => c.name === name)!;
    const context = buildContext({ categories: CATEGORIES, now: Date.UTC(2026, 10, 21) / 1000 });
    // Name and description in both languages: the channels publish their own language only.
    const descriptions = [{ id: 1, type: "full_description", locales: ["fr", "nl"], targetGroups: ["public"], content: { fr: "Un spray.", nl: "Een spray." } }];
    const products = [
      product({ id: "MAPPED1", publicCategories: [{ id: 517 }], name: { fr: "Spray", nl: "Spray" }, descriptions }),
      product({ id: "UNMAPPED1", publicCategories: [{ id: 900 }], name: { fr: "Spray", nl: "Spray" }, descriptions }),
    ];
    const writer = createWriter(channel.layout, { channel: name, title: "t", link: "https://shop.example/", description: "d", generatedAt: "", locale: channel.mapping.locale, country: channel.mapping.country });
    const items = products.map((p) => {
      const r = mapProduct(p, channel.mapping, context);
      if (!r.ok) throw new Error(`${p.id}: ${JSON.stringify(r.reasons)}`);
      return r.item;
    });
    const text = writer.header() + items.map((i) => writer.row(i)).join(writer.separator) + writer.footer(items.length);
    const rows = channel.format === "csv" ? readCsv(text) : readXml(text).items;
    const category = (row: Record<string, unknown>) => row["google_product_category"] ?? row["g:google_product_category"];
    expect(rows.map(category)).toEqual(["567", "491"]);
  });
});
