/** The generated catalogue: determinism, realism (each oddity present in a 2,000-product catalogue), validity. */
import { describe, expect, it } from "vitest";
import { createCatalogue, HIDDEN } from "../../src/sandbox/index.js";
import { ALL, open } from "./helpers.js";
import { arr, pastDeletion, type P } from "./oracle.js";

const N = 2000;
const catalogue = createCatalogue({ seed: 1, products: N, assetBaseUrl: "http://127.0.0.1:8040" });
const products: P[] = [...catalogue.products()];

/** GS1 check digit, written here from the GS1 spec (weights 3,1 from the right). */
function validGtin(code: string): boolean {
  if (!/^\d+$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop() as number;
  const sum = digits.reverse().reduce((acc, d, k) => acc + d * (k % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}
const share = (pred: (p: P) => boolean) => products.filter(pred).length / N;
const names = (p: P) => Object.values((p.name as Record<string, string>) ?? {});

describe("determinism", () => {
  it("same seed, same bytes over HTTP; another seed, other bytes", async () => {
    const a = await open({ products: 50, seed: 42 });
    const b = await open({ products: 50, seed: 42 });
    const c = await open({ products: 50, seed: 43 });
    try {
      const host = (t: string) => t.replace(/127\.0\.0\.1:\d+/g, "HOST");
      const [ta, tb, tc] = await Promise.all([a, b, c].map(async (x) => host((await x.lines("/v4/products/stream", ALL)).text)));
      expect(ta).toBe(tb);
      expect(tc).not.toBe(ta);
      expect(ta?.length).toBeGreaterThan(50 * 3000);
    } finally {
      await Promise.all([a, b, c].map((x) => x.sandbox.close()));
    }
  });

  it("product(i) is random access: the same object whatever was generated before", () => {
    const again = createCatalogue({ seed: 1, products: N, assetBaseUrl: "http://127.0.0.1:8040" });
    expect(again.productJson(1234)).toBe(catalogue.productJson(1234));
    expect(JSON.parse(catalogue.productJson(77))).toEqual(JSON.parse(JSON.stringify(products[77])));
  });

  it("the stream is pure ASCII (escaped the PHP way) and parses back to the product", () => {
    for (let i = 0; i < N; i += 7) {
      const text = catalogue.productJson(i);
      expect(/^[\x20-\x7e]*$/.test(text)).toBe(true);
      expect(text).not.toMatch(/[<>&']/);
    }
    expect(products.some((p) => names(p).some((n) => /[<>&'"]/.test(n)))).toBe(true);
  });

  it("ids look like the service's, are unique, and increase with the index", () => {
    const ids = products.map((p) => p.id as string);
    expect(ids.every((id) => /^M[0-9A-F]{9}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(N);
    expect(catalogue.indexOf(ids[1500] as string)).toBe(1500);
    expect(catalogue.indexOf("MFFFFFFFFF")).toBe(-1);
  });
});

describe("realism: each oddity exists, in a small share", () => {
  const oddities: [string, (p: P) => boolean, number][] = [
    ["eanGtin13 as an integer", (p) => typeof p.eanGtin13 === "number", 0.5],
    ["eanGtin13 as a string", (p) => typeof p.eanGtin13 === "string", 0.8],
    ["eanGtin13 as a one-element array", (p) => Array.isArray(p.eanGtin13) && p.eanGtin13.length === 1, 0.1],
    ["an integer code that lost its leading zero", (p) => ["eanGtin12", "eanGtin13", "eanGtin14"].some((k) => typeof p[k] === "number" && String(p[k]).length < Number(k.slice(7))), 0.1],
    ["ean[] with the same code with and without a leading zero", (p) => { const e = ((p.ean as unknown[]) ?? []).map(String); return e.length === 2 && e[0] === "0" + e[1]; }, 0.08],
    ["an invalid check digit", (p) => ["eanGtin8", "eanGtin13"].some((k) => p[k] !== undefined && !validGtin(String([p[k]].flat()[0]).padStart(Number(k.slice(7)), "0"))), 0.05],
    ["no code at all", (p) => p.ean === undefined, 0.05],
    ["brands[].name as a plain string", (p) => arr(p.brands).some((b) => typeof b.name === "string"), 0.5],
    ["brands[].name localized", (p) => arr(p.brands).some((b) => typeof b.name === "object"), 0.8],
    ["vat as a fraction (0.21)", (p) => typeof p.vat === "number" && p.vat < 1, 0.06],
    ["vat hundredfold (2100)", (p) => typeof p.vat === "number" && p.vat > 100, 0.05],
    ["no publicPrice but a manufacturerPrice", (p) => p.publicPrice === undefined && typeof p.manufacturerPrice === "number", 0.08],
    ["no photo", (p) => arr(p.photos).length === 0, 0.15],
    ["photos for one locale only", (p) => arr(p.photos).length > 0 && arr(p.photos).every((ph) => (ph.locales as string[]).length === 1), 0.1],
    ["several photos in displayOrder", (p) => arr(p.photos).length > 1 && arr(p.photos).every((ph, k) => ph.displayOrder === k + 1), 0.35],
    ["a frontal", (p) => arr(p.frontals).length > 0, 0.4],
    ["a link", (p) => arr(p.links).length > 0, 0.15],
    ["status replaced", (p) => p.status === "replaced", 0.1],
    ["status inactive", (p) => p.status === "inactive", 0.2],
    ["status no_selection", (p) => p.status === "no_selection", 0.15],
    ["deleted", (p) => p.deleted === true, 0.05],
    ["officialDeletionAt in the past", pastDeletion, 0.1],
    ["prescription", (p) => p.prescription === true, 0.3],
    ["veterinary medicine", (p) => arr(p.catalogCategories).some((c) => c.type === "veterinary_medicine"), 0.15],
    ["name with & < > \" '", (p) => names(p).some((n) => /[&<>"']/.test(n)), 0.08],
    ["name with a comma", (p) => names(p).some((n) => n.includes(",")), 0.15],
    ["name with an emoji", (p) => names(p).some((n) => /\p{Extended_Pictographic}/u.test(n)), 0.05],
    ["name longer than 200 characters", (p) => names(p).some((n) => n.length > 200), 0.05],
    ["a missing name locale", (p) => { const loc = (p.descriptions as P[] | undefined)?.[0]?.locales as string[] | undefined; return !!loc && loc.some((l) => !(l in (p.name as object))); }, 0.08],
    ["an empty name", (p) => names(p).some((n) => n === ""), 0.08],
    ["description HTML with <p>, <br>, <ul><li>, <strong> and entities", (p) => arr(p.descriptions).some((d) => Object.values(d.content as object).some((h: string) => /<ul><li>/.test(h) || /<br/.test(h))), 0.95],
    ["a leaflet", (p) => arr(p.leaflets).length > 0, 0.6],
  ];
  it.each(oddities)("%s", (_name, pred, max) => {
    const s = share(pred);
    expect(s).toBeGreaterThan(0);
    expect(s).toBeLessThanOrEqual(max);
  });

  it("every VAT rate of BE (6, 21) and FR (2.1, 5.5, 10, 20) is present", () => {
    const rates = new Set(products.map((p) => p.vat));
    for (const rate of [6, 21, 2.1, 5.5, 10, 20]) expect(rates.has(rate)).toBe(true);
  });

  it("prices are integer cents", () => {
    for (const p of products) for (const k of ["publicPrice", "manufacturerPrice", "pharmacistPrice"]) if (p[k] !== undefined) expect(Number.isInteger(p[k])).toBe(true);
  });

  it("valid GTIN-8/12/13/14 and CIP13 exist with correct check digits", () => {
    const valid = (k: string, width: number) => products.filter((p) => p[k] !== undefined && validGtin(String([p[k]].flat()[0]).padStart(width, "0"))).length;
    expect(valid("eanGtin8", 8)).toBeGreaterThan(0);
    expect(valid("eanGtin12", 12)).toBeGreaterThan(0);
    expect(valid("eanGtin13", 13)).toBeGreaterThan(N * 0.8);
    expect(valid("eanGtin14", 14)).toBeGreaterThan(0);
    const cips = products.filter((p) => p.cip13 !== undefined).map((p) => String(p.cip13));
    expect(cips.length).toBeGreaterThan(0);
    expect(cips.every((c) => c.startsWith("3400"))).toBe(true);
    expect(cips.filter(validGtin).length).toBeGreaterThan(cips.length * 0.9);
  });

  it("replaced products point at an existing earlier product", () => {
    for (const p of products.filter((x) => x.status === "replaced")) {
      const target = catalogue.indexOf(p.replacement as string);
      expect(target).toBeGreaterThanOrEqual(0);
      expect(target).toBeLessThan((p as P & { [HIDDEN]: { index: number } })[HIDDEN].index);
    }
    expect(products.filter((p) => p.status !== "replaced").every((p) => p.replacement === undefined)).toBe(true);
  });

  it("photos have the eight format keys, frontals their own, all pointing at the sandbox", () => {
    const photo = products.flatMap((p) => arr(p.photos))[0] as P;
    expect(Object.keys(photo.formats as object)).toEqual(["thumbnail", "thumbnailWebp", "medium", "mediumWebp", "large", "largeWebp", "huge", "hugeWebp"]);
    const frontal = products.flatMap((p) => arr(p.frontals))[0] as P;
    expect(Object.keys(frontal.formats as object)).toEqual(["thumbnail", "thumbnailWebp", "medium", "mediumJpeg", "mediumWebp", "largeJpg", "largeWebp", "huge", "hugeWebp"]);
    expect((frontal.formats as Record<string, string>).huge).toMatch(/^http:\/\/127\.0\.0\.1:8040\/media\/huge\/[0-9a-f]{40}\.png$/);
    expect((photo.formats as Record<string, string>).largeWebp).toMatch(/^http:\/\/127\.0\.0\.1:8040\/media\/largeWebp\/[0-9a-f]{40}\.webp$/);
  });
});

describe("cnk (Belgian products only, from hashes of (seed, i))", () => {
  it("gives a share of Belgian products a valid 7-digit CNK and a few a 5-digit one, the same for the same seed", () => {
    const again = createCatalogue({ seed: 1, products: N, assetBaseUrl: "http://127.0.0.1:8040" });
    const other = createCatalogue({ seed: 2, products: N, assetBaseUrl: "http://127.0.0.1:8040" });
    const cnks: unknown[] = [];
    for (let i = 0; i < N; i++) {
      const p = catalogue.product(i);
      const cnk = (p as Record<string, unknown>)["cnk"];
      cnks.push(cnk);
      if (p[HIDDEN].market !== "BE") expect(cnk).toBeUndefined();
      expect(again.productJson(i)).toBe(catalogue.productJson(i));
    }
    const present = cnks.filter((c) => c !== undefined).map(String);
    const valid = present.filter((c) => /^\d{7}$/.test(c));
    const invalid = present.filter((c) => /^\d{5}$/.test(c));
    expect(valid.length + invalid.length).toBe(present.length);
    expect(valid.length).toBeGreaterThan(N * 0.6 * 0.2);
    expect(invalid.length).toBeGreaterThan(0);
    expect(cnks.some((c) => typeof c === "string") && cnks.some((c) => typeof c === "number")).toBe(true);
    expect(Array.from({ length: N }, (_, i) => (other.product(i) as Record<string, unknown>)["cnk"])).not.toEqual(cnks);
  });
});
