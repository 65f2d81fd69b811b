/**
 * The sandbox's photo URLs answer real image bytes: the spec's size per
 * format, JPEG / WebP / transparent PNG, deterministic per media (same bytes
 * from another sandbox), with ETag, 304, HEAD, the media User-Agent rule and
 * the brokenImages faults.
 */
import { request } from "node:http";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { createCatalogue, type SandboxHandle } from "../../src/sandbox/index.js";
import { CAP_COLOUR, isSideways, parseImagePath } from "../../src/sandbox/images.js";
import { ImageLru } from "../../src/sandbox/server/images.js";
import { closeSandboxes, firstInk, get, near, pixel, sandboxOf } from "./helpers.js";

afterAll(closeSandboxes);

const SEED = 7;
const PRODUCTS = 40;

/** Photo and frontal format URLs of the first product that has both. */
function mediaOf(sandbox: SandboxHandle) {
  const catalogue = createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: sandbox.url });
  for (const product of catalogue.products()) {
    const photos = product.photos as { formats: Record<string, string> }[];
    const frontals = product.frontals as { formats: Record<string, string> }[];
    if (photos.length > 0 && frontals.length > 0) return { photo: photos[0]!.formats, frontal: frontals[0]!.formats };
  }
  throw new Error("no product with a photo and a frontal");
}

/** A GET without any User-Agent header (fetch and undici always send one). */
function bareGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on("error", reject)
      .end();
  });
}

describe("sandbox photo bytes", () => {
  it("serves every format key at the spec's size, in the file type of its extension", async () => {
    const sandbox = await sandboxOf({ seed: SEED, products: PRODUCTS });
    const { photo, frontal } = mediaOf(sandbox);
    const expected: [string, string, number, string][] = [
      [photo.thumbnail!, "jpeg", 200, "image/jpeg"],
      [photo.medium!, "jpeg", 450, "image/jpeg"],
      [photo.large!, "jpeg", 900, "image/jpeg"],
      [photo.huge!, "jpeg", 1500, "image/jpeg"],
      [photo.largeWebp!, "webp", 900, "image/webp"],
      [frontal.medium!, "png", 450, "image/png"],
      [frontal.largeJpg!, "jpeg", 900, "image/jpeg"],
      [frontal.hugeWebp!, "webp", 1500, "image/webp"],
    ];
    for (const [url, format, size, type] of expected) {
      const { status, headers, body } = await get(url);
      expect(status, url).toBe(200);
      expect(headers["content-type"]).toBe(type);
      expect(Number(headers["content-length"])).toBe(body.length);
      expect(headers["cache-control"]).toContain("max-age=31536000");
      const meta = await sharp(body).metadata();
      expect([meta.format, meta.width, meta.height], url).toEqual([format, size, size]);
    }
  });

  it("draws frontal PNGs on transparency and photos on an opaque background", async () => {
    const sandbox = await sandboxOf({ seed: SEED, products: PRODUCTS });
    const { photo, frontal } = mediaOf(sandbox);
    const png = (await get(frontal.thumbnail!)).body;
    expect((await sharp(png).metadata()).hasAlpha).toBe(true);
    expect((await pixel(png, 0, 0))[3]).toBe(0);
    expect((await pixel(png, 100, 100))[3]).toBe(255);
    expect((await pixel((await get(photo.thumbnail!)).body, 0, 0))[3]).toBe(255);
  });

  it("sends the same bytes for the same media from any sandbox (deterministic per media id and format)", async () => {
    const a = await sandboxOf({ seed: SEED, products: PRODUCTS });
    const b = await sandboxOf({ seed: SEED, products: PRODUCTS });
    const [ma, mb] = [mediaOf(a), mediaOf(b)];
    const [first, again, other] = await Promise.all([get(ma.photo.medium!), get(ma.photo.medium!), get(mb.photo.medium!)]);
    expect(first.body.equals(again.body)).toBe(true);
    expect(first.body.equals(other.body)).toBe(true);
    expect(first.headers.etag).toBe(other.headers.etag);
    expect(first.body.equals((await get(ma.photo.large!)).body)).toBe(false);
  });

  it("carries EXIF and ICC metadata, and turns one JPEG photo in eight sideways with an EXIF orientation", async () => {
    const sandbox = await sandboxOf({ seed: SEED, products: PRODUCTS });
    const meta = await sharp((await get(mediaOf(sandbox).photo.medium!)).body).metadata();
    expect(meta.exif).toBeDefined();
    expect(meta.icc).toBeDefined();
    const hexes = Array.from({ length: 400 }, (_, i) => (i * 2654435761 + 12345).toString(16).padStart(8, "0").repeat(5).slice(0, 40));
    const sideways = hexes.filter(isSideways);
    expect(sideways.length / hexes.length).toBeGreaterThan(0.05);
    expect(sideways.length / hexes.length).toBeLessThan(0.25);
    const turned = await get(`${sandbox.url}/media/large/${sideways[0]}.jpeg`);
    expect((await sharp(turned.body).metadata()).orientation).toBe(6);
    // Upright once EXIF is applied: going down the middle column, the pack starts with its dark cap.
    expect(near(await firstInk(await sharp(turned.body).rotate().png().toBuffer()), CAP_COLOUR)).toBe(true);
    expect(near(await firstInk(await sharp(turned.body).png().toBuffer()), CAP_COLOUR)).toBe(false);
  });

  it("answers HEAD without a body and 304 to a matching If-None-Match", async () => {
    const sandbox = await sandboxOf({ seed: SEED, products: PRODUCTS });
    const url = mediaOf(sandbox).photo.large!;
    const full = await get(url);
    const head = await get(url, { "user-agent": "pharmafeed-tests/1.0 (tests@example.com)" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(String(full.body.length));
    const cached = await get(url, { "user-agent": "pharmafeed-tests/1.0 (tests@example.com)", "if-none-match": String(full.headers.etag) });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    const stale = await get(url, { "user-agent": "pharmafeed-tests/1.0 (tests@example.com)", "if-none-match": '"other"' });
    expect(stale.status).toBe(200);
  });

  it("refuses a missing or generic User-Agent like the media endpoints, and 404s URLs the generator never makes", async () => {
    const sandbox = await sandboxOf({ seed: SEED, products: PRODUCTS });
    const url = mediaOf(sandbox).photo.huge!;
    expect(await bareGet(url)).toBe(403);
    const curl = await get(url, { "user-agent": "curl/8.5.0" });
    expect(curl.status).toBe(403);
    expect(JSON.parse(curl.body.toString()).error.code).toBe("request.user_agent_required");
    const hex = url.split("/").pop()!.slice(0, 40);
    for (const path of [`/media/large/${hex}.png`, `/media/largeJpg/${hex}.png`, `/media/hugeWebp/${hex}.jpeg`, `/media/giant/${hex}.jpeg`, `/media/huge/${hex.slice(1)}.jpeg`]) {
      expect((await get(sandbox.url + path)).status, path).toBe(404);
    }
    expect(parseImagePath(`/media/mediumJpeg/${hex}.jpeg`)).toMatchObject({ size: 450, kind: "jpeg", frontal: true });
  });

  it("fails the listed images with 404, 500 or corrupt bytes (brokenImages fault)", async () => {
    const probe = await sandboxOf({ seed: SEED, products: PRODUCTS });
    const { photo } = mediaOf(probe);
    const hex = photo.huge!.split("/").pop()!.slice(0, 40);
    for (const mode of ["404", "500", "corrupt"] as const) {
      const sandbox = await sandboxOf({ seed: SEED, products: PRODUCTS, faults: { brokenImages: { hexes: [hex], mode } } });
      const { photo: broken } = mediaOf(sandbox);
      const { status, body } = await get(broken.huge!);
      expect(status, mode).toBe(mode === "corrupt" ? 200 : Number(mode));
      if (mode === "corrupt") await expect(sharp(body).toBuffer()).rejects.toThrow();
      // Other images are fine.
      expect((await get(mediaOf(sandbox).frontal.huge!)).status).toBe(200);
    }
  });
});

describe("ImageLru", () => {
  it("keeps the most recently used images within its byte budget", () => {
    const lru = new ImageLru(10);
    lru.set("a", Buffer.alloc(4));
    lru.set("b", Buffer.alloc(4));
    lru.get("a");
    lru.set("c", Buffer.alloc(4));
    expect([lru.get("a") !== undefined, lru.get("b") !== undefined, lru.get("c") !== undefined]).toEqual([true, false, true]);
    lru.set("huge", Buffer.alloc(11));
    expect(lru.get("huge")).toBeUndefined();
    expect(lru.size).toBe(2);
  });
});
