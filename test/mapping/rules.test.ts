import { describe, expect, it } from "vitest";
import { ruleField, type MapState } from "../../src/mapping/fields.js";
import { compileRule, pathGetter, Rule, type RuleInput } from "../../src/mapping/rules.js";

const data = {
  id: "M1",
  status: "active",
  brand: "Avène",
  categoryId: [11, 10],
  price: 14.5,
  tags: ["sun", "kids"],
  brands: [{ id: 12 }, { id: 40 }],
  nested: { a: { b: "deep" } },
  empty: [],
  zero: 0,
};
const get = (field: string) => pathGetter(field);

function test(rule: RuleInput): boolean {
  return compileRule(Rule.parse(rule), get)(data);
}

describe("rule evaluation", () => {
  it.each<[RuleInput, boolean]>([
    [{ field: "brand", op: "eq", value: "Avène" }, true],
    [{ field: "brand", op: "eq", value: "avène" }, false],
    [{ field: "brand", op: "ne", value: "Vichy" }, true],
    [{ field: "categoryId", op: "eq", value: 10 }, true],
    [{ field: "categoryId", op: "eq", value: "11" }, true],
    [{ field: "categoryId", op: "ne", value: 10 }, false],
    [{ field: "categoryId", op: "in", value: [20, 11] }, true],
    [{ field: "categoryId", op: "nin", value: [20, 11] }, false],
    [{ field: "categoryId", op: "nin", value: [20, 30] }, true],
    [{ field: "price", op: "lt", value: 14.5 }, false],
    [{ field: "price", op: "lte", value: 14.5 }, true],
    [{ field: "price", op: "gt", value: 5 }, true],
    [{ field: "price", op: "gte", value: 15 }, false],
    [{ field: "id", op: "gt", value: 0 }, false],
    [{ field: "brand", op: "contains", value: "vè" }, true],
    [{ field: "tags", op: "contains", value: "kids" }, true],
    [{ field: "tags", op: "contains", value: "kid" }, false],
    [{ field: "brand", op: "startsWith", value: "Av" }, true],
    [{ field: "brands.id", op: "eq", value: 40 }, true],
    [{ field: "nested.a.b", op: "eq", value: "deep" }, true],
    [{ field: "nested.a.c", op: "exists" }, false],
    [{ field: "nested.a.c", op: "exists", value: false }, true],
    [{ field: "empty", op: "exists" }, false],
    [{ field: "zero", op: "exists" }, true],
    [{ field: "missing", op: "eq", value: null }, true],
    [{ field: "missing", op: "ne", value: "x" }, true],
    [{ field: "missing", op: "in", value: ["x"] }, false],
    [{ all: [{ field: "brand", op: "eq", value: "Avène" }, { field: "price", op: "lt", value: 20 }] }, true],
    [{ all: [{ field: "brand", op: "eq", value: "Avène" }, { field: "price", op: "lt", value: 10 }] }, false],
    [{ any: [{ field: "brand", op: "eq", value: "Vichy" }, { field: "price", op: "lt", value: 20 }] }, true],
    [{ not: { field: "brand", op: "eq", value: "Avène" } }, false],
    [{ name: "kids sun", all: [{ field: "tags", op: "contains", value: "sun" }, { not: { any: [{ field: "status", op: "ne", value: "active" }] } }] }, true],
  ])("%j -> %s", (rule, expected) => {
    expect(test(rule)).toBe(expected);
  });
});

describe("rule validation", () => {
  it.each<[unknown]>([
    [{ field: "price", op: "lt", value: "5" }],
    [{ field: "price", op: "between", value: 5 }],
    [{ field: "brand", op: "in", value: [] }],
    [{ field: "brand", op: "in", value: "Avène" }],
    [{ field: "", op: "eq", value: 1 }],
    [{ field: "brand", op: "eq", value: "x", extra: true }],
    [{ all: [] }],
    [{ not: [{ field: "a", op: "exists" }] }],
    [{ field: "brand", op: "startsWith", value: 3 }],
  ])("refuses %j", (rule) => {
    expect(Rule.safeParse(rule).success).toBe(false);
  });

  it("defaults exists to true", () => {
    expect(Rule.parse({ field: "x", op: "exists" })).toEqual({ field: "x", op: "exists", value: true });
  });
});

describe("rule fields over a product being mapped", () => {
  it("reads derived names from the state and other paths from the raw product", () => {
    const state = {
      product: { id: "M1", weightWithUnit: { unit: "kg" }, status: undefined },
      facts: { categoryIds: [12, 11, 10], brandId: 7, prescription: false, offer: undefined },
      brand: "Avène",
      priceCents: 1450,
    } as unknown as MapState;
    expect(ruleField("price")(state)).toBe(14.5);
    expect(ruleField("brand")(state)).toBe("Avène");
    expect(ruleField("categoryId")(state)).toEqual([12, 11, 10]);
    expect(ruleField("status")(state)).toBe("active");
    expect(ruleField("hasOffer")(state)).toBe(false);
    expect(ruleField("weightWithUnit.unit")(state)).toBe("kg");
  });
});

describe("the README's example", () => {
  it("validates", () => {
    const eligibility = {
      include: { field: "categoryId", op: "in", value: [10, 20] },
      exclude: [
        { name: "cheap items", field: "price", op: "lt", value: 2 },
        { name: "brand X outside sun care", all: [{ field: "brand", op: "eq", value: "X" }, { not: { field: "categoryId", op: "eq", value: 11 } }] },
      ],
    };
    expect(Rule.safeParse(eligibility.include).success).toBe(true);
    for (const r of eligibility.exclude) expect(Rule.safeParse(r).success).toBe(true);
  });
});
