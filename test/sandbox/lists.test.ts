/** The reference-list endpoints and the two create endpoints. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASIC_KEY, createCatalogue, HIDDEN, type Catalogue } from "../../src/sandbox/index.js";
import { basic, open, type Api } from "./helpers.js";

let api: Api;
let catalogue: Catalogue;
type R = Record<string, unknown>;

beforeAll(async () => {
  api = await open({ products: 100, seed: 9 });
  catalogue = createCatalogue({ seed: 9, products: 100, assetBaseUrl: api.sandbox.url });
});
afterAll(() => api.sandbox.close());

async function results(path: string, body: unknown): Promise<R[]> {
  const { status, body: out } = await api.json(path, body);
  expect(status).toBe(200);
  return out.results as R[];
}
const idsOf = (list: readonly R[]) => list.map((r) => r.id);

describe("reference lists", () => {
  const all: [string, () => readonly R[]][] = [
    ["/v4/brands/query", () => catalogue.brands],
    ["/v4/product-families/query", () => catalogue.productFamilies],
    ["/v4/active-ingredients/query", () => catalogue.activeIngredients],
    ["/v4/public-categories/query", () => catalogue.publicCategories],
    ["/v4/catalog-categories/query", () => catalogue.catalogCategories],
    ["/v4/organizations/query", () => catalogue.organizations],
    ["/v4/users/query", () => catalogue.users],
    ["/v4/updates/query", () => catalogue.updates],
    ["/v4/corrections/query", () => catalogue.corrections],
  ];

  it.each(all)("%s without a body returns every record, id order, no meta.page", async (path, records) => {
    const { status, body } = await api.json(path, undefined);
    expect(status).toBe(200);
    expect(body.meta).toEqual({ total: records().length });
    expect(idsOf(body.results as R[])).toEqual(idsOf(records()));
    expect(JSON.stringify(body.results)).not.toContain("vatNr");
  });

  it.each(all)("%s pages", async (path, records) => {
    const { body } = await api.json(path, { page: { no: 1, size: 10 } });
    expect(body.meta).toEqual({ total: records().length, page: { no: 1, offset: 10, size: 10 } });
    expect(idsOf(body.results as R[])).toEqual(idsOf(records().slice(10, 20)));
  });

  it("brands: id, search and name sorting", async () => {
    const brands = catalogue.brands as R[];
    expect(idsOf(await results("/v4/brands/query", { filter: { id: [2003, 2001] } }))).toEqual([2001, 2003]);
    const needle = String(brands[7]?.name).slice(0, 4).toUpperCase();
    expect(idsOf(await results("/v4/brands/query", { filter: { search: needle } }))).toEqual(idsOf(brands.filter((b) => String(b.name).toLowerCase().includes(needle.toLowerCase()))));
    const byName = [...brands].map((b, i) => ({ b, i })).sort((x, y) => { const a = String(x.b.name).toLowerCase(); const c = String(y.b.name).toLowerCase(); return a < c ? 1 : a > c ? -1 : x.i - y.i; });
    expect(idsOf(await results("/v4/brands/query", { sorting: { name: "DESC" } }))).toEqual(byName.map((x) => x.b.id));
    expect(brands.some((b) => /[&'",]/.test(String(b.name)))).toBe(true);
  });

  it("every brand, family, ingredient, category and organization a product cites exists", () => {
    const have = (list: readonly R[]) => new Set(list.map((r) => r.id));
    const sets = { brands: have(catalogue.brands), productFamily: have(catalogue.productFamilies), activeIngredients: have(catalogue.activeIngredients), publicCategories: have(catalogue.publicCategories), catalogCategories: have(catalogue.catalogCategories), organizations: have(catalogue.organizations) };
    for (const p of catalogue.products()) {
      for (const [key, set] of Object.entries(sets)) for (const ref of (p[key] as R[]) ?? []) expect(set.has(ref.id)).toBe(true);
    }
    for (const c of [...catalogue.publicCategories, ...catalogue.catalogCategories]) if (c.parent !== null) expect(sets.publicCategories.has(c.parent) || sets.catalogCategories.has(c.parent)).toBe(true);
  });

  it("public and catalog categories: parent, type, search", async () => {
    expect(idsOf(await results("/v4/public-categories/query", { filter: { parent: 501 } }))).toEqual(idsOf(catalogue.publicCategories.filter((c) => c.parent === 501)));
    expect(idsOf(await results("/v4/catalog-categories/query", { filter: { and: [{ type: "medicine" }, { not: { parent: "MED" } }] } }))).toEqual(["MED"]);
    expect(idsOf(await results("/v4/catalog-categories/query", { filter: { type: "veterinary_medicine" } }))).toEqual(["VET", "VET-PARA"]);
    expect(idsOf(await results("/v4/active-ingredients/query", { filter: { search: { query: "AZÉP", locale: "fr" } } }))).toEqual(idsOf(catalogue.activeIngredients.filter((a) => String((a.name as R).fr).includes("azép"))));
  });

  it("active-ingredients and public-categories have no sorting", async () => {
    const { status, body } = await api.json("/v4/active-ingredients/query", { sorting: { id: "ASC" } });
    expect(status).toBe(422);
    expect((body.error as { violations: { path: string }[] }).violations[0]?.path).toBe("sorting");
  });

  it("users: organization and the organization's vatNr", async () => {
    const user = catalogue.users[5] as R;
    const org = catalogue.organizations.find((o) => o.id === user.organization);
    const vat = org?.[HIDDEN].vatNr as string;
    const expected = catalogue.users.filter((u) => catalogue.organizations.find((o) => o.id === u.organization)?.[HIDDEN].vatNr === vat);
    expect(idsOf(await results("/v4/users/query", { filter: { vatNr: vat } }))).toEqual(idsOf(expected));
    expect(idsOf(await results("/v4/users/query", { filter: { organization: user.organization }, sorting: { id: "DESC" } }))).toEqual(idsOf(catalogue.users.filter((u) => u.organization === user.organization)).reverse());
  });

  it("updates: newsType, product, sortOrder", async () => {
    const productUpdates = catalogue.updates.filter((u) => u.type === "product");
    expect(idsOf(await results("/v4/updates/query", { filter: { newsType: "product" } }))).toEqual(idsOf(productUpdates));
    const pid = (productUpdates[0]?.products as string[])[0] as string;
    expect(idsOf(await results("/v4/updates/query", { filter: { product: pid } }))).toEqual(idsOf(catalogue.updates.filter((u) => ((u.products as string[]) ?? []).includes(pid))));
    const sorted = [...catalogue.updates].map((u, i) => ({ u, i })).sort((a, b) => a.u[HIDDEN].sortOrder - b.u[HIDDEN].sortOrder || a.i - b.i).map((x) => x.u.id);
    expect(idsOf(await results("/v4/updates/query", { sorting: { sortOrder: "ASC" } }))).toEqual(sorted);
  });

  it("corrections: status handled means solved or closed; product ids exist", async () => {
    expect(idsOf(await results("/v4/corrections/query", { filter: { status: "handled" } }))).toEqual(idsOf(catalogue.corrections.filter((c) => c.status === "solved" || c.status === "closed")));
    for (const c of catalogue.corrections) expect(catalogue.indexOf(c.product as string)).toBeGreaterThanOrEqual(0);
  });
});

describe("create endpoints", () => {
  const user = { email: "anne@example.com", role: "software_developer", organization: 1001, profile: { name: "Anne" }, preferences: { language: "fr" }, subscription: { type: 3 } };

  it("users/create: the main key creates, the user shows in users/query", async () => {
    const { status, body } = await api.json("/v4/users/create", user);
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: "Anne", organization: 1001 });
    const found = await results("/v4/users/query", { filter: { id: body.id } });
    expect(found).toHaveLength(1);
  });

  it("the basic key's subscription may not create", async () => {
    for (const path of ["/v4/users/create", "/v4/organizations/create"]) {
      const res = await api.post(path, user, { auth: basic(BASIC_KEY.id, BASIC_KEY.secret) });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("authorization.subscription_required");
    }
  });

  it("validates the documented fields with JSON paths", async () => {
    const { status, body } = await api.json("/v4/users/create", { ...user, role: "admin", profile: {}, preferences: { language: "fr", extra: 1 } });
    expect(status).toBe(422);
    expect((body.error as { violations: { path: string }[] }).violations.map((v) => v.path).sort()).toEqual(["preferences.extra", "profile.name", "role"]);
    const org = await api.json("/v4/organizations/create", { profile: { name: "X", country: "Belgium" } });
    expect(org.status).toBe(422);
    expect((org.body.error as { violations: { path: string }[] }).violations.map((v) => v.path)).toEqual(["profile.country"]);
  });

  it("organizations/create, then a user of that organization", async () => {
    const { status, body } = await api.json("/v4/organizations/create", { profile: { name: "Pharmacie & Co", type: "supplier", country: "BE", vatNr: "BE0123456789" } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: { fr: "Pharmacie & Co" }, type: "supplier", contactInformation: { country: "BE" } });
    expect(idsOf(await results("/v4/organizations/query", { filter: { id: body.id } }))).toEqual([body.id]);
    const created = await api.json("/v4/users/create", { ...user, organization: body.id });
    expect(created.status).toBe(200);
    expect(idsOf(await results("/v4/users/query", { filter: { vatNr: "BE0123456789" } }))).toEqual([created.body.id]);
  });
});
