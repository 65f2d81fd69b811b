/** The item's `codes`: checked national pharmacy codes, a CODE_INVALID warning for a refused one, never mpn or gtin. */
import { describe, expect, it } from "vitest";
import { Product } from "../../src/catalogue/schemas/product.js";
import { mapProduct } from "../../src/mapping/map-product.js";
import { LayoutSpec } from "../../src/writers/layout.js";
import { createWriter } from "../../src/writers/registry.js";
import { itemShape } from "../../src/writers/item-shape.js";
import { templateFieldProblems } from "../../src/writers/template-fields.js";
import type { ChannelMappingInput } from "../../src/mapping/settings.js";
import { channel, CODES, context, product, withCheck } from "./fixtures.js";

function mapped(overrides: Record<string, unknown>, settings: ChannelMappingInput = {}) {
  const r = mapProduct(Product.parse(product(overrides)), channel(settings), context());
  if (!r.ok) throw new Error(`excluded: ${JSON.stringify(r.reasons)}`);
  return r;
}

describe("item.codes", () => {
  it("carries a valid CNK, CIP7 and CIP13, whatever the wire shape", () => {
    for (const cnk of ["3012345", 3012345, ["3012345"], "CNK 3012-345"]) {
      const r = mapped({ cnk, cipOrAcl7: 3000001 });
      expect(r.item.codes).toEqual({ cnk: "3012345", cip7: "3000001", cip13: CODES.cip13 });
      expect(r.warnings.filter((w) => w.code === "CODE_INVALID")).toEqual([]);
    }
    expect(mapped({ cnk: "0012345" }).item.codes?.cnk).toBe("0012345");
  });

  it("keeps cip13 / acl13 as they were and fills codes from the same values", () => {
    const acl = withCheck("340156000000");
    const r = mapped({ cip13: undefined, acl13: [Number(acl)] });
    expect(r.item).toMatchObject({ cip13: undefined, acl13: acl, codes: { acl13: acl } });
  });

  it("leaves `codes` out of an item none of whose codes passes (no empty object in a JSON feed)", () => {
    const r = mapped({ cnk: 12345, cipOrAcl7: undefined, cip13: undefined, acl13: undefined });
    expect(r.item.codes).toBeUndefined();
    expect("codes" in JSON.parse(JSON.stringify(r.item))).toBe(false);
  });

  it("leaves an invalid CNK out with a CODE_INVALID warning, and publishes the product", () => {
    const r = mapped({ cnk: 12345 });
    expect(r.item.codes?.cnk).toBeUndefined();
    expect(r.item.codes?.cip13).toBe(CODES.cip13);
    expect(r.warnings).toContainEqual({ code: "CODE_INVALID", detail: "CNK 12345: 5 digits, expected 7" });
    expect(mapped({ cnk: "12A4567" }).warnings).toContainEqual({ code: "CODE_INVALID", detail: 'CNK "12A4567": "A" is not a digit' });
    expect(mapped({ cipOrAcl7: 123 }).warnings).toContainEqual({ code: "CODE_INVALID", detail: "CIP7 123: 3 digits, expected 7" });
  });

  it("checks cip13's prefix on top of the GTIN check: a valid GTIN-13 without 3400 stays in cip13 but not in codes", () => {
    const r = mapped({ cip13: "4006381333931" });
    expect(r.item.cip13).toBe("4006381333931");
    expect(r.item.codes?.cip13).toBeUndefined();
    expect(r.warnings).toContainEqual({ code: "CODE_INVALID", detail: "CIP13 4006381333931: prefix 4006, expected 3400" });
    const broken = mapped({ cip13: `${CODES.cip13.slice(0, 12)}${(Number(CODES.cip13[12]) + 1) % 10}` });
    expect(broken.item.codes?.cip13).toBeUndefined();
    expect(broken.warnings.some((w) => w.code === "CODE_INVALID" && w.detail?.startsWith("CIP13 "))).toBe(true);
  });

  it("never puts a CNK or a cipOrAcl7 into mpn or gtin", () => {
    for (const supplierReference of [undefined, "", "  "]) {
      const r = mapped({ cnk: "3012345", cipOrAcl7: "3000001", supplierReference, eanGtin13: undefined, ean: undefined, cip13: undefined }, { gtin: { required: false } });
      expect(r.item.mpn).toBeUndefined();
      expect(r.item.gtin).toBeUndefined();
      expect(r.item.gtins).toEqual([]);
      expect(r.item.codes).toEqual({ cnk: "3012345", cip7: "3000001" });
    }
    expect(mapped({ cnk: "3012345", cipOrAcl7: "3000001" }).item.mpn).toBe("C52660");
  });
});

describe("codes in a custom layout", () => {
  const layout = (...values: string[]) => ({
    spec: LayoutSpec.parse({ format: "csv", columns: values.map((value, i) => ({ header: `c${i}`, value })) }),
    source: "test-layout",
  });
  const meta = { channel: "t", title: "t", link: "https://shop.example/", description: "", generatedAt: "2026-01-01T00:00:00Z", locale: "fr", country: "FR" };

  it("renders {{codes.cnk}}, empty when the code was refused", () => {
    const writer = createWriter(layout("{{id}}", "{{codes.cnk}}", "{{codes.cip13}}", "{{mpn}}"), meta);
    expect(writer.row(mapped({ cnk: 3012345 }).item)).toBe(`M34C3D3A5E,3012345,${CODES.cip13},C52660\r\n`);
    expect(writer.row(mapped({ cnk: 12345 }).item)).toBe(`M34C3D3A5E,,${CODES.cip13},C52660\r\n`);
  });

  it("knows codes.cnk, cip7, cip13, acl13, pzn, zi, aic, cn and refuses any other code name", () => {
    for (const name of ["cnk", "cip7", "cip13", "acl13", "pzn", "zi", "aic", "cn"]) expect(templateFieldProblems(`{{codes.${name}}}`, itemShape())).toEqual([]);
    expect(templateFieldProblems("{{codes.ean}}", itemShape()).map((p) => p.message).join("\n")).toMatch(/unknown field "codes\.ean"/);
  });
});

describe("every reason and warning code on the status page", () => {
  it("has its words in every language of the page (not the 'other reason' of an unknown code): CODE_INVALID had none", async () => {
    const { reasonWords } = await import("../../src/serve/status/reason-words.js");
    const { REASONS, WARNINGS } = await import("../../src/mapping/reasons.js");
    for (const code of [...Object.keys(REASONS), ...Object.keys(WARNINGS)]) {
      for (const lang of ["en", "fr", "nl"] as const) expect(reasonWords(code, lang), `${code} ${lang}`).not.toBe(reasonWords("NO_SUCH_CODE", lang));
    }
  });
});

describe("codes from the offers file (cnk, pzn, zi, aic, cn, cip7 columns)", () => {
  // Valid by their published checks (docs/pharmacy-codes.md): PZN 04877800 (IFA's example), AIC 012745093.
  const csv = (rows: string[]) => ["id;price;pzn;aic;cnk", ...rows].join("\n");

  it("are checked when the file is read: a good one reaches the item, a bad one refuses its row with the line and the check's sentence", async () => {
    const { parseOffers } = await import("../../src/mapping/offers-parse.js");
    const { offers, errors } = parseOffers(csv(["P1;12,99;04877800;012745093;", "P2;9,99;04877801;;", "P3;5,00;4877800;;0012345"]), "csv");
    expect(errors).toEqual([{ line: 3, reason: "OFFER_BAD_CODE", detail: expect.stringMatching(/^PZN 04877801: check digit/) }]);
    expect(offers.byId("P1")?.codes).toEqual({ pzn: "04877800", aic: "012745093" });
    // A PZN-7 is padded to PZN-8 (a leading zero keeps the same check digit).
    expect(offers.byId("P3")?.codes).toEqual({ pzn: "04877800", cnk: "0012345" });
    const ctx = context({ offers });
    const item = (id: string, overrides: Record<string, unknown> = {}, settings: ChannelMappingInput = {}) =>
      mapProduct(Product.parse(product({ id, cnk: undefined, ...overrides })), channel(settings), ctx);
    const p1 = item("P1");
    expect(p1.ok && p1.item.codes).toMatchObject({ pzn: "04877800", aic: "012745093", cip13: CODES.cip13 });
    // The refused row follows offers.whenRefused (default: left out).
    expect(item("P2")).toMatchObject({ ok: false, reasons: [{ code: "OFFER_REFUSED" }] });
    // The catalogue's own code wins; the offers file fills the kinds the catalogue lacks.
    const p3 = item("P3", { cnk: "3012345" });
    expect(p3.ok && p3.item.codes).toMatchObject({ pzn: "04877800", cnk: "3012345" });
  });

  it("codes.required leaves out a product without that kind (MISSING_CODE, the kind as detail), and never puts a PZN in mpn or gtin", async () => {
    const { parseOffers } = await import("../../src/mapping/offers-parse.js");
    const { offers } = parseOffers(csv(["P1;12,99;04877800;;"]), "csv");
    const ctx = context({ offers });
    const settings: ChannelMappingInput = { codes: { required: ["pzn"] } };
    const p1 = mapProduct(Product.parse(product({ id: "P1", supplierReference: undefined })), channel(settings), ctx);
    expect(p1.ok && [p1.item.codes?.pzn, p1.item.mpn, p1.item.gtins.includes("04877800")]).toEqual(["04877800", undefined, false]);
    const p2 = mapProduct(Product.parse(product({ id: "P2" })), channel(settings), ctx);
    expect(p2).toMatchObject({ ok: false, reasons: [{ code: "MISSING_CODE", detail: "pzn" }] });
  });

  it("a config naming an unknown code kind in codes.required is refused", async () => {
    const { ChannelMapping } = await import("../../src/mapping/settings.js");
    expect(ChannelMapping.safeParse({ codes: { required: ["ean"] } }).success).toBe(false);
  });
});
