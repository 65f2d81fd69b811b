/** media/query and media/stream: filters against the tests' own evaluation, sortings, User-Agent rule. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogue, HIDDEN, type MediaRecord } from "../../src/sandbox/index.js";
import { open, type Api } from "./helpers.js";
import { CATALOGUE_NOW_FOR_TESTS } from "./values.js";

const N = 200;
let api: Api;
let media: MediaRecord[];

beforeAll(async () => {
  api = await open({ products: N, seed: 3 });
  media = [...createCatalogue({ seed: 3, products: N, assetBaseUrl: api.sandbox.url }).media()];
});
afterAll(() => api.sandbox.close());

async function streamIds(filter: unknown, sorting: unknown = { id: "ASC" }): Promise<number[]> {
  const { status, lines } = await api.lines("/v4/media/stream", { filter, sorting });
  expect([200, 204]).toContain(status);
  return lines.map((l) => l.result.id as number);
}
const want = (pred: (m: MediaRecord) => boolean) => media.filter(pred).map((m) => m.id as number);
const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);
const frontal = (m: MediaRecord) => "mediumJpeg" in ((m.formats as object | undefined) ?? {});

const cases: [string, unknown, (m: MediaRecord) => boolean][] = [
  ["type photo (not frontals)", { type: "photo" }, (m) => m.type === "photo" && !frontal(m)],
  ["type frontal", { type: "frontal" }, frontal],
  ["type link", { type: ["link"] }, (m) => m.type === "link"],
  ["photoType", { photoType: ["pillshot", "lifestyle_image"] }, (m) => m.photoType === "pillshot" || m.photoType === "lifestyle_image"],
  ["linkType", { linkType: "video" }, (m) => m.linkType === "video"],
  ["visibleSides", { visibleSides: ["left", "top"] }, (m) => list(m.visibleSides).some((s) => s === "left" || s === "top")],
  ["locale", { locale: "nl" }, (m) => list(m.locales).includes("nl")],
  ["targetGroup", { targetGroup: "pharmacist" }, (m) => list(m.targetGroups).includes("pharmacist")],
  ["published", { published: false }, (m) => m[HIDDEN].published === false],
  ["available", { available: false }, (m) => m.type === "link" && ((m.available as { until: number }).until < CATALOGUE_NOW_FOR_TESTS || (m.available as { from: number }).from > CATALOGUE_NOW_FOR_TESTS)],
  ["organization", { organization: 1003 }, (m) => m[HIDDEN].organization === 1003],
  ["createdAt", { createdAt: { from: 1400000000, until: 1600000000 } }, (m) => { const t = (m.meta as { createdAt: number }).createdAt; return t >= 1400000000 && t <= 1600000000; }],
  ["updatedSince", { updatedSince: 1700000000 }, (m) => (m.meta as { updatedAt: number }).updatedAt >= 1700000000],
  ["and/not", { and: [{ type: "photo" }, { not: { photoType: "packshot" } }] }, (m) => m.type === "photo" && !frontal(m) && m.photoType !== "packshot"],
];

describe("media filters", () => {
  it.each(cases)("%s", async (_name, filter, pred) => {
    const expected = want(pred);
    expect(expected.length).toBeGreaterThan(0);
    expect(await streamIds(filter)).toEqual(expected);
  });

  it("product: the media of one product, as media items (no displayOrder)", async () => {
    const item = media.find((m) => m.type === "photo") as MediaRecord;
    const productId = item[HIDDEN].productId;
    const { status, body } = await api.json("/v4/media/query", { filter: { product: productId }, sorting: { id: "DESC" }, page: { no: 0, size: 10 } });
    expect(status).toBe(200);
    const results = body.results as Record<string, unknown>[];
    expect(results.map((r) => r.id)).toEqual(want((m) => m[HIDDEN].productId === productId).reverse());
    expect(results[0]).not.toHaveProperty("displayOrder");
    expect(Object.keys((results.filter((r) => r.type === "photo").at(-1)?.formats as object) ?? {})).toEqual(["thumbnail", "thumbnailWebp", "medium", "mediumWebp", "large", "largeWebp", "huge", "hugeWebp"]);
  });

  it("sorts by createdAt and touchedAt", async () => {
    const sorted = (key: "createdAt" | "updatedAt", dir: 1 | -1) =>
      media
        .map((m, i) => ({ id: m.id as number, i, k: (m.meta as Record<string, number>)[key] as number }))
        .sort((a, b) => (a.k < b.k ? -dir : a.k > b.k ? dir : a.i - b.i))
        .map((x) => x.id);
    expect(await streamIds({}, { createdAt: "DESC" })).toEqual(sorted("createdAt", -1));
    expect(await streamIds({}, { touchedAt: "ASC" })).toEqual(sorted("updatedAt", 1));
  });

  it("pages with meta.page and answers 204 on an empty stream", async () => {
    const { body } = await api.json("/v4/media/query", { filter: { type: "photo" }, sorting: { id: "ASC" }, page: { no: 1, size: 10 } });
    expect(body.meta).toEqual({ total: want((m) => m.type === "photo" && !frontal(m)).length, page: { no: 1, offset: 10, size: 10 } });
    const res = await api.post("/v4/media/stream", { filter: { product: "M000000000" }, sorting: { id: "ASC" } });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
  });

  it("refuses requests without a proper User-Agent", async () => {
    for (const ua of ["", "-", "curl/8.5.0", "Mozilla/5.0"]) {
      const res = await api.post("/v4/media/query", { filter: {}, sorting: { id: "ASC" }, page: { no: 0, size: 10 } }, { headers: { "user-agent": ua } });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("request.user_agent_required");
    }
  });
});
