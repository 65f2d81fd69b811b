import { Clock } from "../../src/mapping/clock.js";
import { describe, expect, it } from "vitest";
import { ancestors, categoryPath, googleCategory } from "../../src/mapping/categories.js";
import { buildContext } from "../../src/mapping/context.js";
import { eligibility } from "../../src/mapping/eligibility.js";
import { computeFacts } from "../../src/mapping/facts.js";
import { productWeight, unitPricingMeasure } from "../../src/mapping/measures.js";
import { compileChannel } from "../../src/mapping/compile.js";
import { ChannelMapping } from "../../src/mapping/settings.js";
import { CATEGORIES, CODES, context, NOW, product } from "./fixtures.js";

describe("categories", () => {
  it("walks parents to the root, leaf first, with a cycle guard", () => {
    const ctx = context();
    expect(ancestors(ctx, 12)).toEqual([12, 11, 10]);
    const cyclic = buildContext({ categories: [{ id: 1, parent: 2 }, { id: 2, parent: 1 }] });
    expect(ancestors(cyclic, 1)).toEqual([1, 2]);
  });

  it("names the path in the channel locale, falling back per level", () => {
    const ctx = context();
    expect(categoryPath(ctx, 12, ["fr", "en"], "fr,en")).toEqual({ names: ["Soin", "Solaires", "Enfants"] });
    expect(categoryPath(ctx, 12, ["nl", "en"], "nl,en")).toEqual({ names: ["Verzorging", "Sun care", "Children"], fallbackLocale: "en" });
    expect(categoryPath(ctx, 12, ["de"], "de")).toEqual({ names: [] });
  });

  it("fills ids the tree lacks from the product's embedded categories, without caching them", () => {
    const ctx = buildContext({ categories: CATEGORIES });
    const extra = new Map([[99, { id: 99, parent: 12, name: { fr: "Bébé" } }]]);
    expect(categoryPath(ctx, 99, ["fr"], "fr", extra).names).toEqual(["Soin", "Solaires", "Enfants", "Bébé"]);
    expect(ctx.memo.paths.get("fr")?.has(99) ?? false).toBe(false);
  });

  it("maps to the nearest mapped ancestor", () => {
    expect(googleCategory([12, 11, 10], { "10": 491, "11": "5765" })).toBe("5765");
    expect(googleCategory([12, 11, 10], { "10": 491 })).toBe("491");
    expect(googleCategory([12, 11, 10], {})).toBeUndefined();
  });
});

describe("facts", () => {
  it("chooses the deepest public category and collects every id with ancestors", () => {
    const f = computeFacts(product({ publicCategories: [{ id: 20 }, { id: 12 }] }), context());
    expect(f.category).toBe(12);
    expect(f.categoryAncestors).toEqual([12, 11, 10]);
    expect(f.categoryIds.sort()).toEqual([10, 11, 12, 20]);
  });

  it("derives medicine / veterinary flags and the category type", () => {
    const t = (types: string[]) => computeFacts(product({ catalogCategories: types.map((type, i) => ({ id: `C${i}`, type })) }), context());
    expect(t(["non_medical"])).toMatchObject({ medicine: false, veterinary: false, categoryType: "non_medical" });
    expect(t(["non_medical", "medicine"])).toMatchObject({ medicine: true, categoryType: "medicine" });
    expect(t(["veterinary_medicine"])).toMatchObject({ veterinary: true, categoryType: "veterinary_medicine" });
    expect(t([])).toMatchObject({ medicine: false, categoryType: undefined });
  });

  it("reads the brand name as a plain string or localized, falling back to the context's brands", () => {
    expect(computeFacts(product({ brands: [{ id: 12, name: { fr: "Avène" } }] }), context()).brandNames).toEqual([{ fr: "Avène" }, "Avène"]);
    expect(computeFacts(product({ brands: [{ id: 12 }] }), context()).brandNames).toEqual(["Avène"]);
    expect(computeFacts(product({ brands: [] }), context()).brandNames).toEqual([]);
  });

  it("normalises cip13 / acl13 (integer or string) and keeps the VAT result", () => {
    const f = computeFacts(product({ cip13: Number(CODES.cip13), acl13: "3401234567891", vat: 0.21 }), context());
    expect(f.cip13).toBe(CODES.cip13);
    expect(f.acl13).toBeUndefined();
    expect(f.vat).toEqual({ ok: true, value: 2100 });
    expect(computeFacts(product({ vat: undefined }), context()).vat).toBeUndefined();
  });
});

describe("eligibility", () => {
  const channelWith = (eligibility: Record<string, unknown> = {}) => compileChannel(ChannelMapping.parse({ eligibility }));
  const settings = channelWith();
  const check = (overrides: Record<string, unknown>, s = settings) => {
    const p = product(overrides);
    // A policy reason by its class and row only (the rest of its detail is the row's source and date).
    return eligibility(p, computeFacts(p, context()), s, new Clock(NOW)).reasons.map((r) =>
      r.detail === undefined ? r.code : `${r.code}:${r.code === "POLICY_DENIED" ? (/^[^:]+: row "[^"]+"/.exec(r.detail)?.[0] ?? r.detail) : r.detail}`,
    );
  };
  const PRESCRIPTION = 'POLICY_DENIED:prescription-medicine: row "* * prescription-medicine"';
  it.each<[Record<string, unknown>, string[]]>([
    [{}, []],
    [{ status: undefined }, []],
    [{ status: "inactive" }, ["STATUS_INACTIVE"]],
    [{ status: "no_selection" }, ["STATUS_NO_SELECTION"]],
    [{ status: "replaced", replacement: "M99" }, ["REPLACED:M99"]],
    [{ status: "replaced" }, ["REPLACED:no replacement id"]],
    [{ status: "archived" }, ["STATUS_UNKNOWN:archived"]],
    [{ deleted: true }, ["DELETED"]],
    [{ officialDeletionAt: NOW - 86400 }, ["OFFICIALLY_DELETED:2025-05-31"]],
    [{ officialDeletionAt: NOW }, ["OFFICIALLY_DELETED:2025-06-01"]],
    [{ officialDeletionAt: NOW + 86400 }, []],
    [{ prescription: true }, [PRESCRIPTION]],
    [{ deleted: true, status: "inactive", prescription: true }, ["DELETED", "STATUS_INACTIVE", PRESCRIPTION]],
  ])("%j -> %j", (overrides, expected) => {
    expect(check(overrides)).toEqual(expected);
  });

  it("an official deletion to come is the clock's horizon (a reused row is right until then), one that came is not", () => {
    const clock = new Clock(NOW);
    const p = product({ officialDeletionAt: NOW + 86400 });
    expect(eligibility(p, computeFacts(p, context()), settings, clock).reasons).toEqual([]);
    expect(clock.horizon).toBe(NOW + 86400);
    const at = new Clock(NOW + 86400);
    expect(eligibility(p, computeFacts(p, context()), settings, at).reasons.map((r) => r.code)).toEqual(["OFFICIALLY_DELETED"]);
    expect(at.horizon).toBe(Infinity);
  });

  it("the switches of channel files before the policy table are rows of the channel's own, cited as the setting", () => {
    expect(check({ prescription: true }, channelWith({ allowPrescription: true }))).toEqual([]);
    const medicine = { catalogCategories: [{ id: "M", type: "medicine" }] };
    expect(check(medicine)).toEqual([]);
    expect(check(medicine, channelWith({ allowMedicines: false }))).toEqual(['POLICY_DENIED:pharmacy-medicine: row "generic FR pharmacy-medicine"']);
    expect(check({ ...medicine, prescription: true }, channelWith({ allowMedicines: false }))).toEqual(['POLICY_DENIED:prescription-medicine: row "generic FR prescription-medicine"']);
    const vet = { catalogCategories: [{ id: "V", type: "veterinary_medicine" }] };
    expect(check(vet, channelWith({ allowVeterinary: false }))).toEqual(['POLICY_DENIED:veterinary: row "generic FR veterinary"']);
    const p = product({ prescription: true });
    expect(eligibility(p, computeFacts(p, context()), channelWith({ allowPrescription: false }), new Clock(NOW)).reasons[0]?.detail).toMatch(/\(eligibility\.allowPrescription, channel setting eligibility\.allowPrescription\): the channel's eligibility\.allowPrescription is false$/);
  });
});

describe("measures", () => {
  it.each([
    [{ weightWithUnit: { value: 0.37, unit: "kg" } }, { value: 0.37, unit: "kg", text: "0.37 kg" }],
    [{ weightWithUnit: { value: 859, unit: "G" } }, { value: 859, unit: "g", text: "859 g" }],
    [{ weightWithUnit: null, weight: 859 }, { value: 859, unit: "g", text: "859 g" }],
    [{ weightWithUnit: { value: 0, unit: "kg" }, weight: undefined }, undefined],
    [{ weightWithUnit: { value: 3 }, weight: undefined }, undefined],
  ])("weight %j", (overrides, expected) => {
    expect(productWeight(product(overrides))).toEqual(expected);
  });

  it.each([
    ["300 ml", { value: 300, unit: "ml", text: "300 ml" }],
    ["2 x 50 ml", { value: 100, unit: "ml", text: "100 ml" }],
    ["3×0,5 L", { value: 1.5, unit: "l", text: "1.5 l" }],
    ["50g", { value: 50, unit: "g", text: "50 g" }],
    ["30 comprimés", undefined],
    ["150 mlx", undefined],
    [null, undefined],
  ])("unit pricing %j", (content, expected) => {
    expect(unitPricingMeasure(content)).toEqual(expected);
  });
});
