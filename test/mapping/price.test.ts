import { Clock } from "../../src/mapping/clock.js";
import { describe, expect, it } from "vitest";
import { computeFacts } from "../../src/mapping/facts.js";
import { parseOffers } from "../../src/mapping/offers-parse.js";
import { activeSale, selectPrice } from "../../src/mapping/price.js";
import type { PriceSource } from "../../src/mapping/settings.js";
import { CODES, context, NOW, product } from "./fixtures.js";

const DEFAULT: PriceSource[] = ["offer", "publicPrice", "manufacturerPriceWithVat"];

function price(overrides: Record<string, unknown>, sources = DEFAULT, offersCsv?: string, unit: "cents" | "euro" = "cents") {
  const offers = offersCsv === undefined ? undefined : parseOffers(offersCsv, "csv").offers;
  const p = product(overrides);
  return selectPrice(p, computeFacts(p, context({ offers })), sources, unit);
}

describe("selectPrice", () => {
  it("takes the offer first, then publicPrice (VAT included), then manufacturerPrice + VAT", () => {
    expect(price({}, DEFAULT, `id;price\nM34C3D3A5E;12,99\n`)).toMatchObject({ ok: true, value: { cents: 1299, source: "offer" } });
    expect(price({})).toMatchObject({ ok: true, value: { cents: 1450, source: "publicPrice" } });
    expect(price({ publicPrice: null })).toMatchObject({ ok: true, value: { cents: 992, source: "manufacturerPriceWithVat" } });
  });

  it("an offer row without a price falls through to the catalogue", () => {
    expect(price({}, DEFAULT, `id;quantity\nM34C3D3A5E;3\n`)).toMatchObject({ ok: true, value: { source: "publicPrice" } });
  });

  it.each([
    [{ vat: 21 }, 992],
    [{ vat: 0.21 }, 992],
    [{ vat: 2100 }, 992],
    [{ vat: 5.5, manufacturerPrice: 1050 }, 1108],
    [{ vat: 210, manufacturerPrice: 1234 }, 1260],
  ])("manufacturerPrice 820 with %j -> %i", (overrides, cents) => {
    expect(price({ publicPrice: undefined, ...overrides })).toMatchObject({ ok: true, value: { cents } });
  });

  it("uses the channel's own order and the euro unit", () => {
    expect(price({ ttcPrice: 1399 }, ["ttcPrice", "publicPrice"])).toMatchObject({ ok: true, value: { cents: 1399, source: "ttcPrice" } });
    expect(price({ publicPrice: 14.5 }, DEFAULT, undefined, "euro")).toMatchObject({ ok: true, value: { cents: 1450 } });
  });

  it("NO_PRICE when no source has a value", () => {
    expect(price({ publicPrice: null, manufacturerPrice: null })).toEqual({ ok: false, reason: { code: "NO_PRICE" } });
  });

  it("INVALID_VAT when the only price needs an unusable VAT; never a guessed VAT", () => {
    expect(price({ publicPrice: null, vat: 1 })).toEqual({ ok: false, reason: { code: "INVALID_VAT", detail: "1" } });
    expect(price({ publicPrice: null, vat: null })).toMatchObject({ ok: false, reason: { code: "INVALID_VAT" } });
  });

  it("INVALID_PRICE for a broken amount; a later good source is used with a warning", () => {
    expect(price({ publicPrice: 14.5, manufacturerPrice: null })).toMatchObject({ ok: false, reason: { code: "INVALID_PRICE" } });
    const r = price({ publicPrice: 14.5 });
    expect(r).toMatchObject({ ok: true, value: { cents: 992, source: "manufacturerPriceWithVat" } });
    if (r.ok) expect(r.value.warnings.map((w) => w.code)).toEqual(["PRICE_SOURCE_SKIPPED"]);
  });

  it("warns when the VAT is bad but a VAT-included price was used", () => {
    const r = price({ vat: 42000 });
    expect(r).toMatchObject({ ok: true, value: { cents: 1450 } });
    if (r.ok) expect(r.value.warnings).toEqual([{ code: "VAT_IGNORED", detail: "42000" }]);
  });
});

describe("activeSale", () => {
  const facts = (row: string) => {
    const offers = parseOffers(`gtin;price;sale_price;sale_from;sale_until\n${CODES.cip13};${row}\n`, "csv").offers;
    return computeFacts(product(), context({ offers }));
  };
  it("applies a running sale with its dates", () => {
    expect(activeSale(facts("12,99;9,99;2025-05-01;2025-06-30"), 1299, new Clock(NOW))).toEqual({
      sale: { cents: 999, from: "2025-05-01T00:00:00Z", until: "2025-06-30T23:59:59Z" },
    });
    expect(activeSale(facts("12,99;9,99;;"), 1299, new Clock(NOW))).toEqual({ sale: { cents: 999 } });
  });
  it("ignores a sale that has not started or is over", () => {
    expect(activeSale(facts("12,99;9,99;2025-06-02;"), 1299, new Clock(NOW))).toEqual({});
    expect(activeSale(facts("12,99;9,99;;2025-05-31"), 1299, new Clock(NOW))).toEqual({});
    expect(activeSale(facts("12,99;9,99;;2025-06-01"), 1299, new Clock(NOW))).toMatchObject({ sale: { cents: 999 } });
  });
  it("a sale price not below the price is ignored with a warning", () => {
    expect(activeSale(facts("12,99;12,99;;"), 1299, new Clock(NOW))).toEqual({ warning: { code: "SALE_IGNORED", detail: "1299" } });
  });
});
