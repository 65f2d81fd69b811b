/**
 * The price the customer pays, in every preset (issue 13, item 1): a sale
 * running at run time is what each feed shows as the price a shopper pays,
 * in the channel's own sale or strike-price field where it has one, and
 * sale_price_effective_date is a complete ISO 8601 interval or absent.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { PRESET_NAMES } from "../../src/presets/index.js";
import { product } from "../mapping/fixtures.js";
import type { Row } from "../writers/read-back.js";
import { runPreset, type PresetRun } from "./harness.js";

// With a PZN each (check digit mod 11), which medizinfuchs requires.
const OFFERS = [
  "id,price,sale_price,sale_from,sale_until,pzn",
  // Running: 1 November to 31 December 2026, run time 21 November.
  "SALE1,39.90,29.90,2026-11-01,2026-12-31,01234562",
  // Running with a start and no end.
  "OPEN1,46.30,40.26,2026-11-01,,12345678",
  // Over: the regular price only.
  "PAST1,19.99,9.99,2026-01-01,2026-02-01,04587120",
].join("\n");

const PRODUCTS = [product({ id: "SALE1" }), product({ id: "OPEN1" }), product({ id: "PAST1" })];

/** What each preset must show: [price field, value] pairs per product; undefined = absent or empty. */
type Expect = Record<string, string | undefined>;
const INTERVAL = "2026-11-01T00:00:00Z/2026-12-31T23:59:59Z";

const EXPECTED: Record<string, { SALE1: Expect; OPEN1: Expect; PAST1: Expect }> = {
  google: {
    SALE1: { "g:price": "39.90 EUR", "g:sale_price": "29.90 EUR", "g:sale_price_effective_date": INTERVAL },
    OPEN1: { "g:price": "46.30 EUR", "g:sale_price": "40.26 EUR", "g:sale_price_effective_date": undefined },
    PAST1: { "g:price": "19.99 EUR", "g:sale_price": undefined, "g:sale_price_effective_date": undefined },
  },
  "google-tsv": {
    SALE1: { price: "39.90 EUR", sale_price: "29.90 EUR", sale_price_effective_date: INTERVAL },
    OPEN1: { price: "46.30 EUR", sale_price: "40.26 EUR", sale_price_effective_date: undefined },
    PAST1: { price: "19.99 EUR", sale_price: undefined, sale_price_effective_date: undefined },
  },
  meta: {
    SALE1: { price: "39.90 EUR", sale_price: "29.90 EUR", sale_price_effective_date: INTERVAL },
    OPEN1: { price: "46.30 EUR", sale_price: "40.26 EUR", sale_price_effective_date: undefined },
    PAST1: { price: "19.99 EUR", sale_price: undefined, sale_price_effective_date: undefined },
  },
  idealo: {
    SALE1: { price: "29.90", formerPrice: "39.90" },
    OPEN1: { price: "40.26", formerPrice: "46.30" },
    PAST1: { price: "19.99", formerPrice: undefined },
  },
  // Kelkoo's feed has no strike-price field: its price is the price paid.
  kelkoo: {
    SALE1: { price: "29.90" },
    OPEN1: { price: "40.26" },
    PAST1: { price: "19.99" },
  },
  beslist: {
    SALE1: { price: "29,90", price_old: "39,90" },
    OPEN1: { price: "40,26", price_old: "46,30" },
    PAST1: { price: "19,99", price_old: undefined },
  },
  // medizinfuchs has no strike-price column: its price is the price paid, written 12,99.
  medizinfuchs: {
    SALE1: { preis: "29,90" },
    OPEN1: { preis: "40,26" },
    PAST1: { preis: "19,99" },
  },
  billiger: {
    SALE1: { price: "29.90", old_price: "39.90" },
    OPEN1: { price: "40.26", old_price: "46.30" },
    PAST1: { price: "19.99", old_price: undefined },
  },
  "generic-csv": {
    SALE1: { price: "39.90", sale_price: "29.90" },
    OPEN1: { price: "46.30", sale_price: "40.26" },
    PAST1: { price: "19.99", sale_price: undefined },
  },
};
EXPECTED["microsoft"] = EXPECTED["google"]!;
EXPECTED["meta-xml"] = EXPECTED["google"]!;
EXPECTED["idealo-de"] = EXPECTED["idealo"]!;

/** A parsed value, or undefined for an absent element and an empty cell. */
function value(row: Row, field: string): string | undefined {
  const v = row[field];
  return v === undefined || v === "" ? undefined : String(v);
}

const runs = new Map<string, PresetRun>();
beforeAll(async () => {
  for (const name of PRESET_NAMES) runs.set(name, await runPreset(name, PRODUCTS, { offersCsv: OFFERS }));
});

describe("the price the customer pays, every preset", () => {
  it("has an expectation for every preset with price fields (the JSON presets are checked below)", () => {
    expect([...Object.keys(EXPECTED), "generic-json", "generic-ndjson"].sort()).toEqual([...PRESET_NAMES].sort());
  });

  describe.each(Object.keys(EXPECTED))("%s", (name) => {
    it.each(["SALE1", "OPEN1", "PAST1"] as const)("%s", (id) => {
      const run = runs.get(name)!;
      expect(run.excluded.get(id)).toBeUndefined();
      const row = run.rows.get(id);
      expect(row, `${id} in ${name}`).toBeDefined();
      for (const [field, expected] of Object.entries(EXPECTED[name]![id])) {
        expect(value(row!, field), `${name} ${id} ${field}`).toBe(expected);
      }
    });
  });

  it.each(["generic-json", "generic-ndjson"])("%s carries price, salePrice, currentPrice and the interval", (name) => {
    const rows = runs.get(name)!.rows;
    const sale = rows.get("SALE1") as Record<string, { amount?: string } | string | undefined>;
    expect(sale["price"]).toMatchObject({ amount: "39.90" });
    expect(sale["salePrice"]).toMatchObject({ amount: "29.90" });
    expect(sale["currentPrice"]).toMatchObject({ amount: "29.90" });
    expect(sale["salePriceEffectiveDate"]).toBe(INTERVAL);
    const open = rows.get("OPEN1") as Record<string, unknown>;
    expect(open["currentPrice"]).toMatchObject({ amount: "40.26" });
    expect(open["salePriceEffectiveDate"]).toBeUndefined();
    expect(open["salePriceFrom"]).toBe("2026-11-01T00:00:00Z");
  });

  it("never writes an open ISO 8601 interval in any preset", () => {
    for (const [name, run] of runs) expect(run.text, name).not.toMatch(/\d\dZ\/(?:<|"|\t|\n|,|$)/m);
  });
});
