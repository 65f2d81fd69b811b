import { describe, expect, it } from "vitest";
import { splitIdentifiers } from "../../src/catalogue/query/split.js";
import { PRODUCT_IDENTIFIER_FILTERS } from "../../src/catalogue/query/product-filter.js";

const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `P${String(from + i).padStart(5, "0")}`);

function parts(filter: unknown, options = {}) {
  const result = splitIdentifiers(filter, PRODUCT_IDENTIFIER_FILTERS, options);
  if (!result.ok) throw new Error(result.reason);
  return result.value.filters as Record<string, unknown>[];
}

describe("splitIdentifiers", () => {
  it("leaves a filter within the limit alone", () => {
    const filter = { id: ids(1000) };
    expect(parts(filter)).toEqual([filter]);
  });

  it("splits a top-level list into chunks of at most 1000, covering every code once", () => {
    const all = ids(2500);
    const chunks = parts({ id: all }).map((part) => part.id as string[]);
    expect(chunks.map((chunk) => chunk.length)).toEqual([1000, 1000, 500]);
    expect(chunks.flat()).toEqual(all);
  });

  it("splits inside and/or, leaving the rest of the filter and the room for other lists", () => {
    const filter = { and: [{ status: "active" }, { or: [{ brand: [1, 2, 3] }, { ean: ids(1500) }] }] };
    const result = parts(filter);
    expect(result).toHaveLength(2);
    for (const part of result) {
      const and = part.and as [unknown, { or: [{ brand: number[] }, { ean: string[] }] }];
      expect(and[0]).toEqual({ status: "active" });
      expect(and[1].or[0].brand).toEqual([1, 2, 3]);
      expect(and[1].or[1].ean.length + 3).toBeLessThanOrEqual(1000);
    }
    expect(result.flatMap((part) => (part.and as [unknown, { or: [unknown, { ean: string[] }] }])[1].or[1].ean)).toEqual(ids(1500));
    expect(filter.and[1]).toEqual({ or: [{ brand: [1, 2, 3] }, { ean: ids(1500) }] });
  });

  it("drops repeated codes before chunking", () => {
    const result = parts({ id: [...ids(1200), ...ids(1200)] });
    expect(result.flatMap((part) => part.id as string[])).toEqual(ids(1200));
  });

  it("sorts id chunks in the requested id order", () => {
    const shuffled = ids(1500).reverse();
    const asc = parts({ id: shuffled }, { sortIdsBy: "ASC" }).flatMap((part) => part.id as string[]);
    expect(asc).toEqual(ids(1500));
    const desc = parts({ id: ids(1500) }, { sortIdsBy: "DESC" }).flatMap((part) => part.id as string[]);
    expect(desc).toEqual(ids(1500).reverse());
  });

  it("refuses a list under not (splitting would change the result)", () => {
    const result = splitIdentifiers({ not: { id: ids(1001) } }, PRODUCT_IDENTIFIER_FILTERS);
    expect(result).toMatchObject({ ok: false, path: "filter.not.id" });
  });

  it("refuses when the other lists alone fill the request", () => {
    const result = splitIdentifiers({ and: [{ ean: ids(1000) }, { id: ids(1500) }] }, PRODUCT_IDENTIFIER_FILTERS);
    expect(result.ok).toBe(false);
  });

  it("does not count enum filters such as status as identifiers", () => {
    const filter = { and: [{ status: ["active", "inactive", "replaced"] }, { id: ids(999) }] };
    expect(parts(filter)).toEqual([filter]);
  });
});
