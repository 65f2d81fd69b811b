/**
 * An offers row that cannot be used never turns into the catalogue's price and `in_stock`
 * unasked: a refused row and an implausible price leave the product out (offers.whenRefused
 * exclude, the default) with a reason that says why, or publish the catalogue's data with
 * the warning OFFER_NOT_USED (whenRefused catalogue).
 */
import { describe, expect, it } from "vitest";
import { mapProduct } from "../../src/mapping/map-product.js";
import { parseOffers } from "../../src/mapping/offers-parse.js";
import { reasonDetail } from "../../src/mapping/reason-details.js";
import { ChannelMapping, type ChannelMappingInput } from "../../src/mapping/settings.js";
import { channel, context, product } from "./fixtures.js";

// The fixture product: id M34C3D3A5E, publicPrice 1450 cents (14.50, VAT included).
const ID = "M34C3D3A5E";

function map(offersCsv: string, settings: ChannelMappingInput = {}, overrides: Record<string, unknown> = {}) {
  const parsed = parseOffers(offersCsv, "csv");
  return { result: mapProduct(product(overrides), channel(settings), context({ offers: parsed.offers })), errors: parsed.errors };
}

describe("an implausible offer price", () => {
  it("left out when typed in cents in the euros column, with both prices and the likely cause", () => {
    const { result } = map(`id;price\n${ID};1450\n`);
    expect(result).toEqual({
      ok: false,
      reasons: [{ code: "IMPLAUSIBLE_PRICE", detail: "price 1450.00 in the offers file is 100 times the catalogue's public price 14.50: looks like cents in the euros column" }],
    });
  });

  it("says what else it may be: one place off, a thousands separator, or just far away", () => {
    const detail = (price: string) => {
      const { result } = map(`id;price\n${ID};${price}\n`);
      return result.ok ? "published" : result.reasons[0]?.detail;
    };
    expect(detail("145,00")).toContain("10 times the catalogue's public price 14.50: looks like a decimal separator one place off");
    expect(detail("0.15")).toContain("1/97 of the catalogue's public price 14.50: looks like euros where cents were meant");
    expect(detail("99")).toContain("6.8 times the catalogue's public price 14.50: check the row's price");
    expect(detail("2.50")).toContain("1/6 of the catalogue's public price 14.50: check the row's price");
  });

  it("published within the ratio, at its bounds included; the ratio is the channel's, 0 turns it off", () => {
    expect(map(`id;price\n${ID};72,50\n`).result).toMatchObject({ ok: true, item: { price: { cents: 7250 } } });
    expect(map(`id;price\n${ID};2,90\n`).result).toMatchObject({ ok: true, item: { price: { cents: 290 } } });
    expect(map(`id;price\n${ID};72,51\n`).result).toMatchObject({ ok: false, reasons: [{ code: "IMPLAUSIBLE_PRICE" }] });
    expect(map(`id;price\n${ID};30\n`, { offers: { maxPriceRatio: 2 } }).result).toMatchObject({ ok: false, reasons: [{ code: "IMPLAUSIBLE_PRICE" }] });
    expect(map(`id;price\n${ID};1450\n`, { offers: { maxPriceRatio: 0 } }).result).toMatchObject({ ok: true, item: { price: { cents: 145000 } } });
  });

  it("is not checked where the channel does not publish the offer's price, nor without a catalogue price", () => {
    expect(map(`id;price\n${ID};1450\n`, { price: { sources: ["publicPrice"] } }).result).toMatchObject({ ok: true, item: { price: { cents: 1450 } } });
    expect(map(`id;price\n${ID};1450\n`, {}, { publicPrice: null }).result).toMatchObject({ ok: true, item: { price: { cents: 145000 } } });
  });

  it("without a catalogue price, is judged against the price last published (history/last-prices.ts), and only then", () => {
    const withLast = (csv: string, last: number, overrides: Record<string, unknown> = { publicPrice: null }) => {
      const parsed = parseOffers(csv, "csv");
      parsed.offers.setLastPublished((id) => (id === ID ? last : undefined), () => undefined);
      return mapProduct(product(overrides), channel({}), context({ offers: parsed.offers }));
    };
    expect(withLast(`id;price\n${ID};1450\n`, 1450)).toEqual({
      ok: false,
      reasons: [{ code: "IMPLAUSIBLE_PRICE", detail: "price 1450.00 in the offers file is 100 times the price last published 14.50: looks like cents in the euros column" }],
    });
    expect(withLast(`id;price\n${ID};16,00\n`, 1450)).toMatchObject({ ok: true, item: { price: { cents: 1600 } } });
    // The catalogue's public price comes first: 20.00 is within 5x of 14.50, however far from the last published 1.00.
    expect(withLast(`id;price\n${ID};20,00\n`, 100, {})).toMatchObject({ ok: true, item: { price: { cents: 2000 } } });
  });

  it("with whenRefused catalogue: the catalogue's price and stock, and the warning says why", () => {
    const { result } = map(`id;price;quantity\n${ID};1450;0\n`, { offers: { whenRefused: "catalogue" } });
    expect(result).toMatchObject({ ok: true, item: { price: { cents: 1450 }, availability: "in_stock" } });
    expect(result.ok && result.warnings).toEqual([{ code: "OFFER_NOT_USED", detail: expect.stringContaining("cents in the euros column") }]);
  });

  it("refuses the mapping's settings that make no sense", () => {
    expect(ChannelMapping.safeParse({ locale: "fr", offers: { maxPriceRatio: 1 } }).success).toBe(false);
    expect(ChannelMapping.safeParse({ locale: "fr", offers: { whenRefused: "skip" } }).success).toBe(false);
  });
});

describe("a refused offers row", () => {
  it("leaves its product out (OFFER_REFUSED, its line and code) instead of publishing the catalogue's price in stock", () => {
    const { result, errors } = map(`id;price;quantity\n${ID};12,99.5;0\n`);
    expect(errors).toEqual([{ line: 2, reason: "OFFER_BAD_PRICE", detail: "price 12,99.5" }]);
    expect(result).toEqual({ ok: false, reasons: [{ code: "OFFER_REFUSED", detail: "offers file line 2: OFFER_BAD_PRICE (the offers report gives the row's problem)" }] });
    const settings = ChannelMapping.parse({ locale: "fr" });
    expect(reasonDetail({ code: "OFFER_REFUSED", detail: "D" }, settings)).toMatch(/rather than publish the catalogue's price and stock.*: D$/);
  });

  it("whenRefused catalogue publishes the catalogue's price and stock with OFFER_NOT_USED; whenMissing skip does not take it for a missing row", () => {
    const { result } = map(`id;price;quantity\n${ID};12,99.5;0\n`, { offers: { whenRefused: "catalogue", whenMissing: "skip" } });
    expect(result).toMatchObject({ ok: true, item: { price: { cents: 1450 }, availability: "in_stock" } });
    expect(result.ok && result.warnings.map((w) => w.code)).toEqual(["OFFER_NOT_USED"]);
  });

  it("an accepted row for the same product, after it or before it, is the one used", () => {
    expect(map(`id;price\n${ID};12,99.5\n${ID};13,99\n`).result).toMatchObject({ ok: true, item: { price: { cents: 1399 } } });
    const before = map(`id;price\n${ID};13,99\n${ID};12,99.5\n`);
    expect(before.result).toMatchObject({ ok: true, item: { price: { cents: 1399 } } });
    expect(before.errors.map((e) => e.reason)).toEqual(["OFFER_BAD_PRICE"]);
  });

  it("counts as refused, not accepted; a row without a usable key stays a row that names no product", () => {
    const parsed = parseOffers(`id;price\n${ID};x\nOTHER;1\n;2\n`, "csv");
    expect(parsed.offers.size).toBe(1);
    expect(parsed.errors.map((e) => e.reason)).toEqual(["OFFER_BAD_PRICE", "OFFER_NO_KEY"]);
    // No row names the product: whenMissing (catalogue, the default) as before.
    expect(map(`id;price\n;2\n`).result).toMatchObject({ ok: true, item: { price: { cents: 1450 } } });
  });
});
