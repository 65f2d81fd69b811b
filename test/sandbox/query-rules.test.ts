/** Sortings, paging arithmetic, the 10,000 window and the 1,000-identifier limit. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogue, type Catalogue } from "../../src/sandbox/index.js";
import { open, type Api } from "./helpers.js";
import type { P } from "./oracle.js";

const N = 400;
let api: Api;
let catalogue: Catalogue;
let products: P[];

beforeAll(async () => {
  api = await open({ products: N, seed: 5 });
  catalogue = createCatalogue({ seed: 5, products: N, assetBaseUrl: api.sandbox.url });
  products = [...catalogue.products()];
});
afterAll(() => api.sandbox.close());

/** Sorted copy: by key in direction, ties by id ascending (the documented tie rule). */
function sortedIds(key: (p: P, i: number) => number | string, dir: 1 | -1): string[] {
  return products
    .map((p, i) => ({ p, i, k: key(p, i) }))
    .sort((a, b) => (a.k < b.k ? -dir : a.k > b.k ? dir : a.i - b.i))
    .map((x) => x.p.id as string);
}

describe("product sortings", () => {
  const meta = (p: P) => p.meta as { createdAt: number; updatedAt: number };
  const cases: [string, unknown, () => string[]][] = [
    ["id ASC", { id: "ASC" }, () => products.map((p) => p.id as string).sort()],
    ["id DESC", { id: "DESC" }, () => products.map((p) => p.id as string).sort().reverse()],
    ["name fr ASC", { name: { direction: "ASC", locale: "fr" } }, () => sortedIds((p) => String((p.name as Record<string, string>).fr ?? "").toLowerCase(), 1)],
    ["name nl DESC", { name: { direction: "DESC", locale: "nl" } }, () => sortedIds((p) => String((p.name as Record<string, string>).nl ?? "").toLowerCase(), -1)],
    ["createdAt ASC", { createdAt: "ASC" }, () => sortedIds((p) => meta(p).createdAt, 1)],
    ["touchedAt DESC", { touchedAt: "DESC" }, () => sortedIds((p) => meta(p).updatedAt, -1)],
    ["statusTouchedAt ASC", { statusTouchedAt: "ASC" }, () => sortedIds((_p, i) => catalogue.statusTouchedAt(i), 1)],
    ["status DESC", { status: "DESC" }, () => sortedIds((p) => p.status as string, -1)],
  ];
  it.each(cases)("%s", async (_name, sorting, want) => {
    const { lines } = await api.lines("/v4/products/stream", { filter: {}, sorting });
    expect(lines.map((l) => l.result.id)).toEqual(want());
  });

  it("statusTouchedAt lies between createdAt and updatedAt", () => {
    products.forEach((p, i) => {
      const m = p.meta as { createdAt: number; updatedAt: number };
      expect(catalogue.statusTouchedAt(i)).toBeGreaterThanOrEqual(m.createdAt);
      expect(catalogue.statusTouchedAt(i)).toBeLessThanOrEqual(m.updatedAt);
    });
  });
});

describe("paging", () => {
  it("walks every page: offsets, sizes, the last partial page and an empty one past the end", async () => {
    const seen: string[] = [];
    for (let no = 0; no < 3; no++) {
      const { status, body } = await api.json("/v4/products/query", { filter: {}, sorting: { touchedAt: "DESC" }, page: { no, size: 250 } });
      expect(status).toBe(200);
      expect(body.meta).toEqual({ total: N, page: { no, offset: no * 250, size: 250 } });
      const results = body.results as P[];
      expect(results).toHaveLength(no === 0 ? 250 : no === 1 ? 150 : 0);
      seen.push(...results.map((p) => p.id as string));
    }
    const { lines } = await api.lines("/v4/products/stream", { filter: {}, sorting: { touchedAt: "DESC" } });
    expect(seen).toEqual(lines.map((l) => l.result.id));
  });

  it("defaults the page size to 100 and page no to 0", async () => {
    const { body } = await api.json("/v4/products/query", { filter: {}, sorting: { id: "ASC" }, page: {} });
    expect(body.meta).toEqual({ total: N, page: { no: 0, offset: 0, size: 100 } });
    expect(body.results).toHaveLength(100);
  });

  it("requires filter, sorting and page on products/query, and refuses page on the stream", async () => {
    const { status, body } = await api.json("/v4/products/query", {});
    expect(status).toBe(422);
    expect((body.error as { violations: { path: string }[] }).violations.map((v) => v.path)).toEqual(["filter", "sorting", "page"]);
    const stream = await api.json("/v4/products/stream", { filter: {}, sorting: { id: "ASC" }, page: { no: 0 } });
    expect(stream.status).toBe(422);
    expect((stream.body.error as { violations: { path: string }[] }).violations.map((v) => v.path)).toEqual(["page"]);
  });

  it("accepts only the page sizes 10, 50, 100, 250", async () => {
    for (const size of [10, 50, 100, 250]) {
      const { status } = await api.json("/v4/products/query", { filter: {}, sorting: { id: "ASC" }, page: { no: 0, size } });
      expect(status).toBe(200);
    }
    for (const size of [0, 20, 500, "10", 1000]) {
      const { status, body } = await api.json("/v4/products/query", { filter: {}, sorting: { id: "ASC" }, page: { no: 0, size } });
      expect(status).toBe(422);
      expect((body.error as { violations: { path: string }[] }).violations[0]?.path).toBe("page.size");
    }
  });
});

describe("limits", () => {
  it("caps meta.total at 10,000 and refuses a page past the window, naming the stream endpoint", async () => {
    const big = await open({ products: 10_300, seed: 2 });
    try {
      const last = await big.json("/v4/products/query", { filter: {}, sorting: { id: "ASC" }, page: { no: 39, size: 250 } });
      expect(last.status).toBe(200);
      expect(last.body.meta).toEqual({ total: 10_000, page: { no: 39, offset: 9750, size: 250 } });
      expect(last.body.results).toHaveLength(250);
      const past = await big.json("/v4/products/query", { filter: {}, sorting: { id: "ASC" }, page: { no: 1000, size: 10 } });
      expect(past.status).toBe(422);
      const error = past.body.error as { code: string; message: string; violations: { path: string }[] };
      expect(error.code).toBe("request.result_window_exceeded");
      expect(error.message).toContain("/v4/products/stream");
      expect(error.violations[0]?.path).toBe("page.no");
      const { lines } = await big.lines("/v4/products/stream", { filter: { createdAt: 0 }, sorting: { id: "DESC" } });
      expect(lines).toHaveLength(10_300);
      expect(lines[0]?.meta).toEqual({ total: 10_300, index: 0 });
    } finally {
      await big.sandbox.close();
    }
  });

  it("allows 1,000 identifiers per request, counted across the whole filter", async () => {
    const thousand = Array.from({ length: 1000 }, (_, k) => catalogue.id(k % N));
    const ok = await api.json("/v4/products/query", { filter: { id: thousand }, sorting: { id: "ASC" }, page: { no: 0, size: 10 } });
    expect(ok.status).toBe(200);
    expect((ok.body.meta as { total: number }).total).toBe(N);
    const split = { or: [{ id: thousand.slice(0, 600) }, { not: { ean: Array.from({ length: 401 }, (_, k) => String(5400000000000 + k)) } }] };
    const tooMany = await api.json("/v4/products/query", { filter: split, sorting: { id: "ASC" }, page: { no: 0, size: 10 } });
    expect(tooMany.status).toBe(422);
    const error = tooMany.body.error as { code: string; violations: { path: string; message: string }[] };
    expect(error.code).toBe("request.invalid");
    expect(error.violations).toEqual([{ path: "filter", message: expect.stringContaining("got 1001") }]);
  });
});
