/**
 * generate on a stream that repeats product ids (issue 15, item 3), in one thread and
 * through worker threads: the check is made on the main thread, in stream order, before
 * lines are spread over workers, so every feed lists each product at most once and both
 * runs write the same files.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { channelsForEveryPreset, removeTemporaries } from "../e2e/config.js";
import { itemId, parseFeed } from "../e2e/feeds.js";
import { closeSandboxes, sandboxOf, setup } from "../images/helpers.js";

afterAll(async () => {
  await closeSandboxes();
  await removeTemporaries();
});

const NOW = new Date("2026-03-10T02:00:00Z");

describe("generate with repeated ids in the stream", () => {
  it("lists each product once per feed and counts every repeat as DUPLICATE_ID, with or without workers", async () => {
    const options = { seed: 5, products: 240, faults: { repeatIdEvery: 8, dropAfterLines: 70, dropTimes: 1 } };
    const channels = channelsForEveryPreset();
    const [first, second] = [await sandboxOf(options), await sandboxOf(options)];
    const single = await setup(first, { channels });
    const sharded = await setup(second, { channels });
    const one = await single.run({ now: NOW, workers: 0 });
    const two = await sharded.run({ now: NOW, workers: 2, shardMinProducts: 0 });
    for (const [run, dir] of [[one, single.tree.outputDir], [two, sharded.tree.outputDir]] as const) {
      // The config streams the active products only; in that result, meta.index 7, 15, ... repeat the id before.
      const total = run.manifest.source.total ?? 0;
      const repeats = Math.floor(total / 8);
      expect(repeats).toBeGreaterThan(10);
      expect(run.manifest.source).toMatchObject({ received: total - repeats, rejected: repeats, rejectedByCode: { DUPLICATE_ID: repeats }, resumes: 1 });
      for (const entry of run.manifest.channels) {
        expect(entry.published, entry.name).toBe(true);
        const preset = entry.preset;
        const format = entry.format === "ndjson" ? "ndjson" : entry.format;
        const rows = parseFeed(await readFile(join(dir, entry.file), "utf8"), format);
        const ids = rows.map((row) => itemId(row, preset));
        expect(ids.length, entry.name).toBe(entry.items);
        expect(new Set(ids).size, entry.name).toBe(ids.length);
        const excluded = Object.values(entry.excluded).reduce((a, b) => a + b, 0);
        expect(entry.items + excluded, entry.name).toBe(total - repeats);
      }
    }
    expect(two.manifest.channels.map((c) => [c.name, c.items, c.excluded])).toEqual(one.manifest.channels.map((c) => [c.name, c.items, c.excluded]));
  });
});
