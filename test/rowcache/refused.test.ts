/**
 * When a refresh must not copy rows (a channel's settings or layout changed,
 * channels added or removed, the previous files or cache are not what the cache
 * says, the previous run did not publish a channel), it maps everything, says
 * why in manifest.sync.reuse, and publishes what a refresh without reuse does.
 * And what must not disturb reuse (a dry run, a full run's new snapshot once
 * refreshed) does not.
 */
import { execFileSync } from "node:child_process";
import { appendFile, cp, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createCatalogue } from "../../src/sandbox/index.js";
import { removeTemporaries, tempDir } from "../e2e/config.js";
import {
  type Bench,
  CUSTOM_LAYOUT,
  customChannel,
  expectNotReused,
  expectReused,
  type OfferRow,
  openBench,
  type Pair,
  pairOf,
  prepare,
  refreshPair,
  reuseOf,
  rowcacheChannels,
  T0,
} from "./harness.js";

const SEED = 23;
const PRODUCTS = 150;
const T1 = T0 + 600;
const ids = [...createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()]
  .filter((p) => p["status"] === "active")
  .map((p) => p["id"] as string)
  .sort();
const offers: OfferRow[] = ids.slice(0, 80).map((id, i) => ({ id, price: (12 + i * 0.21).toFixed(2) }));

let bench: Bench;
let base: string;

beforeAll(async () => {
  bench = await openBench({ sandbox: { seed: SEED, products: PRODUCTS }, channels: [...rowcacheChannels(), customChannel()], files: CUSTOM_LAYOUT, offers });
  base = join(await tempDir(), "base");
  await bench.run(bench.config, base, T0);
});

afterEach(async () => {
  await bench.restoreConfig();
  await bench.writeOffers(offers);
});

afterAll(async () => {
  await bench?.close();
  await removeTemporaries();
});

/** A fresh output folder in base's state, its cache written by a run at t0 + 1 s, and a copy of it. */
async function fresh(): Promise<Pair> {
  return pairOf(await prepare(bench, base, T0 + 1));
}

/** The same change to both folders of a pair. */
async function both(pair: Pair, change: (dir: string) => Promise<unknown>): Promise<void> {
  await change(pair.a);
  await change(pair.b);
}

describe("a refresh after the config changed maps everything", () => {
  it("one channel's custom layout changed (a column added)", async () => {
    const pair = await fresh();
    const config = await bench.editConfig("layouts/custom/layout.json", (layout) => ({
      ...layout,
      columns: [...(layout["columns"] as unknown[]), { header: "brand", value: "{{brand}}" }],
    }));
    await refreshPair(bench, pair, T1, ids, config);
    await expectNotReused(pair.a);
  });

  it("one channel's title template changed", async () => {
    const pair = await fresh();
    const config = await bench.editConfig("channels/kelkoo-fr.json", (c) => ({ ...c, title: { template: "{{name}} ({{brand}})" } }));
    await refreshPair(bench, pair, T1, ids, config);
    await expectNotReused(pair.a);
  });

  it("a channel added", async () => {
    const pair = await fresh();
    await bench.editConfig("channels/extra-fr.json", () => customChannel("extra-fr"));
    const config = await bench.editConfig("pharmafeed.json", (main) => ({ ...main, channels: [...(main["channels"] as string[]), "channels/extra-fr.json"] }));
    await refreshPair(bench, pair, T1, ids, config);
    await expectNotReused(pair.a);
  });

  it("a channel removed", async () => {
    const pair = await fresh();
    const config = await bench.editConfig("pharmafeed.json", (main) => ({ ...main, channels: (main["channels"] as string[]).filter((c) => !c.includes("meta-fr")) }));
    await refreshPair(bench, pair, T1, ids, config);
    await expectNotReused(pair.a);
  });

  it("the same channels in another order", async () => {
    const pair = await fresh();
    const config = await bench.editConfig("pharmafeed.json", (main) => ({ ...main, channels: [...(main["channels"] as string[])].reverse() }));
    await refreshPair(bench, pair, T1, ids, config);
    await expectNotReused(pair.a);
  });

  it("the run before was a --channel subset", async () => {
    const pair = await fresh();
    const subset = await bench.reload(["google-fr", "idealo-fr"]);
    await both(pair, (dir) => bench.run(subset, dir, T0 + 300, { source: "snapshot" }));
    await refreshPair(bench, pair, T1, ids);
    await expectNotReused(pair.a);
  });
});

describe("a refresh after the previous files changed maps everything", () => {
  it("a feed edited in place to the same size and time, to the nanosecond (a price's digit changed)", async () => {
    const pair = await fresh();
    await both(pair, async (dir) => {
      const file = join(dir, "generic-csv-nl.csv");
      const before = await stat(file);
      const ns = (await stat(file, { bigint: true })).mtimeNs;
      const text = await readFile(file, "utf8");
      // The second row's first digit after a comma, made another digit: same bytes count.
      const second = text.indexOf("\n", text.indexOf("\n") + 1) + 1;
      const at = text.slice(second).search(/,\d/) + second + 1;
      const edited = text.slice(0, at) + (text[at] === "9" ? "1" : "9") + text.slice(at + 1);
      expect(Buffer.byteLength(edited)).toBe(before.size);
      // In place (the same inode), then the modification time put back exactly (GNU touch takes nanoseconds).
      await writeFile(file, edited);
      execFileSync("touch", ["-m", "-d", `@${ns / 1_000_000_000n}.${String(ns % 1_000_000_000n).padStart(9, "0")}`, file]);
      const after = await stat(file, { bigint: true });
      expect([after.mtimeNs, after.size, after.ino]).toEqual([ns, BigInt(before.size), BigInt(before.ino)]);
    });
    await refreshPair(bench, pair, T1, ids);
    await expectNotReused(pair.a);
  });

  it("a feed cut short", async () => {
    const pair = await fresh();
    await both(pair, async (dir) => truncate(join(dir, "kelkoo-fr.xml"), Math.floor((await stat(join(dir, "kelkoo-fr.xml"))).size / 2)));
    await refreshPair(bench, pair, T1, ids);
    await expectNotReused(pair.a);
  });

  it("a feed with a line appended", async () => {
    const pair = await fresh();
    await both(pair, (dir) => appendFile(join(dir, "meta-fr.csv"), "X,Y\r\n"));
    await refreshPair(bench, pair, T1, ids);
    await expectNotReused(pair.a);
  });

  it("a channel's exclusion report deleted", async () => {
    const pair = await fresh();
    await both(pair, (dir) => rm(join(dir, "reports", "idealo-fr.csv")));
    await refreshPair(bench, pair, T1, ids);
    await expectNotReused(pair.a);
  });

  it("a channel's warnings report deleted", async () => {
    const pair = await fresh();
    await both(pair, (dir) => rm(join(dir, "reports", "google-fr.warnings.csv")));
    await refreshPair(bench, pair, T1, ids);
    await expectNotReused(pair.a);
  });

  it("the previous run's channel gated (not published: the drop gate)", async () => {
    const pair = await fresh();
    // idealo leaves out products without an offer: most of them go, and its drop gate stops it.
    await bench.writeOffers(offers.slice(0, 10));
    await both(pair, (dir) => bench.run(bench.config, dir, T0 + 300, { source: "snapshot" }));
    const manifest = JSON.parse(await readFile(join(pair.a, "manifest.json"), "utf8")) as { channels: { name: string; published: true | string }[] };
    expect(manifest.channels.find((c) => c.name === "idealo-fr")?.published).toMatch(/^gate/);
    await refreshPair(bench, pair, T1, ids);
    await expectNotReused(pair.a);
  });
});

describe("a refresh with a damaged cache maps everything", () => {
  const cache = (dir: string) => join(dir, "state", "rows.ndjson");
  it.each([
    ["deleted", (file: string) => rm(file)],
    ["cut in the middle of a line", async (file: string) => truncate(file, Math.floor((await stat(file)).size / 2) + 7)],
    ["garbage", (file: string) => writeFile(file, "\u0000\u00ff not json at all\n{]\n")],
    ["empty", (file: string) => writeFile(file, "")],
    ["its trailer only", async (file: string) => writeFile(file, (await readFile(file, "utf8")).trimEnd().split("\n").at(-1)! + "\n")],
  ])("%s", async (_, damage) => {
    const pair = await fresh();
    await both(pair, (dir) => damage(cache(dir)));
    await refreshPair(bench, pair, T1, ids);
    await expectNotReused(pair.a);
  });

  it("cut at a line's end, its trailer kept: still the same feeds (rows it lacks are mapped, or nothing is reused)", async () => {
    const pair = await fresh();
    await both(pair, async (dir) => {
      const lines = (await readFile(cache(dir), "utf8")).trimEnd().split("\n");
      const trailer = lines.pop()!;
      await writeFile(cache(dir), [...lines.slice(0, Math.floor(lines.length / 2)), trailer].join("\n") + "\n");
    });
    await refreshPair(bench, pair, T1, ids);
    const reuse = await reuseOf(pair.a);
    expect(reuse).toBeDefined();
    expect(reuse!.mapped).toBeGreaterThan(0);
  });

  it("two of its entries swapped (both rows of one feed, of other lengths): still the same feeds and explain answers", async () => {
    const pair = await fresh();
    await both(pair, async (dir) => {
      const lines = (await readFile(cache(dir), "utf8")).trimEnd().split("\n");
      const row = (line: string) => (JSON.parse(line) as { c: ({ l?: number } | null)[] }).c[0]?.l;
      const k = lines.findIndex((line, i) => i + 1 < lines.length - 1 && row(line) !== undefined && row(lines[i + 1]!) !== undefined && row(line) !== row(lines[i + 1]!));
      expect(k).toBeGreaterThanOrEqual(0);
      [lines[k], lines[k + 1]] = [lines[k + 1]!, lines[k]!];
      await writeFile(cache(dir), lines.join("\n") + "\n");
    });
    await refreshPair(bench, pair, T1, ids);
    expect(await reuseOf(pair.a)).toBeDefined();
  });
});

describe("runs in between", () => {
  it("the explain index deleted: rows still reused, the index written again in full", async () => {
    const pair = await fresh();
    await both(pair, (dir) => rm(join(dir, "state", "explain.sqlite")));
    await refreshPair(bench, pair, T1, ids);
    await expectReused(pair.a);
  });

  it("the explain index of an older run put back: rows still reused, explain answers of this run", async () => {
    const older = await prepare(bench, base, T0 + 1);
    const pair = await pairOf(await prepare(bench, older, T0 + 2));
    // The index of the run before the last one (its products are the same, its start time is not).
    await both(pair, (dir) => cp(join(older, "state", "explain.sqlite"), join(dir, "state", "explain.sqlite")));
    await bench.writeOffers(offers.map((o, i) => (i % 7 === 0 ? { ...o, price: "3.33" } : o)));
    await refreshPair(bench, pair, T1, ids);
    await expectReused(pair.a);
  });

  it("a dry run with other offers does not disturb reuse", async () => {
    const pair = await fresh();
    await bench.writeOffers(offers.map((o) => ({ ...o, price: "99.99" })));
    await both(pair, (dir) => bench.run(bench.config, dir, T0 + 300, { source: "snapshot", dryRun: true }));
    await bench.writeOffers(offers);
    await refreshPair(bench, pair, T1, ids);
    await expectReused(pair.a);
  });

  it("a run refused for its offers file does not disturb reuse", async () => {
    const pair = await fresh();
    await writeFile(bench.offersFile, "ean;prix\n3400930000014;1,50\n");
    for (const dir of [pair.a, pair.b]) await expect(bench.run(bench.config, dir, T0 + 300, { source: "snapshot" })).rejects.toMatchObject({ code: "OFFERS_REFUSED" });
    await bench.writeOffers(offers);
    await refreshPair(bench, pair, T1, ids);
    await expectReused(pair.a);
  });

  it("a full run since (a new snapshot): the refresh after it publishes the same, and the next one reuses", async () => {
    const pair = await fresh();
    await both(pair, (dir) => bench.run(bench.config, dir, T0 + 300, { source: "full" }));
    await refreshPair(bench, pair, T1, ids);
    expect(await reuseOf(pair.a)).toBeDefined();
    await refreshPair(bench, pair, T1 + 60, ids);
    await expectReused(pair.a);
  });
});
