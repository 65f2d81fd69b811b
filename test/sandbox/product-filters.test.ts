/**
 * Every product filter of the spec, against the tests' own evaluation over
 * catalogue.products() (see oracle.ts), through products/stream.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogue, HIDDEN } from "../../src/sandbox/index.js";
import { open, type Api } from "./helpers.js";
import { arr, chains, codes, hasText, ids, minimumContent, narcotic, speciesCodes, type P } from "./oracle.js";
import { CATALOGUE_NOW_FOR_TESTS } from "./values.js";

const N = 500;
let api: Api;
let products: P[];
let publicChains: Map<unknown, unknown[]>;
let catalogChains: Map<unknown, unknown[]>;

beforeAll(async () => {
  api = await open({ products: N, seed: 11 });
  const catalogue = createCatalogue({ seed: 11, products: N, assetBaseUrl: api.sandbox.url });
  products = [...catalogue.products()];
  publicChains = chains(catalogue.publicCategories as never);
  catalogChains = chains(catalogue.catalogCategories as never);
});
afterAll(() => api.sandbox.close());

async function streamIds(filter: unknown, sorting: unknown = { id: "ASC" }): Promise<string[]> {
  const { status, lines } = await api.lines("/v4/products/stream", { filter, sorting });
  expect([200, 204]).toContain(status);
  return lines.map((l) => l.result.id as string);
}

function expected(pred: (p: P) => boolean): string[] {
  return products.filter(pred).map((p) => p.id as string);
}

/** The first product for which `pick` gives a value, and that value. */
function sample<T>(pick: (p: P) => T | undefined): T {
  for (const p of products) {
    const v = pick(p);
    if (v !== undefined) return v;
  }
  throw new Error("no product has such a value");
}

type Case = [name: string, filter: () => unknown, pred: () => (p: P) => boolean];

const cases: Case[] = [
  ["id", () => ({ id: [products[3]?.id, products[10]?.id, "MFFFFFFFFF"] }), () => (p) => p === products[3] || p === products[10]],
  ["status", () => ({ status: ["replaced", "inactive"] }), () => (p) => p.status === "replaced" || p.status === "inactive"],
  ["ecommerce", () => ({ ecommerce: "unknown" }), () => (p) => (p.ecommerce ?? "unknown") === "unknown"],
  ["organization", () => ({ organization: sample((p) => ids(p.organizations)[0]) }), () => (p) => ids(p.organizations).includes(sample((q) => ids(q.organizations)[0]))],
  ["publicCategory (a root: its subtree)", () => ({ publicCategory: 501 }), () => (p) => arr(p.publicCategories).some((c) => publicChains.get(c.id)?.includes(501))],
  ["catalogCategories (a root)", () => ({ catalogCategories: ["MED"] }), () => (p) => arr(p.catalogCategories).some((c) => catalogChains.get(c.id)?.includes("MED"))],
  ["brand", () => ({ brand: [2001, 2002, 2003, 2004, 2005] }), () => (p) => ids(p.brands).some((b) => [2001, 2002, 2003, 2004, 2005].includes(b as number))],
  ["productFamily", () => ({ productFamily: sample((p) => ids(p.productFamily)[0]) }), () => (p) => ids(p.productFamily).includes(sample((q) => ids(q.productFamily)[0]))],
  ["search", () => ({ search: { query: "CRÈME", locale: "fr", type: "contains" } }), () => (p) => String((p.name as Record<string, string>)?.fr ?? "").toLowerCase().includes("crème")],
  ["minimumContent true", () => ({ minimumContent: true }), () => minimumContent],
  ["minimumContent false", () => ({ minimumContent: false }), () => (p) => !minimumContent(p)],
  ["hasContent publicPrice", () => ({ hasContent: { flag: "publicPrice" } }), () => (p) => typeof p.publicPrice === "number"],
  ["hasContent name nl", () => ({ hasContent: { flag: "name", locale: "nl" } }), () => (p) => hasText(p.name, "nl")],
  ["hasContent descriptions.usage nl", () => ({ hasContent: { flag: "descriptions.usage", locale: "nl" } }), () => (p) => arr(p.descriptions).some((d) => d.type === "usage" && hasText(d.content, "nl"))],
  ["hasContent media en", () => ({ hasContent: { flag: "media", locale: "en" } }), () => (p) => ["photos", "frontals", "links"].some((k) => arr(p[k]).some((m) => (m.locales as string[]).includes("en")))],
  ["ean (with a leading zero added)", () => ({ ean: ["0" + sample((p) => codes(p.ean)[0])] }), () => (p) => codes(p.ean).includes(sample((q) => codes(q.ean)[0]))],
  ["gtin", () => ({ gtin: sample((p) => p.gtin as string | undefined) }), () => (p) => p.gtin === sample((q) => q.gtin as string | undefined)],
  ["eanGtin13 as integer", () => ({ eanGtin13: Number(sample((p) => codes(p.eanGtin13)[0])) }), () => (p) => codes(p.eanGtin13).includes(sample((q) => codes(q.eanGtin13)[0]))],
  ["eanGtin8", () => ({ eanGtin8: sample((p) => codes(p.eanGtin8)[0]) }), () => (p) => codes(p.eanGtin8).includes(sample((q) => codes(q.eanGtin8)[0]))],
  ["eanGtin12 padded", () => ({ eanGtin12: sample((p) => codes(p.eanGtin12)[0])?.padStart(12, "0") }), () => (p) => codes(p.eanGtin12).includes(sample((q) => codes(q.eanGtin12)[0]))],
  ["eanGtin14", () => ({ eanGtin14: [sample((p) => codes(p.eanGtin14)[0])] }), () => (p) => codes(p.eanGtin14).includes(sample((q) => codes(q.eanGtin14)[0]))],
  ["hsCode", () => ({ hsCode: ["30049000", 21069092] }), () => (p) => ["30049000", "21069092"].includes(String(p.hsCode))],
  ["cisCode", () => ({ cisCode: sample((p) => p.cisCode as string | undefined) }), () => (p) => p.cisCode === sample((q) => q.cisCode as string | undefined)],
  ["ospId", () => ({ ospId: sample((p) => p.ospId as number | undefined) }), () => (p) => p.ospId === sample((q) => q.ospId as number | undefined)],
  ["cbId", () => ({ cbId: String(sample((p) => p.cbId as number | undefined)) }), () => (p) => p.cbId === sample((q) => q.cbId as number | undefined)],
  ["cipOrAcl7", () => ({ cipOrAcl7: sample((p) => p.cipOrAcl7 as number | undefined) }), () => (p) => p.cipOrAcl7 === sample((q) => q.cipOrAcl7 as number | undefined)],
  ["acl13", () => ({ acl13: String(sample((p) => p.acl13 as number | undefined)) }), () => (p) => p.acl13 === sample((q) => q.acl13 as number | undefined)],
  ["cip13", () => ({ cip13: sample((p) => p.cip13 as number | undefined) }), () => (p) => p.cip13 === sample((q) => q.cip13 as number | undefined)],
  ["codeActe", () => ({ codeActe: ["PH7", "PHN"] }), () => (p) => p.codeActe === "PH7" || p.codeActe === "PHN"],
  ["rateOfReimbursement", () => ({ rateOfReimbursement: 65 }), () => (p) => p.rateOfReimbursement === 65],
  ["galenicShape", () => ({ galenicShape: "CPR" }), () => (p) => ids(p.franceGalenicShape).includes("CPR")],
  ["activeIngredient", () => ({ activeIngredient: [4001, 4009] }), () => (p) => ids(p.activeIngredients).some((i) => i === 4001 || i === 4009)],
  ["conservation", () => ({ conservation: ["refrigerator", "frozen"] }), () => (p) => p.conservation === "refrigerator" || p.conservation === "frozen"],
  ["maximumDispenseQuantity lte", () => ({ maximumDispenseQuantity: { value: 3, operator: "lte" } }), () => (p) => typeof p.maximumDispenseQuantity === "number" && p.maximumDispenseQuantity <= 3],
  ["maximumDispenseQuantity eq (default)", () => ({ maximumDispenseQuantity: { value: 2 } }), () => (p) => p.maximumDispenseQuantity === 2],
  ["allowedSpecies", () => ({ allowedSpecies: ["veterinary", "surface_maintenance"] }), () => (p) => speciesCodes(p).some((c) => c === "veterinary" || c === "surface_maintenance")],
  ["atcCategory (prefix)", () => ({ atcCategory: "N02" }), () => (p) => arr(p.atcCategory as never).length >= 0 && ((p.atcCategory as string[] | undefined) ?? []).some((c) => c.startsWith("N02"))],
  ["prescription", () => ({ prescription: true }), () => (p) => p.prescription === true],
  ["ospCategory", () => ({ ospCategory: sample((p) => (p.ospCategory as { id: string } | undefined)?.id) }), () => (p) => (p.ospCategory as { id?: string } | undefined)?.id === sample((q) => (q.ospCategory as { id: string } | undefined)?.id)],
  ["narcotic", () => ({ narcotic: ["yes", "assimilated"] }), () => (p) => ["yes", "assimilated"].includes(narcotic(p))],
  ["narcotic as boolean", () => ({ narcotic: false }), () => (p) => narcotic(p) === "no"],
  ["biocide", () => ({ biocide: ["yes", "unknown"] }), () => (p) => p.biocide === "yes" || p.biocide === "unknown"],
  ["attributes", () => ({ attributes: sample((p) => ids(p.attributes)[0]) }), () => (p) => ids(p.attributes).includes(sample((q) => ids(q.attributes)[0]))],
  ["dietaryRestrictions", () => ({ dietaryRestrictions: "vegan" }), () => (p) => ids(p.dietaryRestrictions).includes("vegan")],
  ["colors", () => ({ colors: ["blue", "white"] }), () => (p) => ids(p.colors).some((c) => c === "blue" || c === "white")],
  ["notApplicableField", () => ({ notApplicableField: "weight" }), () => (p) => ((p.notApplicableField as string[]) ?? []).includes("weight")],
  ["officialDeletionAt range (past)", () => ({ officialDeletionAt: { until: CATALOGUE_NOW_FOR_TESTS } }), () => (p) => typeof p.officialDeletionAt === "number" && p.officialDeletionAt <= CATALOGUE_NOW_FOR_TESTS],
  ["officialDeletionAt exact", () => ({ officialDeletionAt: sample((p) => p.officialDeletionAt as number | undefined) }), () => (p) => p.officialDeletionAt === sample((q) => q.officialDeletionAt as number | undefined)],
  ["createdAt since", () => ({ createdAt: 1600000000 }), () => (p) => (p.meta as { createdAt: number }).createdAt >= 1600000000],
  ["createdAt range", () => ({ createdAt: { from: 1500000000, until: 1600000000 } }), () => (p) => { const t = (p.meta as { createdAt: number }).createdAt; return t >= 1500000000 && t <= 1600000000; }],
  ["updatedSince", () => ({ updatedSince: CATALOGUE_NOW_FOR_TESTS - 10 * 86400 }), () => (p) => (p.meta as { updatedAt: number }).updatedAt >= CATALOGUE_NOW_FOR_TESTS - 10 * 86400],
  [
    "and / or / not nested",
    () => ({ and: [{ status: ["active", "inactive"] }, { or: [{ prescription: true }, { not: { or: [{ conservation: "room" }, { not: { brand: 2010 } }] } }] }, { not: { not: { hasContent: { flag: "photos" } } } }] }),
    () => (p) =>
      (p.status === "active" || p.status === "inactive") &&
      (p.prescription === true || !(p.conservation === "room" || !ids(p.brands).includes(2010))) &&
      arr(p.photos).length > 0,
  ],
];

describe("product filters match an independent evaluation", () => {
  it.each(cases)("%s", async (_name, filter, pred) => {
    const want = expected(pred());
    const got = await streamIds(filter());
    expect(got).toEqual(want);
  });

  it("most filters select something and not everything (the cases are not vacuous)", () => {
    const sizes = cases.map(([name, , pred]) => [name, expected(pred()).length] as const);
    const empty = sizes.filter(([, n]) => n === 0).map(([name]) => name);
    expect(empty).toEqual([]);
    const all = sizes.filter(([, n]) => n === N).map(([name]) => name);
    expect(all).toEqual([]);
  });

  it("hidden facts stay off the wire", async () => {
    const { lines } = await api.lines("/v4/products/stream", { filter: { id: products[0]?.id }, sorting: { id: "ASC" } });
    expect(Object.keys(lines[0]?.result ?? {})).not.toContain(String(HIDDEN));
    expect(JSON.stringify(lines[0]?.result)).not.toContain("narcotic");
  });
});
