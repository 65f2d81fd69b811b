import { describe, expect, it } from "vitest";
import { isPharmafeedError } from "../../src/errors.js";
import { collect, expectedIds, world } from "./helpers.js";

describe("queryAll", () => {
  it("reads every page until meta.total, in order", async () => {
    const w = await world({ products: 230 });
    try {
      const pages = w.client.queryAll("products", { filter: { status: ["active", "inactive", "replaced"] }, sorting: { id: "ASC" }, pageSize: 50 });
      const got = await collect(pages);
      const expected = expectedIds(w.catalogue, (i) => w.catalogue.status(i) !== "no_selection");
      expect(got.map((page) => page.no)).toEqual(Array.from({ length: Math.ceil(expected.length / 50) }, (_, i) => i));
      expect(got.flatMap((page) => page.results.map((product) => product.id))).toEqual(expected);
      expect(got.every((page) => page.total === expected.length)).toBe(true);
      expect(pages.total).toBe(expected.length);
      expect(pages.stats.records).toBe(expected.length);
    } finally {
      await w.close();
    }
  });

  it("stops before the 10,000 window with RESULT_WINDOW naming the stream endpoint", async () => {
    const w = await world({ products: 10_020 });
    try {
      const pages = w.client.queryAll("products", { filter: { id: expectedIds(w.catalogue).slice(0, 1) }, sorting: { id: "ASC" }, pageSize: 10 });
      expect((await collect(pages)).flatMap((page) => page.results)).toHaveLength(1);
      let read = 0;
      let failure: unknown;
      try {
        for await (const page of w.client.queryAll("products", { filter: {}, sorting: { id: "ASC" }, pageSize: 250 })) read += page.results.length;
      } catch (error) {
        failure = error;
      }
      expect(read).toBe(10_000);
      expect(isPharmafeedError(failure, "RESULT_WINDOW")).toBe(true);
      expect((failure as Error).message).toContain("POST /v4/products/stream");
      // The window is enforced before asking: the sandbox never saw a page past it.
      expect(w.sandbox.stats.byPath.get("/v4/products/query")).toBe(1 + 40);
    } finally {
      await w.close();
    }
  });
});

describe("pacing", () => {
  it("keeps under the server's rolling window: no 429, and the pace shows in the elapsed time", async () => {
    const w = await world({ products: 120, rateLimit: 5, rateWindowMs: 300 }, { rateLimit: 5, rateWindowMs: 300 });
    try {
      const started = performance.now();
      const pages = w.client.queryAll("products", { filter: {}, sorting: { id: "ASC" }, pageSize: 10 });
      const got = await collect(pages);
      const elapsed = performance.now() - started;
      expect(got).toHaveLength(12);
      expect(pages.stats.retries).toBe(0);
      expect(w.sandbox.stats.requests).toBe(12);
      // 12 requests at 5 per 300 ms: the 6th waits a window, the 11th two.
      expect(elapsed).toBeGreaterThanOrEqual(600);
    } finally {
      await w.close();
    }
  });

  it("is shared by two clients of the same key", async () => {
    const w = await world({ products: 60, rateLimit: 4, rateWindowMs: 300 }, { rateLimit: 4, rateWindowMs: 300 });
    const { createCatalogueClient } = await import("../../src/catalogue/client.js");
    const second = createCatalogueClient({ baseUrl: w.sandbox.url, keyId: w.sandbox.keyId, keySecret: w.sandbox.keySecret, contact: "x@example.test", rateLimit: 4, rateWindowMs: 300 });
    try {
      const both = [w.client, second].map((client) => collect(client.queryAll("products", { filter: {}, sorting: { id: "ASC" }, pageSize: 10 })));
      const [a, b] = await Promise.all(both);
      expect(a).toHaveLength(6);
      expect(b).toHaveLength(6);
      // A 429 would have been retried: with a shared limiter no request was refused.
      expect(w.sandbox.stats.requests).toBe(12);
    } finally {
      await second.close();
      await w.close();
    }
  });
});
