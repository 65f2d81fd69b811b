import fc from "fast-check";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { compileChecker } from "../../src/catalogue/schemas/checker.js";
import * as schemas from "../../src/catalogue/schemas/index.js";
import { createCatalogue } from "../../src/sandbox/index.js";
import { wireProduct } from "./fixtures/wire.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const catalogue = createCatalogue({ seed: 7, products: 40, assetBaseUrl: "http://127.0.0.1:1" });
const products = [wireProduct, ...Array.from({ length: 40 }, (_, i) => JSON.parse(JSON.stringify(catalogue.product(i))) as Json)] as Json[];

/** Every path to a value inside `value`. */
function paths(value: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((item, i) => paths(item, [...at, i], out));
  else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) paths(item, [...at, key], out);
  return out;
}

function mutate(root: Json, path: (string | number)[], how: "replace" | "delete" | "add", replacement: Json): Json {
  const copy = structuredClone(root);
  if (path.length === 0) return how === "replace" ? replacement : copy;
  const parent = path.slice(0, -1).reduce<Json>((node, key) => (node as Record<string, Json>)[key] as Json, copy) as Record<string | number, Json>;
  const last = path[path.length - 1] as string | number;
  if (how === "delete" && !Array.isArray(parent)) delete parent[last];
  else if (how === "add" && !Array.isArray(parent)) parent[`x${String(last)}`] = replacement;
  else parent[last] = replacement;
  return copy;
}

const json = fc.oneof(
  fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 2100, "", "x", "M1", [], {}, ["a"], [1], { fr: "x" }, { fr: null }, { value: 0.37, unit: "kg" }),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

function agree(schema: z.ZodType, value: unknown): void {
  const check = compileChecker(schema);
  expect(check, "schema compiles").toBeDefined();
  expect(check?.(value)).toBe(schema.safeParse(value).success);
}

describe("compileChecker", () => {
  it("agrees with zod on every sandbox product and the wire fixture", () => {
    for (const product of products) agree(schemas.Product, product);
    for (const item of catalogue.media()) agree(schemas.MediaItem, JSON.parse(JSON.stringify(item)));
  });

  it("agrees with zod on products mutated anywhere (replace, delete, add keys)", () => {
    fc.assert(
      fc.property(fc.nat(products.length - 1), fc.nat(), fc.constantFrom("replace", "delete", "add" as const), json, (which, at, how, replacement) => {
        const base = products[which] as Json;
        const all = paths(base);
        const mutated = mutate(base, all[at % all.length] as (string | number)[], how, replacement);
        agree(schemas.Product, mutated);
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees with zod on every wire schema for arbitrary JSON", () => {
    const named = [
      schemas.Brand, schemas.ProductFamily, schemas.ActiveIngredient, schemas.PublicCategory, schemas.CatalogCategory,
      schemas.Organization, schemas.NewsItem, schemas.Correction, schemas.User, schemas.MediaItem, schemas.StreamLine,
      schemas.QueryResponse, schemas.ErrorBody,
    ] as z.ZodType[];
    fc.assert(
      fc.property(fc.constantFrom(...named), fc.oneof(json, fc.record({ id: json, name: json, meta: json, type: json, error: json, results: json })), (schema, value) => {
        agree(schema, value);
      }),
      { numRuns: 2000 },
    );
    agree(schemas.StreamLine, { meta: { total: 3, index: 1.5 }, result: {} });
    agree(schemas.StreamLine, { meta: { total: -1, index: 1 }, result: {} });
    agree(schemas.StreamLine, { meta: { total: 2 ** 60, index: 1 }, result: {} });
  });

  it("checks strict objects, length bounds and delegated formats like zod", () => {
    const strict = z.strictObject({ a: z.string().min(2).max(3), b: z.email().optional(), c: z.array(z.number()).min(1).optional() });
    for (const value of [{ a: "ab" }, { a: "a" }, { a: "abcd" }, { a: "ab", z: 1 }, { a: "ab", b: "x@y.test" }, { a: "ab", b: "nope" }, { a: "ab", c: [] }, { a: "ab", c: [1] }, {}]) {
      agree(strict, value);
    }
  });

  it("returns undefined when output could differ from input", () => {
    expect(compileChecker(z.object({ a: z.string() }))).toBeUndefined();
    expect(compileChecker(z.looseObject({ a: z.string().trim() }))).toBeUndefined();
    expect(compileChecker(z.looseObject({ a: z.string().default("x") }))).toBeUndefined();
    expect(compileChecker(z.looseObject({ a: z.string().transform((s) => s.length) }))).toBeUndefined();
  });
});
