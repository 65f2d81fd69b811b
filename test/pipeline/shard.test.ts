/**
 * generate through worker threads (pipeline/shard/) against generate in one
 * thread, over the same sandbox catalogue: every feed, gzip twin, report and
 * manifest count must be byte for byte the same, with the stream cut twice,
 * a corrupt line, a JSON array (its separators cross batches), a channel whose
 * sample does not parse back, and a channel that processes images (its rows
 * are rendered by the main thread behind the image FIFO).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import type { ChannelEntry, Manifest } from "../../src/publish/manifest.js";
import { channelsForEveryPreset, removeTemporaries } from "../e2e/config.js";
import { itemId, parseFeed, sha256 } from "../e2e/feeds.js";
import { catalogueFacts } from "../e2e/oracle.js";
import { channel, closeSandboxes, processing, sandboxOf, setup } from "../images/helpers.js";

afterAll(async () => {
  await closeSandboxes();
  await removeTemporaries();
});

const NOW = new Date("2026-03-10T02:00:00Z");

const brokenLayout = {
  "layouts/broken/layout.json": { format: "xml", header: "header.hbs", item: "item.hbs", footer: "footer.hbs" },
  "layouts/broken/header.hbs": "<feed>\n",
  "layouts/broken/item.hbs": "<item>{{id}}\n",
  "layouts/broken/footer.hbs": "</feed>\n",
};

const channels = [
  ...channelsForEveryPreset(),
  channel("meta-images", processing({ size: 100, maxAdditional: 0 })),
  { ...channel("broken", {}, "generic-csv"), template: "../layouts/broken" },
];

/** What must not depend on how the run was spread over threads (bytes and digests: photo links name each run's sandbox). */
function comparable(entry: ChannelEntry) {
  const { live: _live, sha256: _sha256, bytes: _bytes, ...rest } = entry;
  return rest;
}

/** Digest of every file the run wrote, with its sandbox's address (in photo links) replaced; .gz twins uncompressed. */
async function files(outputDir: string, manifest: Manifest, sandboxUrl: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of manifest.channels) {
    if (entry.published === true) expect(sha256(await readFile(join(outputDir, entry.file)))).toBe(entry.sha256);
    // A failed channel leaves nothing of this run (its report included).
    const failed = typeof entry.published === "string" && entry.published.startsWith("failed");
    const names = [...(failed ? [] : [`reports/${entry.name}.csv`, `reports/${entry.name}.warnings.csv`]), ...(entry.published === true ? [entry.file] : []), ...(entry.live?.gzip ? [entry.live.gzip.file] : [])];
    for (const name of names) {
      const bytes = await readFile(join(outputDir, name));
      const text = (name.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8").replaceAll(sandboxUrl, "SANDBOX");
      out[name] = sha256(Buffer.from(text, "utf8"));
    }
  }
  return out;
}

describe("generate with worker threads", () => {
  it("writes byte for byte what one thread writes, through cuts, a corrupt line, a failing channel and image processing", async () => {
    // One sandbox per run: its faults count the streams it served.
    const options = { seed: 5, products: 320, faults: { dropAfterLines: 110, dropTimes: 2, corruptLine: 33 } };
    const [first, second] = [await sandboxOf(options), await sandboxOf(options)];
    const single = await setup(first, { channels, files: brokenLayout });
    const sharded = await setup(second, { channels, files: brokenLayout });
    const one = await single.run({ now: NOW, workers: 0 });
    // Batches of 50 lines over 2 workers: results come back out of order and are written in order.
    const two = await sharded.run({ now: NOW, workers: 2, shardMinProducts: 0 });

    const { source } = two.manifest;
    expect(source.resumes).toBe(2);
    expect(source.rejectedByCode).toEqual({ MALFORMED_LINE: 1 });
    expect(source).toEqual(one.manifest.source);
    expect(two.manifest.channels.map(comparable)).toEqual(one.manifest.channels.map(comparable));
    expect(two.images).toMatchObject({ failed: 0, requested: one.images!.requested });
    expect(await files(sharded.tree.outputDir, two.manifest, second.url)).toEqual(await files(single.tree.outputDir, one.manifest, first.url));

    // Not vacuous: every product is somewhere, the JSON array parses, the broken channel failed in both.
    const byName = new Map(two.manifest.channels.map((c) => [c.name, c]));
    expect(byName.get("broken")!.published).toMatch(/^failed: the feed does not parse back/);
    const json = byName.get("generic-json-fr")!;
    const rows = parseFeed(await readFile(join(sharded.tree.outputDir, json.file), "utf8"), "json");
    expect(rows).toHaveLength(json.items);
    expect(new Set(rows.map((row) => itemId(row, "generic-json"))).size).toBe(json.items);
    for (const entry of two.manifest.channels) {
      const excluded = Object.values(entry.excluded).reduce((a, b) => a + b, 0);
      if (entry.name !== "broken") expect(entry.items + excluded, entry.name).toBe(source.received);
    }
    expect(source.received).toBe((source.total ?? 0) - 1);
    expect(byName.get("meta-images")!.items).toBeGreaterThan(50);
  });

  // The offers index reaches the workers as shared arrays (OffersIndex.share), not as a copy:
  // every worker must find every offer the main thread read.
  it("applies the offers file in the workers exactly as in one thread", async () => {
    const options = { seed: 9, products: 150 };
    const ids = catalogueFacts({ ...options, now: NOW }).streamIds;
    const offered = ids.filter((_, i) => i % 3 === 0);
    const offers = ["id;price;quantity;link", ...offered.map((id, i) => `${id};${i + 1},25;${i % 4};${i % 2 === 0 ? `https://pharmacie.example/p/${id}` : ""}`)].join("\n");
    const config = { channels: [channel("json", {}, "generic-json")], files: { "offers.csv": offers }, main: { offers: { file: "offers.csv" } } };
    const [first, second] = [await sandboxOf(options), await sandboxOf(options)];
    const single = await setup(first, config);
    const sharded = await setup(second, config);
    const one = await single.run({ now: NOW, workers: 0 });
    const two = await sharded.run({ now: NOW, workers: 2, shardMinProducts: 0 });
    expect(two.manifest.offers).toMatchObject({ accepted: offered.length, refused: 0 });
    expect(await files(sharded.tree.outputDir, two.manifest, second.url)).toEqual(await files(single.tree.outputDir, one.manifest, first.url));
    const entry = two.manifest.channels[0]!;
    const rows = parseFeed(await readFile(join(sharded.tree.outputDir, entry.file), "utf8"), "json");
    const linked = rows.filter((row) => JSON.stringify(row).includes("https://pharmacie.example/p/"));
    expect(linked.length).toBeGreaterThan(5);
    for (const row of linked) expect(JSON.stringify(row)).toContain(`https://pharmacie.example/p/${itemId(row, "generic-json")}`);
  });
});
