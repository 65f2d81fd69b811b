/**
 * sanitize.ts: every writer reads an item as cleaned (no string holding a character of
 * mapping/controls.ts), whichever road a row takes: rowIfClean over the item as it is,
 * checked where a value is read, or the writer's row over the cleaned copy. Both must
 * give the same bytes and the same fill marks, for every built-in layout.
 */
import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dropControlChars } from "../../src/mapping/controls.js";
import type { FeedItem } from "../../src/mapping/feed-item.js";
import { createCsvWriter } from "../../src/writers/csv.js";
import { createJsonWriter, createNdjsonWriter } from "../../src/writers/json.js";
import type { LoadedLayout, OutputFormat } from "../../src/writers/layout.js";
import { BUILTIN_TEMPLATES, loadLayout } from "../../src/writers/load-layout.js";
import { createWriter } from "../../src/writers/registry.js";
import { isClean, MAY_NEED_CLEANING, sanitizeValue } from "../../src/writers/sanitize.js";
import { createTsvWriter } from "../../src/writers/tsv.js";
import type { FeedMeta, FeedWriter } from "../../src/writers/types.js";
import { createXmlWriter } from "../../src/writers/xml.js";
import { feedItem } from "../fixtures/feed-items.js";

const META: FeedMeta = { channel: "t", title: "T", link: "https://shop.example/", description: "D", generatedAt: "2026-11-21T02:00:00.000Z", locale: "fr", country: "FR" };
/** The writers as registry.ts finds them, before sanitizingWriter wraps them. */
const UNWRAPPED: Record<OutputFormat, (layout: LoadedLayout, meta: FeedMeta) => FeedWriter> = {
  xml: createXmlWriter,
  csv: createCsvWriter,
  tsv: createTsvWriter,
  json: createJsonWriter,
  ndjson: createNdjsonWriter,
};

/** Characters cleaning drops, and characters it keeps that escapers and quoting care about. */
const DROPPED = ["\u0000", "\u0001", "\u0008", "\u000b", "\u000c", "\u001f", "\u007f", "\u0085", "\u009f", "\ufffe", "\uffff", "\ud800", "\udc00", "\ud83d"];
const KEPT = ["\t", "\n", "\r", "&", "<", ">", '"', "'", "]]>", ",", ";", "|", "\\", "😀", "\u2028", " ", "\ude00"];

/** An item with every field a built-in layout reads filled. */
const FULL = feedItem({
  salePrice: { cents: 999, currency: "EUR", text: "9.99 EUR", amount: "9.99" },
  salePriceFrom: "2026-11-01",
  salePriceUntil: "2026-12-31",
  salePriceEffectiveDate: "2026-11-01/2026-12-31",
  availabilityDate: "2026-12-01",
  weight: { value: 0.37, unit: "kg", text: "0.37 kg" },
  unitPricingMeasure: { value: 40, unit: "ml", text: "40 ml" },
  unitPricingBaseMeasure: { value: 100, unit: "ml", text: "100 ml" },
  unitPrice: { cents: 2498, currency: "EUR", text: "24.98 EUR", amount: "24.98" },
  stockQuantity: 3,
  packageContent: "40 ml",
  leafletUrl: "https://shop.example/leaflet.pdf",
  cip13: "3400930000000",
  fallbacks: { title: "en" },
  custom: { deliveryCosts: "4.95", deliveryTime: "1-2 days", deliveryTimeBe: "2-3 days", deliveryCostsBe: "5.95", paymentCosts: "0.00" },
});

/** Where the strings of a value are: key paths. */
function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === "string") return [path];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, Array.isArray(value) ? Number(k) : k]));
}

function withString(item: FeedItem, path: (string | number)[], change: (s: string) => string): FeedItem {
  const copy = structuredClone(item) as unknown as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  parent[last] = change(parent[last] as string);
  return copy as unknown as FeedItem;
}

const PATHS = stringPaths(FULL);
/** Strings changed: a character put in somewhere, or the whole value one cleaning empties (`{{#if brand}}` then flips). */
const CHANGE = fc.tuple(fc.constantFrom(...PATHS), fc.constantFrom(...DROPPED, ...KEPT), fc.nat(), fc.boolean()).map(
  ([path, char, at, whole]) =>
    (item: FeedItem) =>
      withString(item, path, (s) => (whole ? char + char : s.slice(0, at % (s.length + 1)) + char + s.slice(at % (s.length + 1)))),
);
const ITEM = fc.array(CHANGE, { minLength: 1, maxLength: 3 }).map((changes) => changes.reduce((item, change) => change(item), FULL));

describe("MAY_NEED_CLEANING and isClean", () => {
  it("MAY_NEED_CLEANING matches every UTF-16 code unit dropControlChars removes", () => {
    const missed: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const s = String.fromCharCode(c);
      if (dropControlChars(s) !== s && !MAY_NEED_CLEANING.test(s)) missed.push(c.toString(16));
    }
    expect(missed).toEqual([]);
  });

  it("isClean is sanitizeValue leaving the value as it is", () => {
    expect(isClean("plain\ttab\nline 😀")).toBe(true);
    expect(isClean("x\u0001")).toBe(false);
    expect(isClean(["a", { b: ["c"] }])).toBe(true);
    expect(isClean(["a", { b: ["c\ud800"] }])).toBe(false);
    expect(isClean(undefined)).toBe(true);
    expect(isClean(FULL)).toBe(true);
  });
});

describe("sanitizingWriter: the item as it is or its cleaned copy, the same bytes", () => {
  const layouts = readdirSync(BUILTIN_TEMPLATES).sort();

  it.each(layouts)("%s", async (name) => {
    const layout = await loadLayout(`${BUILTIN_TEMPLATES}/${name}`);
    const ours = createWriter(layout, META);
    const reference = UNWRAPPED[layout.spec.format](layout, sanitizeValue(META));
    const row = (writer: FeedWriter, item: FeedItem) => {
      writer.filled?.splice(0);
      return { row: writer.row(item), filled: [...(writer.filled ?? [])] };
    };
    fc.assert(
      fc.property(ITEM, (item) => {
        expect(row(ours, item)).toEqual(row(reference, sanitizeValue(item)));
      }),
      { numRuns: 300 },
    );
    expect(row(ours, FULL)).toEqual(row(reference, FULL));
  });

  it("a row is written from the item as it is while every value the layout reads is clean", async () => {
    const xml = UNWRAPPED.xml(await loadLayout(`${BUILTIN_TEMPLATES}/google`), META);
    expect(xml.rowIfClean?.(FULL)).toBe(xml.row(FULL));
    // google.xml reads neither cip13 nor the fallbacks.
    expect(xml.rowIfClean?.(feedItem({ cip13: "34\u0001", fallbacks: { title: "e\u0000n" } }))).toBe(xml.row(feedItem()));
    expect(xml.rowIfClean?.(feedItem({ title: "Sérum\u0007" }))).toBeUndefined();
    expect(xml.rowIfClean?.(feedItem({ additionalImageLinks: ["https://a.example/\u0085.jpeg"] }))).toBeUndefined();
    const csv = UNWRAPPED.csv(await loadLayout(`${BUILTIN_TEMPLATES}/generic-csv`), META);
    expect(csv.rowIfClean?.(feedItem({ gtins: ["3282770037258", "\ufffe"] }))).toBeUndefined();
    expect(csv.rowIfClean?.(FULL)).toBe(csv.row(FULL));
  });
});
