import { describe, expect, it } from "vitest";
import {
  ActiveIngredient,
  Brand,
  CatalogCategory,
  Correction,
  CreateOrganizationRequest,
  CreateUserRequest,
  ErrorBody,
  MediaItem,
  NewsItem,
  Organization,
  Product,
  ProductFamily,
  PublicCategory,
  QueryResponse,
  StreamLine,
  User,
} from "../../src/catalogue/schemas/index.js";
import { wireProduct } from "./fixtures/wire.js";

describe("Product wire shapes", () => {
  it("accepts every ambiguous shape and keeps raw values and unknown fields", () => {
    const product = Product.parse(wireProduct);
    expect(product).toEqual(wireProduct);
    expect(product.cnk).toBe("3612173");
    expect(product.ean).toEqual(["3282770049374", 3282770049374, "03282770049374"]);
    expect(product.eanGtin14).toEqual(["03282770049374"]);
    expect(product.weightWithUnit?.value).toBe(0.37);
    expect(product.publicPrice).toBe(1450);
  });

  it.each([21, 0.21, 2100])("keeps vat %s as sent (the mapping normalises the scale)", (vat) => {
    expect(Product.parse({ id: "M1", vat }).vat).toBe(vat);
  });

  it("accepts brand names as strings and as localized objects", () => {
    const brands = Product.parse(wireProduct).brands ?? [];
    expect(brands.map((brand) => brand.name)).toEqual(["A-Derma", { fr: "Avène", nl: "Avène" }]);
  });

  it("accepts a localized string with a missing, empty or null locale", () => {
    expect(Product.parse({ id: "M1", name: { fr: "", nl: null } }).name).toEqual({ fr: "", nl: null });
  });

  it("accepts the minimal record: only id is required", () => {
    expect(Product.parse({ id: "M1" })).toEqual({ id: "M1" });
  });

  it.each([
    [{ status: "active" }, "id"],
    [{ id: "" }, "id"],
    [{ id: 12 }, "id"],
    [{ id: "M1", ean: "3282770049374" }, "ean"],
    [{ id: "M1", publicPrice: "14.50" }, "publicPrice"],
    [{ id: "M1", brands: [{ id: "9", name: "A" }] }, "brands.0.id"],
    [{ id: "M1", photos: [{ id: 1, formats: ["https://x"] }] }, "photos.0.formats"],
  ])("refuses %j at %s", (record, path) => {
    const parsed = Product.safeParse(record);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path.join(".")).toBe(path);
  });
});

describe("reference records", () => {
  it("brands: name string (query) or localized, logo nullable", () => {
    expect(Brand.parse({ id: 1, name: "Avène", logo: null, meta: { createdAt: 1, updatedAt: 2 } }).name).toBe("Avène");
    expect(Brand.parse({ id: 1, name: { fr: "Avène" }, extra: true })).toEqual({ id: 1, name: { fr: "Avène" }, extra: true });
    expect(Brand.safeParse({ id: "1", name: "x" }).success).toBe(false);
  });

  it("product families, active ingredients, public and catalog categories", () => {
    expect(ProductFamily.parse({ id: 3, name: { fr: "Gamme" } }).id).toBe(3);
    expect(ActiveIngredient.parse({ id: 4, name: { fr: "Paracétamol" }, meta: { createdAt: 1 } }).id).toBe(4);
    expect(PublicCategory.parse({ id: 5, name: { fr: "Soins" }, parent: 1, order: 2 }).order).toBe(2);
    expect(CatalogCategory.parse({ id: "cat-1", parent: null, type: "medicine", description: { fr: "d" } }).parent).toBeNull();
    expect(CatalogCategory.safeParse({ id: 1 }).success).toBe(false);
  });

  it("organizations with and without contact information", () => {
    const supplier = Organization.parse({
      id: 44,
      name: { fr: "Pierre Fabre" },
      type: "supplier",
      contactInformation: { country: "FR", email: "x@example.test" },
    });
    expect(supplier.contactInformation?.country).toBe("FR");
    expect(Organization.parse({ id: 45, type: "marketing" }).contactInformation).toBeUndefined();
  });

  it("news items, corrections (any status) and users", () => {
    const news = NewsItem.parse({ id: 1, type: "brand", organization: 44, title: { fr: "Nouveau" }, content: [{ locales: ["fr"], body: "x" }], brands: [9] });
    expect(news.content?.[0]).toEqual({ locales: ["fr"], body: "x" });
    for (const status of ["open", "in_progress", "solved", "closed", "handled"]) {
      expect(Correction.parse({ id: 1, product: "M1", status, text: "typo" }).status).toBe(status);
    }
    expect(User.parse({ id: 7, name: "Ann", organization: 44 }).organization).toBe(44);
  });

  it("media items: photo, frontal, link", () => {
    expect(MediaItem.parse({ id: 1, type: "photo", photoType: "lifestyle_image", formats: { largeWebp: "https://x" }, visibleSides: ["front"] }).type).toBe("photo");
    expect(MediaItem.parse({ id: 2, type: "link", linkType: "brochure", url: "https://x", available: { from: 1, until: 2 } }).available).toEqual({ from: 1, until: 2 });
    expect(MediaItem.safeParse({ id: 3 }).success).toBe(false);
  });
});

describe("envelopes", () => {
  it("query responses with and without meta.page", () => {
    expect(QueryResponse.parse({ meta: { total: 2 }, results: [{}, {}] }).meta.page).toBeUndefined();
    expect(QueryResponse.parse({ meta: { total: 2, page: { no: 0, offset: 0, size: 10 } }, results: [] }).meta.page?.size).toBe(10);
    expect(QueryResponse.safeParse({ results: [] }).success).toBe(false);
  });

  it("stream lines: outer meta is {total, index}, the record keeps its own meta", () => {
    const line = StreamLine.parse({ meta: { total: 2, index: 1 }, result: { id: "M1", meta: { createdAt: 1 } } });
    expect(line.meta).toEqual({ total: 2, index: 1 });
    expect(StreamLine.safeParse({ meta: { total: 2 }, result: {} }).success).toBe(false);
  });

  it("error bodies, with violations on a 422", () => {
    const error = ErrorBody.parse({ error: { status: 401, code: "authentication.not_authenticated", message: "no" } });
    expect(error.error.code).toBe("authentication.not_authenticated");
    expect(ErrorBody.parse({ error: { status: 422, code: "validation", violations: [{ path: "email" }] } }).error.violations).toHaveLength(1);
  });
});

describe("write requests", () => {
  const user = {
    email: "ann@example.test",
    role: "software_developer",
    organization: 44,
    profile: { name: "Ann" },
    preferences: { language: "fr" },
    subscription: { type: 3 },
  } as const;

  it("accepts the documented user and organization bodies", () => {
    expect(CreateUserRequest.parse(user)).toEqual(user);
    expect(CreateOrganizationRequest.parse({ profile: { name: "Pharmacie", country: "BE", type: "other" }, settings: { isPublic: false } }).profile.name).toBe("Pharmacie");
  });

  it.each([
    [{ ...user, role: "admin" }, "role"],
    [{ ...user, email: "not-an-email" }, "email"],
    [{ ...user, profile: {} }, "profile.name"],
    [{ ...user, nickname: "x" }, ""],
  ])("refuses a bad user body at %s", (body, path) => {
    const parsed = CreateUserRequest.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path.join(".")).toBe(path);
  });

  it("refuses an organization without a name or with a bad country", () => {
    expect(CreateOrganizationRequest.safeParse({ profile: {} }).success).toBe(false);
    expect(CreateOrganizationRequest.safeParse({ profile: { name: "x", country: "Belgium" } }).success).toBe(false);
  });
});
