/**
 * One preset, end to end without the network: fixture products mapped with the
 * preset's own defaults (as a channel file naming it would get them), written by
 * the preset's own layout, and read back by the independent parsers of
 * test/writers/read-back.ts. What a marketplace would fetch, minus HTTP.
 */
import type { Product } from "../../src/catalogue/schemas/product.js";
import { buildContext, type CategoryNode } from "../../src/mapping/context.js";
import type { FeedItem } from "../../src/mapping/feed-item.js";
import { mapProduct } from "../../src/mapping/map-product.js";
import { parseOffers } from "../../src/mapping/offers-parse.js";
import type { Reason } from "../../src/mapping/reasons.js";
import { ChannelMapping, type ChannelMappingInput } from "../../src/mapping/settings.js";
import { PRESETS } from "../../src/presets/index.js";
import { BUILTIN_TEMPLATES, loadLayout } from "../../src/writers/load-layout.js";
import { createWriter } from "../../src/writers/registry.js";
import { CATEGORIES } from "../mapping/fixtures.js";
import { readCsv, readJson, readNdjson, readTsv, readXml, type Row } from "../writers/read-back.js";
import { ID_FIELD } from "../e2e/feeds.js";

/** 2026-11-21T00:00:00Z, inside the fixture sales below. */
export const NOW = Date.UTC(2026, 10, 21) / 1000;

export interface PresetRun {
  /** The feed as written. */
  text: string;
  /** Its items as the independent parser reads them, by item id. */
  rows: Map<string, Row>;
  /** The XML document root (XML layouts only). */
  root: Row | undefined;
  items: FeedItem[];
  /** Reasons of every product left out, by product id. */
  excluded: Map<string, Reason[]>;
}

export interface PresetOptions {
  /** Channel file keys merged over the preset's mapping (objects merge key by key). */
  channel?: ChannelMappingInput;
  /** An offers file, CSV. */
  offersCsv?: string;
  categories?: CategoryNode[];
}

function merge(base: unknown, over: unknown): unknown {
  const plain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!plain(base) || !plain(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

const GERMAN_READS_FRENCH: ChannelMappingInput = { fallbackLocales: ["fr", "en"], title: { fallback: true }, description: { fallback: true } };

export async function runPreset(presetName: string, products: Product[], options: PresetOptions = {}): Promise<PresetRun> {
  const preset = PRESETS[presetName];
  if (!preset) throw new Error(`no preset ${presetName}`);
  // The fixture products are French: a German preset's channel reads them through its fallbacks.
  const base = preset.mapping.locale === "de" ? merge(preset.mapping, GERMAN_READS_FRENCH) : preset.mapping;
  const input = merge(base, { link: { template: "https://shop.example/{{seoName}}-{{id}}.html?utm_source=feed&ref=7" }, ...options.channel });
  const mapping = ChannelMapping.parse(input);
  const offers = options.offersCsv === undefined ? undefined : parseOffers(options.offersCsv, "csv");
  if (offers && offers.errors.length > 0) throw new Error(`offers: ${JSON.stringify(offers.errors)}`);
  const context = buildContext({ categories: options.categories ?? CATEGORIES, brands: [{ id: 12, name: "Avène" }], now: NOW, offers: offers?.offers });
  const items: FeedItem[] = [];
  const excluded = new Map<string, Reason[]>();
  for (const product of products) {
    const r = mapProduct(product, mapping, context);
    if (r.ok) items.push(r.item);
    else excluded.set(product.id, r.reasons);
  }
  const layout = await loadLayout(`${BUILTIN_TEMPLATES}/${preset.layout}`);
  const meta = { channel: presetName, title: "Pharmacie", link: "https://shop.example/", description: "Feed", generatedAt: "2026-11-21T02:00:00.000Z", locale: mapping.locale, country: mapping.country };
  const writer = createWriter(layout, meta);
  const text = writer.header() + items.map((item) => writer.row(item)).join(writer.separator) + writer.footer(items.length);
  let parsed: Row[];
  let root: Row | undefined;
  switch (layout.spec.format) {
    case "xml":
      ({ root, items: parsed } = readXml(text));
      break;
    case "csv":
      parsed = readCsv(text, layout.spec.delimiter);
      break;
    case "tsv":
      parsed = readTsv(text);
      break;
    case "json":
      parsed = readJson(text);
      break;
    case "ndjson":
      parsed = readNdjson(text);
      break;
  }
  const idField = ID_FIELD[presetName] ?? "id";
  const rows = new Map(parsed.map((row) => [String(row[idField]), row]));
  return { text, rows, root, items, excluded };
}
