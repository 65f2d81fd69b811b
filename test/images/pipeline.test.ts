/**
 * ImagePipeline against the sandbox's photo URLs: the cache across runs
 * (counted with the sandbox's request stats), updatedAt, one job for two
 * channels, failures remembered for the run, dry runs, pruning.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { ImagePipeline, type ImagePipelineOptions } from "../../src/images/pipeline.js";
import { ImageProcessSettings } from "../../src/images/settings.js";
import type { ImageSource } from "../../src/mapping/feed-item.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { closeSandboxes, FAST_IMAGES, mediaRequests, PUBLIC, sandboxOf } from "./helpers.js";

const dirs: string[] = [];
afterAll(async () => {
  await closeSandboxes();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function outputDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pharmafeed-pipeline-"));
  dirs.push(dir);
  return dir;
}

const HEXES = ["1", "2", "3", "4"].map((d) => d.repeat(40));
const sourceOf = (sandbox: SandboxHandle, i: number, updatedAt = 1_700_000_000, key = "large"): ImageSource => ({
  url: `${sandbox.url}/media/${key}/${HEXES[i]}.jpeg`,
  mediaId: 100_000 + i,
  updatedAt,
});
const JPEG_800 = ImagePipeline.channel(ImageProcessSettings.parse({ size: 800 }));
const PNG_300 = ImagePipeline.channel(ImageProcessSettings.parse({ size: 300, format: "png" }));

async function open(dir: string, extra: Partial<ImagePipelineOptions> = {}) {
  return ImagePipeline.open({ outputDir: dir, publicBaseUrl: PUBLIC, userAgent: "pharmafeed/0.1.0 (tests@example.com)", now: new Date("2026-03-10T02:00:00Z"), options: FAST_IMAGES, ...extra });
}

/** One run: every source through the pipeline, then close and commit. */
async function run(dir: string, sources: ImageSource[], channel = JPEG_800, extra: Partial<ImagePipelineOptions> = {}) {
  const pipeline = await open(dir, extra);
  const outcomes = await pipeline.item(sources, channel);
  await pipeline.close();
  await pipeline.commit();
  return { outcomes, stats: pipeline.stats };
}

describe("ImagePipeline", () => {
  it("stores each result under a content name and links it under publicBaseUrl/images/", async () => {
    const sandbox = await sandboxOf({ products: 1 });
    const dir = await outputDir();
    const { outcomes, stats } = await run(dir, [sourceOf(sandbox, 0), sourceOf(sandbox, 1)]);
    expect(stats).toMatchObject({ requested: 2, downloads: 2, conversions: 2, written: 2, failed: 0 });
    const files = (await readdir(join(dir, "images"))).filter((n) => n.endsWith(".jpg"));
    expect(files).toHaveLength(2);
    for (const outcome of outcomes) {
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) continue;
      const name = outcome.url.slice(`${PUBLIC}/images/`.length);
      expect(outcome.url).toBe(`${PUBLIC}/images/${name}`);
      expect(files).toContain(name);
      const meta = await sharp(join(dir, "images", name)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 800, 800]);
    }
  });

  it("a second run with the same photos downloads and converts nothing; a changed updatedAt or settings does", async () => {
    const sandbox = await sandboxOf({ products: 1 });
    const dir = await outputDir();
    const sources = [sourceOf(sandbox, 0), sourceOf(sandbox, 1)];
    const first = await run(dir, sources);
    const before = mediaRequests(sandbox);
    expect(before).toBe(2);

    const second = await run(dir, sources);
    expect(mediaRequests(sandbox)).toBe(before);
    expect(second.stats).toMatchObject({ requested: 2, cacheHits: 2, downloads: 0, conversions: 0, written: 0 });
    expect(second.outcomes).toEqual(first.outcomes);

    const changed = await run(dir, [sourceOf(sandbox, 0, 1_800_000_000), sources[1]!]);
    expect(changed.stats).toMatchObject({ cacheHits: 1, downloads: 1, conversions: 1 });
    // Same bytes from the host, same settings: the same file, so the URL stays put.
    expect(changed.outcomes).toEqual(first.outcomes);
    expect(mediaRequests(sandbox)).toBe(before + 1);

    const png = await run(dir, sources, PNG_300);
    expect(png.stats).toMatchObject({ downloads: 2, conversions: 2 });
    expect(png.outcomes.every((o) => o.ok && o.url.endsWith(".png"))).toBe(true);
  });

  it("runs one job for a photo two channels ask for at once, and remembers a failure for the run", async () => {
    const sandbox = await sandboxOf({ products: 1, faults: { brokenImages: { hexes: [HEXES[3]!], mode: "500" } } });
    const pipeline = await open(await outputDir());
    const [a, b] = await Promise.all([pipeline.image(sourceOf(sandbox, 0), JPEG_800), pipeline.image(sourceOf(sandbox, 0), JPEG_800)]);
    expect(a).toEqual(b);
    expect(pipeline.stats).toMatchObject({ requested: 2, shared: 1, downloads: 1 });
    const failed = await pipeline.image(sourceOf(sandbox, 3), JPEG_800);
    expect(failed).toEqual({ ok: false, reason: "download: HTTP 500 (after 2 retries)" });
    const requests = mediaRequests(sandbox);
    expect(pipeline.image(sourceOf(sandbox, 3), JPEG_800)).toEqual(failed);
    // Other settings, same photo: not downloaded again.
    expect(await pipeline.image(sourceOf(sandbox, 3), PNG_300)).toEqual(failed);
    expect(mediaRequests(sandbox)).toBe(requests);
    expect(pipeline.stats).toMatchObject({ failed: 2, retries: 2 });
    // Two settings asking at the same time share the download.
    await Promise.all([pipeline.image(sourceOf(sandbox, 1), JPEG_800), pipeline.image(sourceOf(sandbox, 1), PNG_300)]);
    expect(pipeline.stats).toMatchObject({ downloads: 2, conversions: 3 });
    await pipeline.close();
  });

  it("a dry run converts but writes no file and no index", async () => {
    const sandbox = await sandboxOf({ products: 1 });
    const dir = await outputDir();
    const { outcomes, stats } = await run(dir, [sourceOf(sandbox, 0)], JPEG_800, { dryRun: true });
    expect(outcomes[0]!.ok).toBe(true);
    expect(stats.conversions).toBe(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it("prunes the files of photos no run used for retainDays", async () => {
    const sandbox = await sandboxOf({ products: 1 });
    const dir = await outputDir();
    await run(dir, [sourceOf(sandbox, 0), sourceOf(sandbox, 1)]);
    const files = async () => (await readdir(join(dir, "images"))).filter((n) => n.endsWith(".jpg")).length;
    expect(await files()).toBe(2);
    // Three days later photo 1 is gone from the catalogue: kept (7 days), then pruned.
    await run(dir, [sourceOf(sandbox, 0)], JPEG_800, { now: new Date("2026-03-13T02:00:00Z") });
    expect(await files()).toBe(2);
    const late = await run(dir, [sourceOf(sandbox, 0)], JPEG_800, { now: new Date("2026-03-18T02:00:00Z") });
    expect(late.stats.pruned).toBe(1);
    expect(await files()).toBe(1);
  });

  it("close() stops downloads still running", async () => {
    // Every attempt fails with 500 and backs off for far longer than the test's timeout: only an
    // abort ends the job within it (no time bound of its own, which a loaded machine could miss).
    const sandbox = await sandboxOf({ products: 1, faults: { brokenImages: { hexes: [HEXES[2]!], mode: "500" } } });
    const pipeline = await open(await outputDir(), { options: { retry: { baseMs: 3_600_000, maxMs: 3_600_000, jitter: "none" } } });
    const job = pipeline.image(sourceOf(sandbox, 2), JPEG_800) as Promise<unknown>;
    while (mediaRequests(sandbox) === 0) await new Promise((r) => setTimeout(r, 5));
    await pipeline.close();
    await expect(job).rejects.toThrow();
  });
});
