/**
 * The compact offers index (mapping/offers-table.ts): every offer found again by
 * every key after the tables grew many times, and through a structured clone of
 * its shared arrays, as a worker thread receives them.
 */
import { describe, expect, it } from "vitest";
import { OffersIndex, type Offer } from "../../src/mapping/offers-table.js";

/** A GTIN-13 key padded to 14 digits; the index does not check digits (offers.ts does). */
const key = (n: number) => String(3400930000000 + n * 10).padStart(14, "0");

describe("OffersIndex", () => {
  it("finds every offer by id and by GTIN key after growing, with the same fields it was given", () => {
    const index = OffersIndex.create();
    const given = new Map<number, Offer>();
    for (let n = 0; n < 20_000; n++) {
      const offer: Offer = { line: n + 2, priceCents: 100 + n };
      if (n % 3 === 0) offer.salePriceCents = 50;
      if (n % 5 === 0) Object.assign(offer, { saleFrom: 1_748_736_000 + n, saleUntil: 4_102_444_800 });
      if (n % 7 === 0) offer.quantity = n % 2;
      if (n % 11 === 0) offer.availability = (["in_stock", "out_of_stock", "preorder", "backorder"] as const)[n % 4];
      if (n % 13 === 0) offer.link = `https://pharmacie.example/p/${n % 26 === 0 ? "même" : n}`;
      given.set(n, offer);
      // Ids on even rows (one with multi-byte characters), a GTIN on every row, two on every tenth.
      index.add(offer, n % 2 === 0 ? `M${n}-ü` : undefined, n % 10 === 0 ? [key(n), key(n + 100_000)] : [key(n)]);
    }
    expect(index.size).toBe(20_000);
    const clone = OffersIndex.from(structuredClone(index.share()));
    for (const [n, offer] of given) {
      for (const found of [index, clone]) {
        expect(found.byGtin(key(n))).toEqual(offer);
        if (n % 2 === 0) expect(found.byId(`M${n}-ü`)).toEqual(offer);
        if (n % 10 === 0) expect(found.byGtin(key(n + 100_000))).toEqual(offer);
      }
    }
    expect(index.byId("M1-ü")).toBeUndefined();
    expect(index.byId("M0")).toBeUndefined();
    expect(index.byGtin(key(30_000))).toBeUndefined();
    expect(index.hasId("M2-ü") && index.hasGtin(key(3)) && !index.hasGtin(key(20_001))).toBe(true);
    expect([...index.ids()].slice(0, 3)).toEqual(["M0-ü", "M2-ü", "M4-ü"]);
  });

  it("shares its arrays: a clone sees the same memory, not a copy", () => {
    const index = OffersIndex.create();
    index.add({ line: 2, priceCents: 999 }, "A", []);
    const shared = index.share();
    expect(shared.price.buffer).toBeInstanceOf(SharedArrayBuffer);
    const clone = structuredClone(shared);
    shared.price[0] = 1234;
    expect(OffersIndex.from(clone).byId("A")?.priceCents).toBe(1234);
  });
});
