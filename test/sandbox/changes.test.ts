/**
 * The sandbox's catalogue over time: updatedSince returns exactly the products
 * changed since, and the changes merged into an earlier full read give the full
 * read of the later moment.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE_NOW } from "../../src/sandbox/generate/clock.js";
import { ALL, open, type Api } from "./helpers.js";

const HOUR = 3600;
type Rec = Record<string, unknown> & { id: string; meta: { updatedAt: number; createdAt: number } };

async function byId(api: Api, body: unknown): Promise<Map<string, string>> {
  const { lines } = await api.lines("/v4/products/stream", body);
  return new Map(lines.map((l) => [(l.result as Rec).id, JSON.stringify(l.result)]));
}

describe("sandbox changes over time", () => {
  let api: Api;
  const t0 = CATALOGUE_NOW + 2 * HOUR;
  const t1 = t0 + 12 * HOUR;

  beforeAll(async () => {
    api = await open({ products: 400, seed: 7, changes: { perHour: 0.01, newPerHour: 1, since: CATALOGUE_NOW, at: t0 } });
  });
  afterAll(() => api.sandbox.close());

  it("gives products changes of every kind, and updatedSince returns exactly the products changed since", async () => {
    api.sandbox.clock.set(t0);
    const before = await byId(api, ALL);
    expect(before.size).toBe(402);
    api.sandbox.clock.set(t1);
    const after = await byId(api, ALL);
    expect(after.size).toBe(414);
    const changed = [...after].filter(([id, json]) => before.get(id) !== json).map(([id]) => id);
    const delta = await byId(api, { filter: { updatedSince: t0 + 1 }, sorting: { id: "ASC" } });
    expect([...delta.keys()].sort()).toEqual(changed.sort());
    // Every kind of change happened: new products, prices, names, status both ways, deletions.
    const parse = (json: string | undefined) => (json === undefined ? undefined : (JSON.parse(json) as Rec));
    const pairs = changed.map((id) => [parse(before.get(id)), parse(after.get(id))] as const);
    expect(pairs.filter(([b]) => b === undefined)).toHaveLength(12);
    const old = pairs.filter((p): p is readonly [Rec, Rec] => p[0] !== undefined);
    expect(old.some(([b, a]) => a.publicPrice !== b.publicPrice)).toBe(true);
    expect(old.some(([b, a]) => JSON.stringify(a.name) !== JSON.stringify(b.name))).toBe(true);
    expect(old.some(([b, a]) => b.status === "active" && a.status === "inactive")).toBe(true);
    expect(old.some(([b, a]) => b.deleted === false && a.deleted === true)).toBe(true);
    expect(old.some(([b, a]) => JSON.stringify(a.photos) !== JSON.stringify(b.photos))).toBe(true);
    for (const [, a] of old) expect(a.meta.updatedAt).toBeGreaterThan(t0);
  });

  it("filters on status see the changed status", async () => {
    api.sandbox.clock.set(t1);
    const all = await byId(api, ALL);
    const active = await byId(api, { filter: { status: "active" }, sorting: { id: "ASC" } });
    const expected = [...all].filter(([, json]) => (JSON.parse(json) as Rec).status === "active").map(([id]) => id);
    expect([...active.keys()]).toEqual(expected);
  });

  it("gives the same bytes for the same seed and moment", async () => {
    const other = await open({ products: 400, seed: 7, changes: { perHour: 0.01, newPerHour: 1, since: CATALOGUE_NOW, at: t1 } });
    try {
      api.sandbox.clock.set(t1);
      const a = await api.lines("/v4/products/stream", ALL);
      const b = await other.lines("/v4/products/stream", ALL);
      // Photo URLs name each sandbox's own port (escaped the PHP way).
      const url = (s: Api) => s.sandbox.url.replaceAll("/", "\\/");
      expect(b.text.replaceAll(url(other), "URL") === a.text.replaceAll(url(api), "URL")).toBe(true);
    } finally {
      await other.sandbox.close();
    }
  });
});
