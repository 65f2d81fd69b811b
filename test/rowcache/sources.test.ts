/**
 * Row reuse around what the source and the image pipeline do: a delta between
 * two refreshes (a new snapshot), lines the snapshot holds that are not records
 * (rejected, and counted the same by a refresh that reuses), and a channel that
 * processes its images (its rows depend on the image pipeline: not copied).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createCatalogue } from "../../src/sandbox/index.js";
import { CATALOGUE_NOW } from "../../src/sandbox/generate/clock.js";
import { removeTemporaries, tempDir } from "../e2e/config.js";
import { FAST_IMAGES, processing, PUBLIC, channel } from "../images/helpers.js";
import { type Bench, expectNotReused, expectReused, expectSameRuns, HOUR, type OfferRow, openBench, pairOf, prepare, readManifest, refreshPair, reuseOf, T0 } from "./harness.js";

const benches: Bench[] = [];
afterAll(async () => {
  await Promise.all(benches.map((b) => b.close()));
  await removeTemporaries();
});

function activeIds(seed: number, products: number): string[] {
  return [...createCatalogue({ seed, products, assetBaseUrl: "http://sandbox.test" }).products()]
    .filter((p) => p["status"] === "active")
    .map((p) => p["id"] as string)
    .sort();
}

const offersFor = (ids: readonly string[]): OfferRow[] => ids.slice(0, Math.floor(ids.length / 2)).map((id, i) => ({ id, price: (8 + i * 0.3).toFixed(2) }));

describe("a delta between refreshes", () => {
  it("copies the rows of the products it did not touch, with the feeds of a delta that maps everything; the refreshes after reuse", async () => {
    const ids = activeIds(5, 200);
    const bench = await openBench({
      sandbox: { seed: 5, products: 200, changes: { perHour: 0.015, newPerHour: 1, since: CATALOGUE_NOW, at: T0 } },
      offers: offersFor(ids),
    });
    benches.push(bench);
    const base = join(await tempDir(), "base");
    await bench.run(bench.config, base, T0);
    const pair = await pairOf(await prepare(bench, base, T0 + 1));
    const T2 = T0 + 5 * HOUR;
    bench.sandbox.clock.set(T2);
    // A few offers change in the same run: those products are mapped again though the delta did not touch them.
    const offers = offersFor(ids);
    await bench.writeOffers(offers.map((r, i) => (i % 9 === 0 ? { ...r, price: "1.11" } : r)));
    const deltas = [];
    for (const dir of [pair.a, pair.b]) {
      const delta = await bench.run(bench.config, dir, T2, { source: "delta", reuse: dir === pair.b ? false : undefined });
      expect(delta.manifest.sync).toMatchObject({ used: "delta" });
      expect(delta.manifest.sync?.delta?.["changed"]).toBeGreaterThan(0);
      deltas.push(delta.manifest);
    }
    // New products came with the delta: explain is asked about them too.
    const all = [...ids, ...(await newIds(pair.a, ids))];
    // The delta copied the unchanged products' lines as a refresh does, mapped the rest, and
    // published what the delta that mapped everything published, byte for byte.
    await expectSameRuns(pair.a, pair.b, bench.config, all);
    const [withCopies] = deltas;
    const { changed = 0, added = 0 } = withCopies!.sync!.delta!;
    const reuse = await expectReused(pair.a, Math.floor(ids.length / 2));
    expect(reuse.mapped).toBeGreaterThanOrEqual(changed + added + Math.floor(offers.length / 9));
    expect(reuse.reused + reuse.mapped).toBe(withCopies!.source.received);
    expect(await reuseOf(pair.b)).toMatchObject({ reused: 0, reason: "--no-reuse" });
    // The delta run mapped every product of the new snapshot and recorded them: the refresh
    // after it may map everything or reuse those records; either way it publishes the same.
    await refreshPair(bench, pair, T2 + 600, all);
    expect(await reuseOf(pair.a)).toBeDefined();
    await refreshPair(bench, pair, T2 + 1200, all);
    await expectReused(pair.a);
  });
});

/** Ids of the delta's new products, as the generic JSON feed lists them. */
async function newIds(dir: string, known: readonly string[]): Promise<string[]> {
  const rows = JSON.parse(await readFile(join(dir, "generic-json-fr.json"), "utf8")) as { id: string }[];
  const set = new Set(known);
  return rows.map((r) => r.id).filter((id) => !set.has(id));
}

describe("lines of the snapshot that are not records (broken JSON, a repeated id)", () => {
  it("are rejected and counted the same by a refresh that reuses", async () => {
    const ids = activeIds(9, 200);
    // A line that is not JSON, and every tenth line a repeat of the line before's id (DUPLICATE_ID).
    const bench = await openBench({ sandbox: { seed: 9, products: 200, faults: { corruptLine: 7, repeatIdEvery: 10 } }, offers: offersFor(ids) });
    benches.push(bench);
    const base = join(await tempDir(), "base");
    const full = await bench.run(bench.config, base, T0);
    expect(Object.keys(full.manifest.source.rejectedByCode).sort()).toEqual(["DUPLICATE_ID", "MALFORMED_LINE"]);
    expect(full.manifest.source.rejected).toBeGreaterThan(10);
    const pair = await refreshPair(bench, await prepare(bench, base, T0 + 1), T0 + 600, ids);
    await expectReused(pair.a);
    const manifest = await readManifest(pair.a);
    // The snapshot keeps the broken line (a refresh rejects it again) but not the repeats the
    // full read refused: it keeps their count, so a refresh reports the full read's counts
    // (issue 22, point 5), with reuse or without.
    const { total, received, rejected, rejectedByCode } = full.manifest.source;
    expect(manifest["source"]).toMatchObject({ total, received, rejected, rejectedByCode });
    // And once more from a cache a reusing run wrote.
    await refreshPair(bench, pair, T0 + 1200, ids);
    await expectReused(pair.a);
    expect((await readManifest(pair.a))["source"]).toMatchObject({ total, rejected, rejectedByCode });
  });
});

describe("a channel that processes its images", () => {
  it("is mapped again (its rows wait for the image pipeline), with the same files as without reuse", async () => {
    const ids = activeIds(11, 60);
    const bench = await openBench({
      sandbox: { seed: 11, products: 60 },
      channels: [channel("meta-images", processing({ size: 200 })), channel("meta-plain")],
      offers: offersFor(ids),
      main: { output: { dir: "../out", publicBaseUrl: PUBLIC } },
      defaults: { images: FAST_IMAGES },
    });
    benches.push(bench);
    const base = join(await tempDir(), "base");
    await bench.run(bench.config, base, T0);
    const pair = await refreshPair(bench, await prepare(bench, base, T0 + 1), T0 + 600, ids);
    await expectNotReused(pair.a, /meta-images processes images/);
  });
});
