import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASIC_KEY, createCatalogue } from "../../src/sandbox/index.js";
import { ALL, basic, open, type Api } from "./helpers.js";

let api: Api;
beforeAll(async () => {
  api = await open({ products: 300, seed: 7 });
});
afterAll(() => api.sandbox.close());

describe("auth and errors", () => {
  it("refuses a request without credentials with the service's 401 body", async () => {
    const res = await api.post("/v4/products/query", { ...ALL, page: { no: 0, size: 10 } }, { auth: null });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { status: 401, code: "authentication.not_authenticated", message: expect.any(String) } });
  });

  it("refuses a wrong secret and accepts the basic key on queries", async () => {
    const wrong = await api.post("/v4/products/query", {}, { auth: basic(api.sandbox.keyId, "nope") });
    expect(wrong.status).toBe(401);
    const ok = await api.post("/v4/products/query", { ...ALL, page: { no: 0, size: 10 } }, { auth: basic(BASIC_KEY.id, BASIC_KEY.secret) });
    expect(ok.status).toBe(200);
  });

  it("answers 400 to malformed JSON, 404 to unknown paths, 405 to wrong methods", async () => {
    const bad = await api.post("/v4/products/stream", "{\"filter\":");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("request.invalid_json");
    const missing = await api.post("/v4/nothing/query", {});
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("request.not_found");
    const get = await fetch(api.sandbox.url + "/v4/products/query");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(((await get.json()) as { error: { code: string } }).error.code).toBe("request.method_not_allowed");
  });

  it("refuses the status values the spec does not list for the filter (no_selection)", async () => {
    const { status, body } = await api.json("/v4/products/query", { filter: { status: ["active", "no_selection"] }, sorting: { id: "ASC" }, page: { no: 0, size: 10 } });
    expect(status).toBe(422);
    expect((body.error as { violations: { path: string }[] }).violations.map((v) => v.path)).toEqual(["filter.status[1]"]);
  });

  it("lists every violation with its JSON path", async () => {
    const { status, body } = await api.json("/v4/products/query", {
      filter: { and: [{ status: "active" }, { or: [{ status: "bogus" }, { nope: 1 }] }] },
      sorting: { id: "UP" },
      page: { no: -1, size: 7 },
    });
    expect(status).toBe(422);
    const error = body.error as { code: string; violations: { path: string }[] };
    expect(error.code).toBe("request.invalid");
    expect(error.violations.map((v) => v.path)).toEqual(["filter.and[1].or[0].status", "filter.and[1].or[1].nope", "sorting.id", "page.no", "page.size"]);
  });

  it("survives garbage bodies", async () => {
    const garbage = ["null", "[]", "42", '"x"', '{"filter":[]}', '{"filter":{"and":{}}}', '{"filter":{"not":[]},"sorting":[],"page":"x"}', "\u0000\u00ff", '{"filter":{"id":{"a":1}}}'];
    for (const body of garbage) {
      const res = await api.post("/v4/products/query", body);
      expect([400, 422]).toContain(res.status);
      await res.arrayBuffer();
    }
    let deep: unknown = { status: "active" };
    for (let k = 0; k < 1000; k++) deep = { not: deep };
    const nested = await api.json("/v4/products/query", { filter: deep, sorting: { id: "ASC" }, page: { no: 0, size: 10 } });
    expect(nested.status).toBe(422);
    expect((nested.body.error as { violations: { message: string }[] }).violations[0]?.message).toContain("nest at most");
    const abyss = await api.post("/v4/products/query", '{"filter":' + '{"not":'.repeat(100_000) + "{}" + "}".repeat(100_001));
    expect([400, 422]).toContain(abyss.status);
    await abyss.arrayBuffer();
    const huge = await api.post("/v4/products/query", "x".repeat(2 * 1024 * 1024));
    expect(huge.status).toBe(413);
    await huge.arrayBuffer();
    const after = await api.json("/v4/products/query", { ...ALL, page: { no: 0, size: 10 } });
    expect(after.status).toBe(200);
  });
});

describe("products/query and products/stream", () => {
  const catalogue = () => createCatalogue({ seed: 7, products: 300, assetBaseUrl: api.sandbox.url });

  it("pages in id order with meta.page", async () => {
    const { status, body } = await api.json("/v4/products/query", { ...ALL, page: { no: 2, size: 50 } });
    expect(status).toBe(200);
    expect(body.meta).toEqual({ total: 300, page: { no: 2, offset: 100, size: 50 } });
    const ids = (body.results as { id: string }[]).map((p) => p.id);
    expect(ids).toEqual(Array.from({ length: 50 }, (_, k) => catalogue().id(100 + k)));
  });

  it("filters by status and id", async () => {
    const wanted = [catalogue().id(3), catalogue().id(17), "MFFFFFFFFF"];
    const { body } = await api.json("/v4/products/query", { filter: { id: wanted }, sorting: { id: "DESC" }, page: { no: 0, size: 10 } });
    expect((body.results as { id: string }[]).map((p) => p.id)).toEqual([catalogue().id(17), catalogue().id(3)]);
    const inactive = [...Array(300).keys()].filter((i) => catalogue().status(i) === "inactive");
    const res = await api.json("/v4/products/query", { filter: { status: "inactive" }, sorting: { id: "ASC" }, page: { no: 0, size: 250 } });
    expect((res.body.meta as { total: number }).total).toBe(inactive.length);
  });

  it("streams every product as NDJSON with meta.total and meta.index", async () => {
    const res = await api.post("/v4/products/stream", ALL);
    expect(res.headers.get("content-type")).toBe("application/x-json-stream");
    const text = await res.text();
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l) as { meta: { total: number; index: number }; result: { id: string } });
    expect(lines).toHaveLength(300);
    lines.forEach((line, k) => {
      expect(line.meta).toEqual({ total: 300, index: k });
      expect(line.result.id).toBe(catalogue().id(k));
    });
    expect(JSON.stringify(lines[5]?.result) === JSON.stringify(catalogue().product(5))).toBe(true);
  });

  it("serves an empty catalogue", async () => {
    const empty = await open({ products: 0 });
    try {
      const res = await empty.post("/v4/products/stream", ALL);
      expect(res.status).toBe(204);
      const { body } = await empty.json("/v4/products/query", { ...ALL, page: { no: 0, size: 10 } });
      expect(body).toEqual({ meta: { total: 0, page: { no: 0, offset: 0, size: 10 } }, results: [] });
      expect((await empty.json("/v4/updates/query", {})).status).toBe(200);
    } finally {
      await empty.sandbox.close();
    }
  });

  it("answers 204 with an empty body when nothing matches", async () => {
    const res = await api.post("/v4/products/stream", { filter: { id: "M000000000" }, sorting: { id: "ASC" } });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
  });
});
