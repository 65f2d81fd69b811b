import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Product } from "../../src/catalogue/schemas/product.js";
import { compileChannel } from "../../src/mapping/compile.js";
import { mapProduct, type MapResult } from "../../src/mapping/map-product.js";
import { parseOffers } from "../../src/mapping/offers-parse.js";
import type { ChannelMappingInput } from "../../src/mapping/settings.js";
import { ASSET, channel, CODES, context, photo, product, withCheck } from "./fixtures.js";
import { productHtml } from "../../src/mapping/product-cache.js";

const hex1 = "00000001";

function run(overrides: Record<string, unknown> = {}, settings: ChannelMappingInput = {}, offersCsv?: string): MapResult {
  const offers = offersCsv === undefined ? undefined : parseOffers(offersCsv, "csv").offers;
  return mapProduct(product(overrides), channel(settings), context({ offers }));
}
function item(overrides: Record<string, unknown> = {}, settings: ChannelMappingInput = {}, offersCsv?: string) {
  const r = run(overrides, settings, offersCsv);
  if (!r.ok) throw new Error(`excluded: ${JSON.stringify(r.reasons)}`);
  return r;
}
function codes(overrides: Record<string, unknown> = {}, settings: ChannelMappingInput = {}, offersCsv?: string): string[] {
  const r = run(overrides, settings, offersCsv);
  return r.ok ? [] : r.reasons.map((x) => x.code);
}

describe("mapProduct end to end", () => {
  it("maps a French product for a Google-like channel", () => {
    const r = item({ leaflets: [{ id: 1, type: "pil", url: { fr: "https://leaflets.example/fr.pdf" } }] }, { categories: { googleCategoryMap: { "10": 491 } } });
    expect(r.item).toEqual({
      id: "M34C3D3A5E",
      title: "Avène Eau thermale spray",
      description: "Apaise & adoucit.",
      link: "https://shop.example/eau-thermale-spray-M34C3D3A5E",
      landingPageUrl: "https://shop.example/eau-thermale-spray-M34C3D3A5E",
      imageLink: `${ASSET}/huge/${hex1}.jpeg`,
      additionalImageLinks: [],
      price: { cents: 1450, currency: "EUR", text: "14.50 EUR", amount: "14.50" },
      salePrice: undefined,
      currentPrice: { cents: 1450, currency: "EUR", text: "14.50 EUR", amount: "14.50" },
      salePriceFrom: undefined,
      salePriceUntil: undefined,
      salePriceEffectiveDate: undefined,
      availability: "in_stock",
      stockQuantity: undefined,
      condition: "new",
      brand: "Avène",
      gtin: CODES.cip13,
      gtins: [CODES.cip13],
      mpn: "C52660",
      identifierExists: true,
      googleProductCategory: "491",
      categoryPath: ["Soin", "Solaires"],
      productType: "Soin > Solaires",
      categoryType: "non_medical",
      weight: { value: 0.37, unit: "kg", text: "0.37 kg" },
      packageContent: "300 ml",
      unitPricingMeasure: { value: 300, unit: "ml", text: "300 ml" },
      unitPricingBaseMeasure: { value: 1, unit: "l", text: "1 l" },
      unitPrice: { cents: 4833, currency: "EUR", text: "48.33 EUR", amount: "48.33" },
      cip13: CODES.cip13,
      acl13: undefined,
      codes: { cip13: CODES.cip13 },
      leafletUrl: "https://leaflets.example/fr.pdf",
      prescription: false,
      locale: "fr",
      fallbacks: {},
      custom: {},
    });
    expect(r.warnings).toEqual([]);
  });

  it("records every locale fallback (nl channel on a product with empty nl name)", () => {
    const r = item(
      { seoName: { nl: "thermaal-water" }, descriptions: [{ id: 1, type: "full_description", content: { en: "<p>Soothes.</p>" } }] },
      { locale: "nl", fallbackLocales: ["fr", "en"], title: { fallback: true }, description: { fallback: true } },
    );
    expect(r.item.title).toBe("Avène Eau thermale spray");
    expect(r.item.description).toBe("Soothes.");
    expect(r.item.link).toBe("https://shop.example/thermaal-water-M34C3D3A5E");
    expect(r.item.categoryPath).toEqual(["Verzorging", "Solaires"]);
    expect(r.fallbacks).toEqual({ name: "fr", description: "en", category: "fr" });
    expect(r.item.fallbacks).toBe(r.fallbacks);
  });

  it("a required field with no value on the chain excludes the product", () => {
    expect(codes({ name: { nl: "", fr: " " } })).toEqual(["MISSING_TITLE"]);
    expect(codes({ descriptions: [{ id: 1, type: "full_description", content: { nl: "<p> </p>" } }] })).toEqual(["MISSING_DESCRIPTION"]);
    expect(codes({ descriptions: [] }, { description: { required: false } })).toEqual([]);
    expect(codes({ descriptions: [{ id: 1, type: "full_description", content: { fr: "<p> </p><!-- x -->" } }] })).toEqual(["MISSING_DESCRIPTION"]);
  });

  it("prefers description types in order, per locale", () => {
    const descriptions = [
      { id: 1, type: "usage", content: { fr: "Usage FR" } },
      { id: 2, type: "full_description", content: { en: "Full EN" } },
      { id: 3, type: "full_description", targetGroups: ["pharmacist"], content: { fr: "Pro FR" } },
      { id: 4, type: "indication", content: { fr: "Indication FR" } },
    ];
    expect(item({ descriptions }).item.description).toBe("Indication FR");
    expect(item({ descriptions }, { description: { targetGroup: null } }).item.description).toBe("Pro FR");
    expect(item({ descriptions }, { description: { types: ["usage"] } }).item.description).toBe("Usage FR");
  });

  it("builds the title from the channel's template, says a repeated brand once, cuts on a word", () => {
    expect(item({}, { title: { template: "{{brand}} {{name}} {{packageContent}}" } }).item.title).toBe("Avène Eau thermale spray 300 ml");
    expect(item({ name: { fr: "Avène  Eau thermale" } }).item.title).toBe("Avène Eau thermale");
    expect(item({ name: { fr: "Avènement" } }).item.title).toBe("Avène Avènement");
    const r = item({}, { title: { maxLength: 17 } });
    expect(r.item.title).toBe("Avène Eau");
    expect(r.warnings).toContainEqual({ code: "TITLE_TRUNCATED" });
  });

  it("keeps & < > \" ' and emoji as plain text in title and description", () => {
    const r = item({
      name: { fr: `Crème "5 < 6" & l'été > 😀` },
      descriptions: [{ id: 1, type: "full_description", content: { fr: "<p>A &amp; B &lt; C &quot;x&quot; l&#39;eau 🇫🇷</p>" } }],
    });
    expect(r.item.title).toBe(`Avène Crème "5 < 6" & l'été > 😀`);
    expect(r.item.description).toBe(`A & B < C "x" l'eau 🇫🇷`);
  });

  it("reads the brand name as a plain string or localized, or from the context", () => {
    expect(item({ brands: [{ id: 12, name: { fr: "Avène FR", en: "Avene" } }] }).item.brand).toBe("Avène FR");
    expect(item({ brands: [{ id: 12, name: { en: "Avene" } }] }, { locale: "fr" }).fallbacks).toEqual({ brand: "en" });
    expect(item({ brands: [{ id: 12, name: null }] }).item.brand).toBe("Avène");
    expect(item({ brands: [] }).item.title).toBe("Eau thermale spray");
    expect(codes({ brands: [] }, { brand: { required: true } })).toEqual(["MISSING_BRAND"]);
  });
});

describe("mapProduct identifiers", () => {
  it.each<[Record<string, unknown>, ChannelMappingInput["gtin"], string | undefined, string[]]>([
    [{ eanGtin13: Number(CODES.cip13) }, {}, CODES.cip13, [CODES.cip13]],
    [{ eanGtin13: [CODES.cip13] }, { output: "gtin14" }, `0${CODES.cip13}`, [`0${CODES.cip13}`]],
    [{ eanGtin13: undefined, cip13: undefined, ean: [`0${CODES.cip13}`] }, { output: "as-is" }, `0${CODES.cip13}`, [`0${CODES.cip13}`]],
    [{ eanGtin13: undefined, cip13: undefined, ean: [`0${CODES.cip13}`] }, {}, CODES.cip13, [CODES.cip13]],
    [{ eanGtin13: undefined, cip13: undefined, ean: undefined, eanGtin8: Number(CODES.gtin8), eanGtin12: Number(CODES.upc) }, {}, `0${CODES.upc}`, [`0${CODES.upc}`, CODES.gtin8]],
    [{ eanGtin13: undefined, cip13: undefined, ean: undefined, eanGtin14: CODES.gtin14 }, {}, CODES.gtin14, [CODES.gtin14]],
  ])("%j with %j -> %s", (overrides, gtin, expected, all) => {
    const r = item(overrides, { gtin });
    expect(r.item.gtin).toBe(expected);
    expect(r.item.gtins).toEqual(all);
    expect(r.item.identifierExists).toBe(true);
  });

  const noCodes = { eanGtin13: undefined, ean: undefined, cip13: undefined };
  const badCodes = { eanGtin13: withCheck("200000000001"), ean: ["3012345"], cip13: undefined };

  it("a bad code is never published: INVALID_GTIN with the codes, MISSING_GTIN when there are none", () => {
    const r = run(badCodes);
    expect(r).toEqual({ ok: false, reasons: [{ code: "INVALID_GTIN", detail: `${withCheck("200000000001")} (restricted prefix); 3012345 (length 7)` }] });
    expect(codes(noCodes)).toEqual(["MISSING_GTIN"]);
  });

  it("identifier_exists per Google's rule: no only without a valid GTIN and without both brand and mpn", () => {
    const google = { gtin: { allowIdentifierExistsNo: true } };
    // Bad codes, brand + mpn: identified by brand + mpn, never `no` (Google disapproves it where an identifier exists).
    expect(item(badCodes, google).item).toMatchObject({ gtin: undefined, gtins: [], identifierExists: true, brand: "Avène", mpn: "C52660" });
    // No mpn: published with identifier_exists = no, whether the codes are bad or absent.
    expect(item({ ...badCodes, supplierReference: " " }, google).item).toMatchObject({ gtin: undefined, identifierExists: false, mpn: undefined });
    expect(item({ ...noCodes, supplierReference: undefined }, google).item).toMatchObject({ gtin: undefined, identifierExists: false });
    // No brand: not both brand and mpn.
    expect(item({ ...noCodes, brands: [] }, google).item).toMatchObject({ brand: undefined, identifierExists: false });
    expect(item(noCodes, { gtin: { required: false } }).item).toMatchObject({ gtin: undefined, identifierExists: true });
    // Channels that require a GTIN still leave them out.
    expect(codes({ ...badCodes, supplierReference: " " })).toEqual(["INVALID_GTIN"]);
    expect(codes(noCodes)).toEqual(["MISSING_GTIN"]);
  });

  it("gtin13-only (beslist) publishes only codes with a 13-digit form", () => {
    const mixed = { eanGtin13: undefined, cip13: undefined, ean: undefined, eanGtin8: Number(CODES.gtin8), eanGtin12: CODES.upc, eanGtin14: CODES.gtin14 };
    expect(item(mixed, { gtin: { output: "gtin13-only" } }).item).toMatchObject({ gtin: `0${CODES.upc}`, gtins: [`0${CODES.upc}`] });
    const only8 = { eanGtin13: undefined, cip13: undefined, ean: undefined, eanGtin8: CODES.gtin8 };
    expect(run(only8, { gtin: { output: "gtin13-only" } })).toEqual({
      ok: false,
      reasons: [{ code: "INVALID_GTIN", detail: `${CODES.gtin8} (no 13-digit form)` }],
    });
    // No code at the channel's width, but brand + mpn: identified by those (Google's rule).
    expect(item(only8, { gtin: { output: "gtin13-only", required: false } }).item).toMatchObject({ gtin: undefined, gtins: [], identifierExists: true });
  });

  it("drops a bad code next to a good one, with a warning", () => {
    const r = item({ ean: [CODES.cip13, "3400930000012"] });
    expect(r.item.gtins).toEqual([CODES.cip13]);
    expect(r.warnings).toEqual([{ code: "GTIN_DROPPED", detail: "3400930000012 (check digit)" }]);
  });
});

describe("mapProduct prices and offers", () => {
  it.each([
    [{ publicPrice: null, vat: 21 }, "9.92 EUR"],
    [{ publicPrice: null, vat: 0.21 }, "9.92 EUR"],
    [{ publicPrice: null, vat: 2100 }, "9.92 EUR"],
    [{}, "14.50 EUR"],
  ])("%j -> %s", (overrides, text) => {
    expect(item(overrides).item.price.text).toBe(text);
  });

  it("formats per channel and uses the channel's currency", () => {
    expect(item({}, { price: { decimalSeparator: ",", currency: "none" } }).item.price).toEqual({ cents: 1450, currency: "EUR", text: "14,50", amount: "14.50" });
    expect(item({}, { currency: "GBP" }).item.price.text).toBe("14.50 GBP");
  });

  it("NO_PRICE, INVALID_VAT, INVALID_PRICE exclude", () => {
    expect(codes({ publicPrice: null, manufacturerPrice: null })).toEqual(["NO_PRICE"]);
    expect(codes({ publicPrice: null, vat: 100 })).toEqual(["INVALID_VAT"]);
    expect(codes({ publicPrice: -5, manufacturerPrice: null })).toEqual(["INVALID_PRICE"]);
  });

  const offers = [
    "gtin;price;sale_price;sale_from;sale_until;quantity;link",
    `${CODES.cip13};12,99;9,99;2025-05-01;2025-06-30;4;https://pharmacie.example/p/avene`,
  ].join("\n");

  it("uses the offer's price, sale, stock and link", () => {
    const r = item({}, {}, offers);
    expect(r.item).toMatchObject({
      price: { text: "12.99 EUR" },
      salePrice: { text: "9.99 EUR", cents: 999 },
      salePriceFrom: "2025-05-01T00:00:00Z",
      salePriceUntil: "2025-06-30T23:59:59Z",
      availability: "in_stock",
      stockQuantity: 4,
      link: "https://pharmacie.example/p/avene",
    });
  });

  it("without an offer: `catalogue` sells at the catalogue price, in stock; `skip` leaves it out", () => {
    const other = { eanGtin13: CODES.ean13, ean: [], cip13: undefined, id: "OTHER" };
    expect(item(other, {}, offers).item).toMatchObject({ price: { cents: 1450 }, availability: "in_stock", stockQuantity: undefined });
    expect(codes(other, { offers: { whenMissing: "skip" } }, offers)).toEqual(["NO_OFFER"]);
    // No offers file at all: the policy does not apply.
    expect(codes(other, { offers: { whenMissing: "skip" } })).toEqual([]);
  });

  it("preorder / backorder: availability_date from the offer; without one MISSING_AVAILABILITY_DATE where the channel requires it", () => {
    const dated = "id;availability;availability_date\nM34C3D3A5E;preorder;2026-12-15\n";
    const undated = "id;availability\nM34C3D3A5E;backorder\n";
    const inStock = "id;availability;availability_date\nM34C3D3A5E;in_stock;2026-12-15\n";
    expect(item({}, { offers: { requireAvailabilityDate: true } }, dated).item).toMatchObject({ availability: "preorder", availabilityDate: "2026-12-15T00:00Z" });
    expect(run({}, { offers: { requireAvailabilityDate: true } }, undated)).toMatchObject({ ok: false, reasons: [{ code: "MISSING_AVAILABILITY_DATE", detail: "backorder" }] });
    // Not required: published without a date.
    expect(item({}, {}, undated).item).toMatchObject({ availability: "backorder", availabilityDate: undefined });
    // Only preorder and backorder carry the date.
    expect(item({}, { offers: { requireAvailabilityDate: true } }, inStock).item.availabilityDate).toBeUndefined();
  });

  it("out of stock is published as such unless the channel excludes it", () => {
    const empty = `id;quantity\nM34C3D3A5E;0\n`;
    expect(item({}, {}, empty).item).toMatchObject({ availability: "out_of_stock", stockQuantity: 0 });
    expect(codes({}, { offers: { excludeOutOfStock: true } }, empty)).toEqual(["OUT_OF_STOCK"]);
  });
});

describe("mapProduct eligibility, rules, links, photos", () => {
  it("stops at eligibility reasons", () => {
    expect(run({ status: "replaced", replacement: "M99", descriptions: [] })).toEqual({ ok: false, reasons: [{ code: "REPLACED", detail: "M99" }] });
    expect(codes({ prescription: true })).toEqual(["POLICY_DENIED"]);
    expect(codes({ prescription: true }, { eligibility: { allowPrescription: true } })).toEqual([]);
    expect(codes({ catalogCategories: [{ id: "X", type: "medicine" }] }, { eligibility: { allowMedicines: false } })).toEqual(["POLICY_DENIED"]);
  });

  it("applies exclude and include rules over derived fields and raw paths", () => {
    const exclude = [{ name: "no Avène", field: "brand", op: "eq" as const, value: "Avène" }];
    expect(run({}, { eligibility: { exclude } })).toEqual({ ok: false, reasons: [{ code: "RULE_EXCLUDED", detail: "no Avène" }] });
    expect(codes({}, { eligibility: { exclude: [{ field: "price", op: "lt", value: 20 }] } })).toEqual(["RULE_EXCLUDED"]);
    expect(codes({}, { eligibility: { include: { field: "categoryId", op: "eq", value: 10 } } })).toEqual([]);
    expect(codes({}, { eligibility: { include: { field: "categoryId", op: "eq", value: 20 } } })).toEqual(["RULE_NOT_INCLUDED"]);
    expect(codes({}, { eligibility: { include: { field: "weightWithUnit.unit", op: "in", value: ["g", "kg"] } } })).toEqual([]);
    // Rule reasons come first, content problems after.
    expect(codes({ photos: [] }, { eligibility: { exclude } })).toEqual(["RULE_EXCLUDED", "NO_IMAGE"]);
  });

  it("renders the link template with URL-encoding; a missing value is MISSING_LINK", () => {
    expect(item({ seoName: { fr: "crème été/50 ml" } }).item.link).toBe("https://shop.example/cr%C3%A8me%20%C3%A9t%C3%A9%2F50%20ml-M34C3D3A5E");
    expect(run({ seoName: {} })).toEqual({ ok: false, reasons: [{ code: "MISSING_LINK", detail: "no value for {{seoName}}" }] });
    expect(codes({}, { link: { template: "" } })).toEqual(["MISSING_LINK"]);
    expect(codes({}, { link: { template: "shop/{{id}}" } })).toEqual(["MISSING_LINK"]);
    expect(item({ publicPageUrl: "https://catalogue.example/p/1" }, { link: { template: "{{{publicPageUrl}}}" } }).item.link).toBe("https://catalogue.example/p/1");
  });

  it("NO_IMAGE where the channel requires one; an empty image link where it does not", () => {
    expect(codes({ photos: [] })).toEqual(["NO_IMAGE"]);
    expect(item({ photos: [] }, { images: { required: false } }).item).toMatchObject({ imageLink: "", additionalImageLinks: [] });
    expect(item({ photos: [photo(1), photo(2)] }).item.additionalImageLinks).toEqual([`${ASSET}/huge/00000002.jpeg`]);
  });

  it("id template, INVALID_ID, custom fields, default Google category", () => {
    const r = item({}, { id: { template: "{{id}}-{{locale}}" }, custom: { label: "{{brand}} / {{categoryType}}", cnk: "{{cnk}}" }, categories: { defaultGoogleCategory: 491 } });
    expect(r.item).toMatchObject({ id: "M34C3D3A5E-fr", custom: { label: "Avène / non_medical", cnk: "" }, googleProductCategory: "491" });
    expect(item({ cnk: "3012345" }, { custom: { cnk: "{{cnk}}" } }).item.custom).toEqual({ cnk: "3012345" });
    expect(codes({}, { id: { maxLength: 5 } })).toEqual(["INVALID_ID"]);
  });

  it("collects every content problem at once", () => {
    const r = run({ name: {}, descriptions: [], photos: [], publicPrice: null, manufacturerPrice: null, eanGtin13: null, ean: null, cip13: null });
    expect(r).toEqual({
      ok: false,
      reasons: [{ code: "MISSING_TITLE" }, { code: "MISSING_DESCRIPTION" }, { code: "MISSING_GTIN" }, { code: "NO_PRICE" }, { code: "NO_IMAGE" }],
    });
  });
});

describe("mapProduct is total and stable", () => {
  it("gives the same result for a compiled channel and plain settings, run after run", () => {
    const settings = channel();
    const ctx = context();
    const p = product();
    const a = mapProduct(p, settings, ctx);
    const b = mapProduct(p, compileChannel(settings), ctx);
    const c = mapProduct(p, settings, ctx);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it("gives the same items product-major and channel-major (the facts slot only caches)", () => {
    const offers = parseOffers(`id;price\nA;9,99\n`, "csv").offers;
    const products = [product({ id: "A" }), product({ id: "B", eanGtin13: CODES.ean13, ean: [], cip13: undefined, publicPrice: 999 })];
    const channels = [channel(), channel({ locale: "en", price: { currency: "none" } })];
    const byProduct = context({ offers });
    const a = products.flatMap((p) => channels.map((c) => mapProduct(p, c, byProduct)));
    const byChannel = context({ offers });
    const b = channels.flatMap((c) => products.map((p) => mapProduct(p, c, byChannel)));
    expect([b[0], b[2], b[1], b[3]]).toEqual(a);
    expect(a.map((r) => (r.ok ? r.item.price.text : "")).join("|")).toBe("9.99 EUR|9.99|9.99 EUR|9.99");
  });

  it("keeps descriptions as text for the product in hand only: the memo does not grow with the catalogue", () => {
    const ctx = context();
    const channels = [channel(), channel({ description: { maxLength: 10 } })];
    const withDescription = (id: string, html: string) =>
      product({ id, descriptions: [{ id: 1, type: "full_description", locales: ["fr"], targetGroups: ["public"], content: { fr: html } }] });
    for (let i = 0; i < 50; i++) {
      const p = withDescription(`P${i}`, `<p>Texte numéro ${i} &amp; plus.</p>`);
      const texts = channels.map((c) => {
        const r = mapProduct(p, c, ctx);
        return r.ok ? r.item.description : r.reasons[0]?.code;
      });
      expect(texts).toEqual([`Texte numéro ${i} & plus.`, expect.stringMatching(/^Texte num/)]);
      expect(productHtml(ctx.memo.catalogue, p).size).toBe(1);
    }
  });

  it("never throws, whatever the product holds", () => {
    const junk = fc.dictionary(
      fc.constantFrom("name", "brands", "photos", "descriptions", "ean", "eanGtin13", "vat", "publicPrice", "publicCategories", "status", "seoName", "catalogCategories", "leaflets", "packageContent", "weightWithUnit", "frontals"),
      fc.anything(),
    );
    const settings = channel({ images: { required: false } });
    fc.assert(
      fc.property(junk, (fields) => {
        const r = mapProduct({ id: "X", ...fields } as Product, settings, context());
        expect(typeof r.ok).toBe("boolean");
      }),
      { numRuns: 500 },
    );
  });
});
