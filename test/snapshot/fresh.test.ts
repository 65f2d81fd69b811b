/**
 * generate --source full | delta | snapshot against a sandbox whose catalogue
 * changes over time: a refresh makes no catalogue request, a delta ends with the
 * feeds of a full read at the same moment, and every fallback reads in full.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import type { LoadedConfig } from "../../src/config/types.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate, type GenerateOptions } from "../../src/pipeline/run.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { CATALOGUE_NOW } from "../../src/sandbox/generate/clock.js";
import { openSnapshot, snapshotPath } from "../../src/snapshot/store.js";
import { acquireLock } from "../../src/publish/lock.js";
import { removeTemporaries, tempDir, writeConfig } from "../e2e/config.js";
import { parseFeed } from "../e2e/feeds.js";

const HOUR = 3600;
const T0 = CATALOGUE_NOW + HOUR;
const T1 = T0 + 10 * HOUR;
const at = (t: number) => new Date(t * 1000);

let sandbox: SandboxHandle;
let root: string;
let offersFile: string;
/** An offers file with one row (an empty one is refused): for a product the catalogue does not have. */
const OFFERS = "id,gtin,price,sale_price,sale_from,sale_until,quantity,availability,link\nNOT-IN-CATALOGUE,,1.00,,,,1,in_stock,\n";

async function config(source: Record<string, unknown> = {}): Promise<LoadedConfig> {
  // maxDropPercent 100: the test changes one offer's price, then takes it back.
  const tree = await writeConfig({ main: { offers: { file: offersFile, maxDropPercent: 100 } }, source: { sync: { maxAgeHours: 24, ...source } } });
  const env = { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
  return loadConfig(tree.configFile, { env });
}

function run(loaded: LoadedConfig, outputDir: string, t: number, extra: Partial<GenerateOptions> = {}) {
  sandbox.clock.set(t);
  return runGenerate({ config: loaded, outputDir, logger: silentLogger, now: at(t), workers: 0, ...extra });
}

/** Requests of the catalogue API (photo URLs aside). */
const apiRequests = () => [...sandbox.stats.byPath].filter(([path]) => path.startsWith("/v4/")).reduce((n, [, count]) => n + count, 0);

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 5, products: 300, rateLimit: 100_000, changes: { perHour: 0.015, newPerHour: 1, since: CATALOGUE_NOW, at: T0 } });
  root = await tempDir();
  offersFile = join(root, "offers.csv");
  await writeFile(offersFile, OFFERS);
});

afterAll(async () => {
  await sandbox?.close();
  await removeTemporaries();
});

describe("generate --source", () => {
  it("refreshes from the snapshot with no catalogue request, showing an offer's new price", async () => {
    const loaded = await config();
    const out = join(root, "refresh");
    const full = await run(loaded, out, T0);
    expect(full.manifest.sync).toMatchObject({ requested: "full", used: "full", syncedAt: at(T0).toISOString() });
    const snapshot = openSnapshot(snapshotPath(out));
    expect(snapshot?.info.records).toBe(full.manifest.source.total);
    snapshot?.close();

    const feed = full.manifest.channels.find((c) => c.preset === "generic-csv")!;
    const rows = async () => parseFeed(await readFile(join(out, feed.file), "utf8"), "csv");
    const first = (await rows())[0]!;
    const id = first["id"] as string;
    expect(first["price"]).not.toBe("12.34");
    await writeFile(offersFile, `${OFFERS}${id},,12.34,,,,5,in_stock,\n`);
    const before = apiRequests();
    const refresh = await run(loaded, out, T0 + 900, { source: "snapshot" });
    expect(apiRequests()).toBe(before);
    expect(refresh.manifest.sync).toMatchObject({ requested: "snapshot", used: "snapshot", syncedAt: at(T0).toISOString(), ageSeconds: 900 });
    const row = (await rows()).find((r) => r["id"] === id);
    expect(row?.["price"]).toBe("12.34");
    await writeFile(offersFile, OFFERS);
  });

  it("ends a delta with the feeds of a full read at the same moment, byte for byte", async () => {
    const loaded = await config({ maxDeltaShare: 0.5 });
    const deltaDir = join(root, "delta");
    const fullDir = join(root, "full");
    const start = await run(loaded, deltaDir, T0);
    const before = apiRequests();
    const delta = await run(loaded, deltaDir, T1, { source: "delta" });
    // The reference lists and one products/stream request.
    expect(apiRequests() - before).toBe(3);
    const counts = delta.manifest.sync?.delta ?? {};
    expect(delta.manifest.sync).toMatchObject({ requested: "delta", used: "delta", syncedAt: at(T1).toISOString() });
    expect(delta.manifest.sync?.fallback).toBeUndefined();
    // Changed, new and removed (deactivated) products all occur in this window.
    expect(counts.changed).toBeGreaterThan(0);
    expect(counts.added).toBeGreaterThan(0);
    expect(counts.removed).toBeGreaterThan(0);

    const full = await run(loaded, fullDir, T1);
    expect(delta.manifest.source.total).toBe(full.manifest.source.total);
    for (const channel of full.manifest.channels) {
      const a = await readFile(join(fullDir, channel.file));
      const b = await readFile(join(deltaDir, channel.file));
      expect(b.equals(a), channel.name).toBe(true);
    }
    // Deleted products reach the delta too, and are excluded as in a full read.
    const excludedDeleted = (m: typeof full.manifest) => m.channels.map((c) => c.excluded["DELETED"] ?? 0);
    expect(excludedDeleted(delta.manifest)).toEqual(excludedDeleted(full.manifest));
    expect(excludedDeleted(delta.manifest)[0]).toBeGreaterThan(excludedDeleted(start.manifest)[0]!);
    expect(delta.manifest.channels.map((c) => c.items)).toEqual(full.manifest.channels.map((c) => c.items));
  });

  it("reads in full when there is no snapshot, when it is too old, or when the delta is too big", async () => {
    const loaded = await config();
    const out = join(root, "fallbacks");
    const first = await run(loaded, out, T0, { source: "delta" });
    expect(first.manifest.sync).toMatchObject({ requested: "delta", used: "full" });
    expect(first.manifest.sync?.fallback).toMatch(/no snapshot yet/);
    const refresh = await run(loaded, out, T0 + 25 * HOUR, { source: "snapshot" });
    expect(refresh.manifest.sync).toMatchObject({ requested: "snapshot", used: "full", ageSeconds: 0 });
    expect(refresh.manifest.sync?.fallback).toMatch(/h old, more than source\.sync\.maxAgeHours \(24\)/);
    const strict = await config({ maxDeltaShare: 0.01 });
    const big = await run(strict, out, T0 + 35 * HOUR, { source: "delta" });
    expect(big.manifest.sync).toMatchObject({ requested: "delta", used: "full" });
    expect(big.manifest.sync?.fallback).toMatch(/the delta has \d+ products, more than source\.sync\.maxDeltaShare/);
    // The full read that replaced it left a fresh snapshot.
    const snapshot = openSnapshot(snapshotPath(out));
    expect(snapshot?.info.syncedAt).toBe(at(T0 + 35 * HOUR).toISOString());
    snapshot?.close();
  });

  it("refuses a snapshot of an older format version with a clear message, and reads in full", async () => {
    const loaded = await config();
    const out = join(root, "old-format");
    await run(loaded, out, T0);
    const bytes = await readFile(snapshotPath(out));
    bytes[6] = 1;
    await writeFile(snapshotPath(out), bytes);
    const result = await run(loaded, out, T0 + 60, { source: "snapshot" });
    expect(result.manifest.sync).toMatchObject({ requested: "snapshot", used: "full" });
    expect(result.manifest.sync?.fallback).toMatch(/the snapshot cannot be used: .*snapshot\.pfs: a snapshot of format version 1; this version reads snapshot format version 2/);
    expect(result.manifest.status).toBe("degraded");
    expect(result.manifest.problems).toEqual([expect.objectContaining({ kind: "state", code: "SNAPSHOT_UNUSABLE" })]);
    const snapshot = openSnapshot(snapshotPath(out));
    expect(snapshot?.info.records).toBe(result.manifest.source.total);
    snapshot?.close();
  });

  it("takes the same lock for every source: a refresh during another run is refused, and the snapshot stays", async () => {
    const loaded = await config();
    const out = join(root, "locked");
    await run(loaded, out, T0);
    const lock = await acquireLock(out);
    try {
      const before = apiRequests();
      await expect(run(loaded, out, T0 + 60, { source: "snapshot" })).rejects.toMatchObject({ code: "LOCK_HELD" });
      await expect(run(loaded, out, T0 + 60, { source: "delta" })).rejects.toMatchObject({ code: "LOCK_HELD" });
      expect(apiRequests()).toBe(before);
    } finally {
      await lock.release();
    }
    const snapshot = openSnapshot(snapshotPath(out));
    expect(snapshot?.info.syncedAt).toBe(at(T0).toISOString());
    snapshot?.close();
  });

  it("merges an empty delta (204: nothing changed) into the same feeds, with a new sync time", async () => {
    const loaded = await config({ marginSeconds: 0 });
    const out = join(root, "empty-delta");
    const full = await run(loaded, out, T0 + 5);
    const files = await Promise.all(full.manifest.channels.map((c) => readFile(join(out, c.file))));
    const delta = await run(loaded, out, T0 + 6, { source: "delta" });
    expect(delta.manifest.sync).toMatchObject({ used: "delta", syncedAt: at(T0 + 6).toISOString(), delta: { received: 0, changed: 0, added: 0, removed: 0 } });
    for (const [i, c] of delta.manifest.channels.entries()) expect((await readFile(join(out, c.file))).equals(files[i]!), c.name).toBe(true);
  });
});
