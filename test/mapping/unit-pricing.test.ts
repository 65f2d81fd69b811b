/**
 * Unit pricing (issue 13, item 6): the measure as sold (a multi-pack counts
 * whole), one of Google's allowed bases, the unit price of what the customer
 * pays, and a warning instead of a guess when the name and the package content
 * disagree.
 */
import { describe, expect, it } from "vitest";
import { mapProduct, type MapResult } from "../../src/mapping/map-product.js";
import { parseOffers } from "../../src/mapping/offers-parse.js";
import { ChannelMapping, type ChannelMappingInput } from "../../src/mapping/settings.js";
import { nameQuantities, unitMeasure } from "../../src/mapping/unit-pricing.js";
import { channel, CODES, context, product } from "./fixtures.js";

function run(overrides: Record<string, unknown>, settings: ChannelMappingInput = {}, offersCsv?: string): MapResult {
  const offers = offersCsv === undefined ? undefined : parseOffers(offersCsv, "csv").offers;
  return mapProduct(product(overrides), channel(settings), context({ offers }));
}

function published(overrides: Record<string, unknown>, settings: ChannelMappingInput = {}, offersCsv?: string) {
  const r = run(overrides, settings, offersCsv);
  if (!r.ok) throw new Error(`excluded: ${JSON.stringify(r.reasons)}`);
  return r;
}

describe("unit pricing", () => {
  it("prices a multi-pack as sold: 3 x 25 ml is 75 ml, per litre by default", () => {
    const r = published({ name: { fr: "Sérum hydratant 3 x 25 ml" }, packageContent: "3 x 25 ml", publicPrice: 1500 });
    expect(r.item.unitPricingMeasure).toEqual({ value: 75, unit: "ml", text: "75 ml" });
    expect(r.item.unitPricingBaseMeasure).toEqual({ value: 1, unit: "l", text: "1 l" });
    // 15.00 EUR for 75 ml is 200.00 EUR a litre.
    expect(r.item.unitPrice).toEqual({ cents: 20000, currency: "EUR", text: "200.00 EUR", amount: "200.00" });
    expect(r.warnings).toEqual([]);
  });

  it("uses the channel's base and the price the customer pays (the running sale)", () => {
    const offers = ["gtin;price;sale_price;sale_from;sale_until", `${CODES.cip13};12,00;9,00;2025-05-01;2025-06-30`].join("\n");
    const r = published({ name: { fr: "Gel 2 x 150 ml" }, packageContent: "2×150ml" }, { unitPricing: { volumeBase: "100 ml" }, price: { currency: "none" } }, offers);
    expect(r.item.unitPricingMeasure?.text).toBe("300 ml");
    expect(r.item.unitPricingBaseMeasure?.text).toBe("100 ml");
    expect(r.item.unitPrice?.text).toBe("3.00");
    const mass = published({ name: { fr: "Poudre 250 g" }, packageContent: "250 g" }, { unitPricing: { massBase: "100 g" } });
    expect([mass.item.unitPricingBaseMeasure?.text, mass.item.unitPrice?.text]).toEqual(["100 g", "5.80 EUR"]);
  });

  it("publishes no unit price and warns when the name and the package content disagree", () => {
    const r = published({ name: { fr: "Lait corps 25 ml" }, packageContent: "225 ml" });
    expect(r.item.unitPricingMeasure).toBeUndefined();
    expect(r.item.unitPricingBaseMeasure).toBeUndefined();
    expect(r.item.unitPrice).toBeUndefined();
    expect(r.warnings).toContainEqual({ code: "UNIT_MEASURE_MISMATCH", detail: "name says 25 ml, package content is 225 ml" });
  });

  it("reads quantities, not concentrations or counts, and compares like with like", () => {
    expect(nameQuantities("Sirop 0,33 mg/ml 150 ml, 1 pc").map((q) => q.measure.text)).toEqual(["150 ml"]);
    expect(unitMeasure("150 ml", "Sirop 0,33 mg/ml 150 ml")).toMatchObject({ ok: true, measure: { text: "150 ml" } });
    expect(unitMeasure("0,15 l", "Sirop 150 ml")).toMatchObject({ ok: true, measure: { text: "0.15 l" } });
    // A medicine's strength is a mass; its content a volume: nothing to compare.
    expect(unitMeasure("100 ml", "Doliprane 500 mg suspension")).toMatchObject({ ok: true, measure: { text: "100 ml" } });
    expect(unitMeasure("30 comprimés", "Doliprane 500 mg")).toEqual({ ok: true, measure: undefined });
    expect(unitMeasure("200 ml", "Shampooing")).toMatchObject({ ok: true, measure: { text: "200 ml" } });
  });

  it("accepts only Google's allowed bases, of the right kind", () => {
    const base = (unitPricing: Record<string, string>) => ChannelMapping.safeParse({ unitPricing }).success;
    expect([base({ volumeBase: "100 ml" }), base({ volumeBase: "75 cl" }), base({ volumeBase: "750 ml" }), base({ massBase: "1000 kg" }), base({ massBase: "8 g" })]).toEqual([true, true, true, true, true]);
    expect([base({ volumeBase: "3 l" }), base({ volumeBase: "100 g" }), base({ massBase: "1 l" }), base({ massBase: "100g" })]).toEqual([false, false, false, false]);
  });
});
