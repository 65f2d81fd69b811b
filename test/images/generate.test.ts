/**
 * `generate` with a channel that processes images, end to end over the
 * sandbox: the feed's image links exist under output/images/ and read back
 * right; rows keep the catalogue order; channels without images.process are
 * byte for byte what they were; a second run downloads nothing; broken photos
 * follow the channel's onError; a missing publicBaseUrl is a config error.
 */
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { isPharmafeedError } from "../../src/errors.js";
import { removeTemporaries } from "../e2e/config.js";
import { itemId, parseFeed, readReport, sha256, type Row } from "../e2e/feeds.js";
import { channel, closeSandboxes, mediaRequests, pixel, processing, PUBLIC, sandboxOf, setup } from "./helpers.js";

afterAll(async () => {
  await closeSandboxes();
  await removeTemporaries();
});

const NOW = new Date("2026-03-10T02:00:00Z");
const FRONTALS_FIRST = { photoTypes: ["frontal", "packshot", "productshot"] };

/** Main then additional image links of a row of the meta (CSV) or google (XML) layout. */
function links(row: Row): string[] {
  if ("g:image_link" in row) return [row["g:image_link"] as string, ...((row["g:additional_image_link"] as string[] | undefined) ?? [])];
  const extra = String(row["additional_image_link"] ?? "");
  return [String(row["image_link"]), ...(extra === "" ? [] : extra.split(","))];
}

async function feed(outputDir: string, file: string, format: string, preset: string) {
  const rows = parseFeed(await readFile(join(outputDir, file), "utf8"), format);
  return rows.map((row) => ({ id: itemId(row, preset), links: links(row) }));
}

describe("generate with images.process", () => {
  it("links every image to a processed file under output/images/, in catalogue order, and leaves other channels untouched", async () => {
    const sandbox = await sandboxOf({ seed: 11, products: 60 });
    const channels = [
      channel("google-images", processing({ size: 600, fit: "contain" }), "google"),
      channel("google-plain", { images: FRONTALS_FIRST }, "google"),
    ];
    const { tree, run } = await setup(sandbox, { channels });
    const result = await run({ now: NOW });
    const [processed, plain] = result.manifest.channels;
    expect(processed!.published).toBe(true);
    expect(processed!.items).toBe(plain!.items);
    expect(processed!.excluded).toEqual(plain!.excluded);
    expect(result.images).toMatchObject({ failed: 0 });
    expect(result.images!.conversions).toBeGreaterThan(20);
    // The run report carries the same counts, on disk.
    const manifest = JSON.parse(await readFile(join(tree.outputDir, "manifest.json"), "utf8")) as { images?: Record<string, number> };
    expect(manifest.images).toEqual({ ...result.images });

    const rows = await feed(tree.outputDir, processed!.file, "xml", "google");
    const originals = await feed(tree.outputDir, plain!.file, "xml", "google");
    expect(rows.map((r) => r.id)).toEqual(originals.map((r) => r.id));
    let transparent = 0;
    for (const [i, row] of rows.entries()) {
      const original = originals[i]!;
      // Additional images beyond process.maxAdditional (4) are left out.
      expect(row.links).toHaveLength(Math.min(original.links.length, 5));
      for (const [k, link] of row.links.entries()) {
        expect(link).toMatch(new RegExp(`^${PUBLIC}/images/[0-9a-f]{32}\\.jpg$`));
        const file = join(tree.outputDir, "images", link.slice(`${PUBLIC}/images/`.length));
        await access(file);
        const bytes = await readFile(file);
        const meta = await sharp(bytes).metadata();
        expect([meta.format, meta.width, meta.height, meta.exif, meta.icc]).toEqual(["jpeg", 600, 600, undefined, undefined]);
        if (original.links[k]!.endsWith(".png")) {
          transparent++;
          const corner = await pixel(bytes, 0, 0);
          expect(corner[3]).toBe(255);
          expect(Math.min(...corner.slice(0, 3))).toBeGreaterThanOrEqual(250);
        }
      }
    }
    expect(transparent).toBeGreaterThan(3);

    // The plain channel is exactly what a run without any image processing makes.
    const alone = await setup(sandbox, { channels: [channels[1]!], publicBaseUrl: null });
    const bare = await alone.run({ now: NOW });
    expect(bare.images).toBeUndefined();
    expect(sha256(await readFile(join(alone.tree.outputDir, plain!.file)))).toBe(plain!.sha256);
  });

  it("a second run with the same catalogue downloads and processes nothing, and publishes the same feed", async () => {
    const sandbox = await sandboxOf({ seed: 12, products: 40 });
    const { run } = await setup(sandbox, { channels: [channel("meta-images", processing({ size: 500 }))] });
    const first = await run({ now: NOW });
    const requests = mediaRequests(sandbox);
    expect(requests).toBe(first.images!.downloads);
    expect(first.images!.downloads).toBeGreaterThan(10);

    const second = await run({ now: NOW });
    expect(mediaRequests(sandbox)).toBe(requests);
    expect(second.images).toMatchObject({ downloads: 0, conversions: 0, written: 0, cacheHits: second.images!.requested });
    expect(second.manifest.channels[0]!.sha256).toBe(first.manifest.channels[0]!.sha256);
  });

  it("keeps the order and every row with a FIFO of one row and one download at a time (backpressure on every product)", async () => {
    const sandbox = await sandboxOf({ seed: 14, products: 30 });
    const channels = [channel("meta-images", processing({ size: 300 })), channel("meta-plain", { images: FRONTALS_FIRST })];
    const { tree, run } = await setup(sandbox, { channels });
    const result = await run({ now: NOW, images: { pendingRows: 1, downloads: 1, conversions: 1 } });
    const [processed, plain] = result.manifest.channels;
    const rows = await feed(tree.outputDir, processed!.file, "csv", "meta");
    expect(rows.map((r) => r.id)).toEqual((await feed(tree.outputDir, plain!.file, "csv", "meta")).map((r) => r.id));
    expect(rows.every((r) => r.links.every((link) => link.startsWith(`${PUBLIC}/images/`)))).toBe(true);
  });

  for (const mode of ["404", "corrupt"] as const) {
    it(`broken photos (${mode}): the original URL with onError original, IMAGE_FAILED with exclude, both counted`, async () => {
      const sandbox = await sandboxOf({ seed: 13, products: 60, faults: { brokenImages: { share: 0.3, mode } } });
      const channels = [
        channel("meta-fallback", processing({ onError: "original" })),
        channel("meta-exclude", processing({ onError: "exclude" })),
        channel("meta-plain", { images: FRONTALS_FIRST }),
      ];
      const { tree, run } = await setup(sandbox, { channels });
      const result = await run({ now: NOW });
      const [fallback, exclude, plain] = result.manifest.channels;
      const read = (entry: typeof plain) => feed(tree.outputDir, entry!.file, "csv", "meta");
      const [fallbackRows, excludeRows, plainRows] = await Promise.all([read(fallback), read(exclude), read(plain)]);
      expect(result.images!.failed).toBeGreaterThan(0);

      // Fallback: every product kept; each failed image is the catalogue's URL, each counted.
      expect(fallbackRows.map((r) => r.id)).toEqual(plainRows.map((r) => r.id));
      const originals = fallbackRows.flatMap((r) => r.links).filter((link) => link.startsWith(sandbox.url));
      expect(originals.length).toBeGreaterThan(0);
      expect(fallback!.warnings["IMAGE_FALLBACK"]).toBe(originals.length);
      for (const row of fallbackRows) for (const link of row.links) expect(link.startsWith(sandbox.url) || link.startsWith(`${PUBLIC}/images/`)).toBe(true);

      // Exclude: the products whose main image failed are out with IMAGE_FAILED, the rest in catalogue order.
      const failed = (await readReport(tree.outputDir, "meta-exclude")).filter((r) => r["reason"] === "IMAGE_FAILED");
      expect(failed.length).toBeGreaterThan(0);
      expect(exclude!.excluded["IMAGE_FAILED"]).toBe(failed.length);
      expect(String(failed[0]!["detail"])).toMatch(mode === "404" ? /download: HTTP 404/ : /conversion: /);
      const out = new Set(failed.map((r) => r["id"]));
      expect(excludeRows.map((r) => r.id)).toEqual(plainRows.map((r) => r.id).filter((id) => !out.has(id)));
      expect(excludeRows.flatMap((r) => r.links).every((link) => link.startsWith(`${PUBLIC}/images/`))).toBe(true);
      // Both channels ask for the same photos: one request each, broken or not (a 404 is not retried).
      expect(mediaRequests(sandbox)).toBe(new Set(plainRows.flatMap((r) => r.links.slice(0, 5))).size);
    });
  }

  it("refuses a channel that processes images when output.publicBaseUrl is missing (CONFIG_INVALID)", async () => {
    const sandbox = await sandboxOf({ products: 1 });
    // Refused when the config loads (validate too), before any run.
    const error = await setup(sandbox, { channels: [channel("meta-images", processing())], publicBaseUrl: null })
      .then(({ run }) => run())
      .catch((e: unknown) => e);
    expect(isPharmafeedError(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toContain("publicBaseUrl");
    expect(mediaRequests(sandbox)).toBe(0);
  });

  it("refuses unknown keys and out-of-range values in images.process when the config loads", async () => {
    const sandbox = await sandboxOf({ products: 1 });
    for (const process of [{ sise: 800 }, { size: 20 }, { format: "gif" }, { background: "white" }, { onError: "skip" }]) {
      const error = await setup(sandbox, { channels: [channel("meta-images", { images: { process } })] }).catch((e: unknown) => e);
      expect(isPharmafeedError(error, "CONFIG_INVALID"), JSON.stringify(process)).toBe(true);
      expect((error as Error).message).toContain("images.process");
    }
  });
});
