import { describe, expect, it } from "vitest";
import { filters, sortings } from "../../src/catalogue/query/builders.js";
import { RESOURCES, type ResourceName } from "../../src/catalogue/query/resources.js";
import { validateQueryBody, type QueryBody } from "../../src/catalogue/query/validate.js";
import { isPharmafeedError, type PharmafeedError } from "../../src/errors.js";

function refusal(resource: ResourceName, body: unknown, kind: "query" | "stream" = "query"): PharmafeedError {
  try {
    validateQueryBody(RESOURCES[resource], kind, body as QueryBody);
  } catch (error) {
    if (isPharmafeedError(error, "QUERY_INVALID")) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(body)} to be refused`);
}

function accepts(resource: ResourceName, body: unknown, kind: "query" | "stream" = "query"): void {
  expect(() => validateQueryBody(RESOURCES[resource], kind, body as QueryBody)).not.toThrow();
}

const page = { no: 0, size: 100 };
const byId = { id: "ASC" };

describe("product filters", () => {
  const p = filters.products;
  it("accepts every documented product filter", () => {
    const all = [
      p.id(["M34C3D3A5E", "M5489B0D8B"]),
      p.status(["active", "inactive", "replaced"]),
      p.ecommerce("yes"),
      p.organization([2, 15]),
      p.publicCategory(12),
      p.catalogCategories(["c1"]),
      p.brand([14, 3]),
      p.productFamily(4),
      p.search({ query: "crème", locale: "fr", type: "contains" }),
      p.minimumContent(true),
      p.hasContent({ flag: "descriptions.usage", locale: "fr" }),
      p.ean(["3574660696318", 3574660696318]),
      p.gtin("03664798014846"),
      p.eanGtin8("01234567"),
      p.eanGtin12(["123456789012"]),
      p.eanGtin13("0012345678901"),
      p.eanGtin14(1234567890123),
      p.hsCode(["010203", 10204]),
      p.cisCode("60002283"),
      p.ospId(1),
      p.cbId(7),
      p.cipOrAcl7(3400930),
      p.acl13("3401097354510"),
      p.cip13(3400930000001),
      p.codeActe("PH7"),
      p.rateOfReimbursement(65),
      p.galenicShape(["CPR"]),
      p.activeIngredient([1, 2]),
      p.conservation(["room", "frozen"]),
      p.maximumDispenseQuantity({ value: 3, operator: "lte" }),
      p.allowedSpecies(["human", "veterinary"]),
      p.atcCategory("BC01D"),
      p.prescription(false),
      p.ospCategory("x"),
      p.narcotic("assimilated"),
      p.narcotic(false),
      p.biocide("unknown"),
      p.attributes([1, 2]),
      p.dietaryRestrictions("vegan"),
      p.colors(["red"]),
      p.notApplicableField(["productFamily"]),
      p.officialDeletionAt({ from: 1471525605, until: 1571525605 }),
      p.createdAt(1471525605),
      p.updatedSince({ from: 1471525605 }),
    ];
    expect(all.length).toBe(44);
    accepts("products", { filter: p.and(...all), sorting: byId, page }, "query");
    accepts("products", { filter: p.or(p.status("active"), p.not(p.and(p.brand(1), p.not(p.prescription(true))))), sorting: byId }, "stream");
  });

  it("accepts every product sorting", () => {
    const s = sortings.products;
    for (const sorting of [s.id("DESC"), s.name({ direction: "ASC", locale: "fr" }), s.createdAt("ASC"), s.touchedAt("ASC"), s.statusTouchedAt("DESC"), s.status("ASC")]) {
      accepts("products", { filter: { status: "active" }, sorting }, "stream");
    }
  });

  it.each([
    [{ filter: { status: "active" }, sorting: byId, page: { no: 0, size: 20 } }, "page.size", /10, 50, 100, 250/],
    [{ filter: { status: "no_selection" }, sorting: byId, page }, "filter.status", /expected one of/],
    [{ filter: { and: [{ status: "active" }, { colour: "red" }] }, sorting: byId, page }, "filter.and[1]", /unknown filter "colour"/],
    [{ filter: { or: [{ not: { status: ["active", "gone"] } }] }, sorting: byId, page }, "filter.or[0].not.status[1]", /expected one of/],
    [{ filter: { status: "active", brand: 4 }, sorting: byId, page }, "filter", /exactly one key/],
    [{ filter: { and: [] }, sorting: byId, page }, "filter.and", /non-empty/],
    [{ filter: { not: {} }, sorting: byId, page }, "filter.not", /empty filter/],
    [{ filter: { eanGtin13: "123" }, sorting: byId, page }, "filter.eanGtin13", /13 digits/],
    [{ filter: { codeActe: "PH3" }, sorting: byId, page }, "filter.codeActe", /expected one of/],
    [{ filter: { rateOfReimbursement: 120 }, sorting: byId, page }, "filter.rateOfReimbursement", /100/],
    [{ filter: { createdAt: {} }, sorting: byId, page }, "filter.createdAt", /from, until/],
    [{ filter: { status: "active" }, sorting: { name: "ASC" }, page }, "sorting.name", /object/],
    [{ filter: { status: "active" }, sorting: { price: "ASC" }, page }, "sorting", /unknown sorting "price"/],
    [{ filter: { status: "active" }, sorting: { id: "asc" }, page }, "sorting.id", /ASC/],
    [{ filter: { status: "active" }, page }, "sorting", /required/],
    [{ filter: { status: "active" }, sorting: byId }, "page", /required/],
    [{ filter: { status: "active" }, sorting: byId, page: { no: -1 } }, "page.no", /0/],
  ])("refuses %j at %s", (body, path, message) => {
    const error = refusal("products", body);
    expect(error.context.path).toBe(path);
    expect(error.message).toMatch(message);
    expect(error.message).toContain(path);
  });

  it("accepts {} at the top as 'no condition' (every status)", () => {
    accepts("products", { filter: {}, sorting: byId }, "stream");
  });

  it("refuses a page on a stream", () => {
    expect(refusal("products", { filter: { status: "active" }, sorting: byId, page }, "stream").message).toMatch(/takes no "page"/);
  });
});

describe("media filters", () => {
  const m = filters.media;
  it("accepts every documented media filter and sorting", () => {
    const all = [
      m.published(true),
      m.organization(1),
      m.organization("1"),
      m.targetGroup(["pharmacist", "doctor"]),
      m.type("frontal"),
      m.photoType("packshot"),
      m.linkType("brochure"),
      m.visibleSides(["front", "left"]),
      m.createdAt(1),
      m.updatedSince({ until: 2 }),
      m.product("M5489B0D8B"),
      m.available(true),
      m.locale(["en", "fr"]),
    ];
    for (const sorting of [sortings.media.id("ASC"), sortings.media.createdAt("DESC"), sortings.media.touchedAt("ASC")]) {
      accepts("media", { filter: m.and(...all), sorting }, "stream");
    }
  });

  it("refuses a wrong media type and a product sorting", () => {
    expect(refusal("media", { filter: { type: "video" }, sorting: byId }, "stream").context.path).toBe("filter.type");
    expect(refusal("media", { filter: { type: "photo" }, sorting: { status: "ASC" } }, "stream").context.path).toBe("sorting");
  });
});

describe("reference filters", () => {
  it("accepts the documented filters and sortings of each query", () => {
    const u = filters.updates;
    accepts("updates", {
      filter: u.and(u.id(3), u.organization([1]), u.newsType(["brand", "product"]), u.createdAt(1), u.updatedSince(2), u.locale("fr"), u.product("M1"), u.publicCategory([4]), u.brand(5), u.targetGroup("public")),
      sorting: sortings.updates.sortOrder("DESC"),
      page,
    });
    accepts("brands", { filter: filters.brands.or(filters.brands.id([1, 2]), filters.brands.search("pharma")), sorting: sortings.brands.name("ASC") });
    accepts("product-families", { filter: filters.productFamilies.id(1), sorting: sortings.productFamilies.id("DESC") });
    accepts("active-ingredients", { filter: filters.activeIngredients.search({ query: "para", locale: "fr" }) });
    const c = filters.corrections;
    accepts("corrections", {
      filter: c.and(c.product("M1"), c.status("handled"), c.organization(2), c.search("x"), c.locale(["fr"]), c.type("typo"), c.createdBy(9), c.createdAt({ from: 1 })),
      sorting: sortings.corrections.touchedAt("ASC"),
    });
    const us = filters.users;
    accepts("users", { filter: us.and(us.id([1]), us.organization(2), us.vatNr("BE0123"), us.finessNr("F1"), us.cipNr(123)), sorting: sortings.users.id("ASC") });
    accepts("users", {});
    accepts("public-categories", { filter: { parent: 1 } });
    accepts("organizations", { filter: { type: "supplier" }, page: { no: 2, size: 250 } });
  });

  it.each([
    ["active-ingredients", { sorting: { id: "ASC" } }, "(body)", /takes no "sorting"/],
    ["active-ingredients", { filter: { search: "para" } }, "filter.search", /object/],
    ["brands", { filter: { search: { query: "x", locale: "fr" } } }, "filter.search", /string/],
    ["corrections", { sorting: { id: "ASC" } }, "sorting", /unknown sorting "id"/],
    ["corrections", { filter: { status: "solved" } }, "filter.status", /expected one of/],
    ["updates", { filter: { newsType: "video" } }, "filter.newsType", /expected one of/],
    ["updates", { filter: { id: [1, 2] } }, "filter.id", /number/],
    ["users", { filter: { organization: [1, 2] } }, "filter.organization", /number/],
    ["brands", { page: { no: 0, size: 1000 } }, "page.size", /10, 50, 100, 250/],
    ["organizations", { page: { no: 0, size: 20 } }, "page.size", /10, 50, 100, 250/],
  ] as const)("%s refuses %j at %s", (resource, body, path, message) => {
    const error = refusal(resource, body);
    expect(error.context.path).toBe(path);
    expect(error.message).toMatch(message);
  });
});
