import { describe, expect, it } from "vitest";
import { OffersIndex, type Offer } from "../../src/mapping/offers-table.js";

/** Every field of an accepted Offer with two values; `line` is the one a fingerprint leaves out. */
const VALUES: { [K in keyof Required<Omit<Offer, "refused" | "lastPublishedCents">>]: [Offer[K], Offer[K]] } = {
  line: [2, 3],
  priceCents: [1299, 1399],
  salePriceCents: [999, 899],
  saleFrom: [1_750_000_000, 1_750_000_001],
  saleUntil: [1_760_000_000, 1_760_000_001],
  quantity: [4, 5],
  availability: ["in_stock", "backorder"],
  availabilityDate: [1_765_000_000, 1_765_086_400],
  link: ["https://shop.example/a", "https://shop.example/b"],
  codes: [{ pzn: "01234562" }, { pzn: "01234562", cnk: "0123456" }],
};

const base = (): Offer => Object.fromEntries(Object.entries(VALUES).map(([k, [v]]) => [k, v])) as unknown as Offer;

function fingerprintOf(offer: Offer, byGtin = false): string {
  const index = OffersIndex.create();
  index.add(offer, byGtin ? undefined : "P1", byGtin ? ["05400000000017"] : []);
  return index.fingerprint("P1", ["05400000000017"]);
}

describe("OffersIndex.fingerprint (a refresh reuses a row while it is unchanged)", () => {
  it("changes with every field mapping reads, and only the line number leaves it as it is", () => {
    const before = fingerprintOf(base());
    for (const [field, [, other]] of Object.entries(VALUES)) {
      const changed = fingerprintOf({ ...base(), [field]: other });
      if (field === "line") expect(changed, field).toBe(before);
      else expect(changed, field).not.toBe(before);
    }
  });

  it("tells a field that is absent from one that is set", () => {
    const before = fingerprintOf(base());
    for (const field of Object.keys(VALUES).filter((f) => f !== "line")) {
      const { [field as keyof Offer]: _, ...without } = base();
      expect(fingerprintOf(without as Offer), field).not.toBe(before);
    }
  });

  it("keeps a row's codes with their leading zeros", () => {
    const index = OffersIndex.create();
    index.add({ line: 2, codes: { pzn: "01234562", cnk: "0012345", aic: "012745018" } }, "P1", []);
    expect(index.byId("P1")?.codes).toEqual({ pzn: "01234562", cnk: "0012345", aic: "012745018" });
  });

  it("tells a refused row from an accepted one, and one refused row from another by its reason and line (OFFER_REFUSED names both)", () => {
    const refused = fingerprintOf({ line: 2, refused: "OFFER_BAD_PRICE" });
    expect(refused).not.toBe(fingerprintOf({ line: 2 }));
    expect(refused).not.toBe(fingerprintOf({ line: 2, refused: "OFFER_BAD_DATE" }));
    expect(refused).not.toBe(fingerprintOf({ line: 3, refused: "OFFER_BAD_PRICE" }));
    expect(refused).toBe(fingerprintOf({ line: 2, refused: "OFFER_BAD_PRICE" }));
  });

  it("carries the last published price, and changes only when it is not the row's own price (unchanged rows keep their fingerprint)", () => {
    const withLast = (last: number | undefined, byGtin = false) => {
      const index = OffersIndex.create();
      index.add(base(), byGtin ? undefined : "P1", byGtin ? ["05400000000017"] : []);
      const set = index.setLastPublished((id) => (id === "P1" ? last : undefined), (key) => (key === 5400000000017 ? last : undefined));
      return { set, fingerprint: index.fingerprint("P1", ["05400000000017"]), offer: byGtin ? index.byGtin("05400000000017") : index.byId("P1") };
    };
    const before = fingerprintOf(base());
    expect(withLast(undefined)).toMatchObject({ set: 0, fingerprint: before });
    expect(withLast(undefined).offer?.lastPublishedCents).toBeUndefined();
    expect(withLast(1299)).toMatchObject({ set: 1, fingerprint: before, offer: { lastPublishedCents: 1299 } });
    expect(withLast(1399).fingerprint).not.toBe(before);
    expect(withLast(1399, true)).toMatchObject({ set: 1, offer: { lastPublishedCents: 1399 } });
  });

  it("finds the offer as mapping does: by id first, then by GTIN; none is the empty string", () => {
    expect(fingerprintOf(base(), true)).toBe(fingerprintOf(base()));
    const index = OffersIndex.create();
    expect(index.fingerprint("P1", ["05400000000017"])).toBe("");
    index.add({ line: 2, priceCents: 100 }, undefined, ["05400000000017"]);
    index.add({ line: 3, priceCents: 200 }, "P1", []);
    expect(index.fingerprint("P1", ["05400000000017"])).toContain("200|");
    expect(index.fingerprint("P2", ["05400000000017"])).toContain("100|");
  });
});
