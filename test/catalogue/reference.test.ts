import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogueClient, type CatalogueClient } from "../../src/catalogue/client.js";
import { BASIC_KEY } from "../../src/sandbox/index.js";
import { isPharmafeedError, type PharmafeedError } from "../../src/errors.js";
import { collect, CONTACT, FAST_RETRY, world, type World } from "./helpers.js";

let w: World;
beforeAll(async () => {
  w = await world({ products: 60 });
});
afterAll(async () => {
  await w.close();
});

const idsOf = (records: readonly unknown[]) => records.map((record) => (record as { id: unknown }).id);

async function refusal(promise: Promise<unknown>): Promise<PharmafeedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isPharmafeedError(error)) throw new Error(`expected a PharmafeedError, got ${String(error)}`);
  return error;
}

describe("reference data (unpaged queries)", () => {
  it("returns every record of each list, validated, in id order", async () => {
    const lists = [
      [await w.client.brands(), w.catalogue.brands],
      [await w.client.productFamilies(), w.catalogue.productFamilies],
      [await w.client.activeIngredients(), w.catalogue.activeIngredients],
      [await w.client.publicCategories(), w.catalogue.publicCategories],
      [await w.client.catalogCategories(), w.catalogue.catalogCategories],
      [await w.client.organizations(), w.catalogue.organizations],
      [await w.client.updates(), w.catalogue.updates],
      [await w.client.corrections(), w.catalogue.corrections],
      [await w.client.users(), w.catalogue.users],
    ] as const;
    for (const [got, expected] of lists) {
      expect(got.rejections).toEqual([]);
      expect(idsOf(got.results)).toEqual(idsOf(expected));
      expect(got.total).toBe(expected.length);
    }
  });

  it("passes filters and sortings through", async () => {
    const brands = await w.client.brands({ sorting: { id: "DESC" } });
    expect(idsOf(brands.results)).toEqual(idsOf(w.catalogue.brands).reverse());
    const some = idsOf(w.catalogue.brands).slice(0, 3) as number[];
    expect(idsOf((await w.client.brands({ filter: { id: some } })).results)).toEqual(some);
    const suppliers = await w.client.organizations({ filter: { type: "supplier" } });
    expect(suppliers.results.every((organization) => organization.type === "supplier")).toBe(true);
  });

  it("splits an id list over 1000 and merges without duplicates", async () => {
    const real = idsOf(w.catalogue.brands) as number[];
    const ids = [...real, ...Array.from({ length: 1500 }, (_, i) => 900_000 + i), ...real];
    const brands = await w.client.brands({ filter: { or: [{ id: ids }, { id: real.slice(0, 2) }] } });
    expect(brands.stats.parts).toBe(2);
    expect(idsOf(brands.results)).toEqual(real);
  });

  it("pages through a list with queryAll", async () => {
    const pages = await collect(w.client.queryAll("brands", { pageSize: 10 }));
    expect(pages.flatMap((page) => idsOf(page.results))).toEqual(idsOf(w.catalogue.brands));
    expect(pages.length).toBe(Math.ceil(w.catalogue.brands.length / 10));
  });

  it("reports the API's 422 with its code and violations, without retrying", async () => {
    const before = w.sandbox.stats.requests;
    const error = await refusal(w.client.publicCategories({ filter: { colour: "red" } }));
    expect(error.code).toBe("SOURCE_HTTP");
    expect(error.message).toMatch(/HTTP 422 request\.invalid/);
    expect(error.context.violations).toEqual([expect.objectContaining({ path: "filter.colour" })]);
    expect(w.sandbox.stats.requests).toBe(before + 1);
  });
});

describe("streamMedia", () => {
  it("delivers every media item once, in id order, with the client's User-Agent accepted", async () => {
    const items = await collect(w.client.streamMedia({ filter: {}, sorting: { id: "ASC" } }));
    const expected = [...w.catalogue.media()].map((item) => item.id);
    expect(items.map((item) => item.id)).toEqual([...expected].sort((a, b) => (a as number) - (b as number)));
    const photos = await collect(w.client.streamMedia({ filter: { type: "photo" }, sorting: { id: "DESC" } }));
    expect(photos.length).toBeGreaterThan(0);
    expect(photos.every((item) => item.type === "photo")).toBe(true);
  });

  it("sends pharmafeed/<version> (<contact>) as User-Agent", () => {
    expect(w.client.userAgent).toMatch(new RegExp(`^pharmafeed/\\d+\\.\\d+\\.\\d+ \\(${CONTACT.replace(".", "\\.")}\\)$`));
  });
});

describe("create calls", () => {
  const user = {
    email: "ann@example.test",
    role: "software_developer",
    organization: 0,
    profile: { name: "Ann" },
    preferences: { language: "fr" },
    subscription: { type: 3 },
  } as const;

  it("creates an organization, then a user in it, both visible in the queries", async () => {
    const organization = (await w.client.createOrganization({ profile: { name: "Pharmacie Test", country: "BE", type: "other" } })) as { id: number };
    expect(organization.id).toEqual(expect.any(Number));
    const created = (await w.client.createUser({ ...user, organization: organization.id })) as { id: number };
    expect(idsOf((await w.client.users()).results)).toContain(created.id);
    expect(idsOf((await w.client.organizations()).results)).toContain(organization.id);
  });

  it("refuses a bad body before any request", async () => {
    const before = w.sandbox.stats.requests;
    const error = await refusal(w.client.createUser({ ...user, role: "admin" as never }));
    expect(error.code).toBe("QUERY_INVALID");
    expect(error.message).toContain("role");
    expect(w.sandbox.stats.requests).toBe(before);
  });

  it("a subscription without the right gives SOURCE_AUTH with the API's code", async () => {
    const basic: CatalogueClient = createCatalogueClient({ baseUrl: w.sandbox.url, keyId: BASIC_KEY.id, keySecret: BASIC_KEY.secret, contact: CONTACT, retry: FAST_RETRY });
    try {
      const error = await refusal(basic.createOrganization({ profile: { name: "Nope" } }));
      expect(error.code).toBe("SOURCE_AUTH");
      expect(error.message).toMatch(/HTTP 403 authorization\.subscription_required/);
    } finally {
      await basic.close();
    }
  });
});
