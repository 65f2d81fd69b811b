/**
 * A damaged snapshot, as a disk or a careless hand leaves it (issue 22, point 1): one bit
 * flipped in every part of the file (magic, blocks, meta, reference lists, block table,
 * footer), a truncated file, an empty one, a folder in its place. Each is followed by a
 * refresh and by a delta against the sandbox, and each must give either the bytes of a
 * fresh full read with the reason said, never another feed, never a thrown error.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import type { LoadedConfig } from "../../src/config/types.js";
import { silentLogger } from "../../src/log.js";
import type { Manifest } from "../../src/publish/manifest.js";
import { runGenerate, type GenerateOptions } from "../../src/pipeline/run.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { CATALOGUE_NOW } from "../../src/sandbox/generate/clock.js";
import { FOOTER_BYTES, HEADER_BYTES } from "../../src/snapshot/format.js";
import { openSnapshot, snapshotPath } from "../../src/snapshot/store.js";
import { channelsForEveryPreset, removeTemporaries, tempDir, writeConfig } from "../e2e/config.js";

const T0 = CATALOGUE_NOW + 3600;
const at = (t: number) => new Date(t * 1000);

let sandbox: SandboxHandle;
let loaded: LoadedConfig;
let root: string;
/** The snapshot a full read at T0 left, and the feeds of a full read at T0 + 60 (what every run below must give). */
let pristine: Buffer;
let expected: Map<string, Buffer>;
let expectedSource: Manifest["source"];

function run(outputDir: string, t: number, extra: Partial<GenerateOptions> = {}) {
  sandbox.clock.set(t);
  return runGenerate({ config: loaded, outputDir, logger: silentLogger, now: at(t), workers: 0, ...extra });
}

async function feeds(outputDir: string, manifest: Manifest): Promise<Map<string, Buffer>> {
  return new Map(await Promise.all(manifest.channels.map(async (c) => [c.name, await readFile(join(outputDir, c.file))] as const)));
}

/** Where one bit is flipped: every part of the file, located from its own footer and trailer. */
function flipOffsets(file: Buffer): Record<string, number> {
  const size = file.length;
  const trailerLength = Number(file.readBigUInt64BE(size - FOOTER_BYTES));
  const trailerStart = size - FOOTER_BYTES - trailerLength;
  const trailer = file.toString("latin1", trailerStart, size - FOOTER_BYTES);
  const within = (needle: string, skip: number) => trailerStart + trailer.indexOf(needle) + needle.length + skip;
  const blocks = trailerStart - HEADER_BYTES;
  return {
    "magic": 2,
    "format version": 6,
    "first block, first byte": HEADER_BYTES,
    "a block in the middle": HEADER_BYTES + Math.floor(blocks / 2),
    "last block, last byte": trailerStart - 1,
    "meta: sync time": within('"syncedAt":"', 3),
    "meta: source filter": within('"filter":"', 2),
    "meta: read counts": within('"read":{"total":', 0),
    "reference lists: categories": within('"categories":[', 5),
    "reference lists: brands": within('"brands":[', 5),
    "block table: a length": within('"blocks":[[', 0),
    "block table: a digest": within('"blocks":[[', 20),
    "trailer, last byte": size - FOOTER_BYTES - 1,
    "footer: trailer length": size - FOOTER_BYTES + 7,
    "footer: trailer digest": size - FOOTER_BYTES + 20,
    "footer: end magic": size - 2,
  };
}

/** The run read in full, said why, is degraded with a state problem, and gave the full read's feeds byte for byte. */
async function expectFullReadInstead(outputDir: string, manifest: Manifest, requested: "snapshot" | "delta", label: string): Promise<void> {
  expect(manifest.sync, label).toMatchObject({ requested, used: "full" });
  expect(manifest.sync?.fallback, label).toMatch(/^the snapshot cannot be used: .*snapshot\.pfs: /);
  expect(manifest.status, label).toBe("degraded");
  expect(manifest.problems, label).toEqual([expect.objectContaining({ kind: "state", code: "SNAPSHOT_UNUSABLE", reason: expect.stringContaining("read in full instead") })]);
  const got = await feeds(outputDir, manifest);
  expect([...got.keys()], label).toEqual([...expected.keys()]);
  for (const [name, bytes] of expected) expect(got.get(name)!.equals(bytes), `${label}: ${name}`).toBe(true);
  expect(manifest.source.total, label).toBe(expectedSource.total);
  // The full read replaced the damaged snapshot with a whole one.
  const snapshot = openSnapshot(snapshotPath(outputDir))!;
  expect(snapshot.info.records, label).toBe(expectedSource.received);
  snapshot.close();
}

beforeAll(async () => {
  // Enough products for a few 512 KB blocks (a flip "in the middle" must hit a block that is not the first).
  sandbox = await startSandbox({ seed: 11, products: 140, rateLimit: 100_000 });
  root = await tempDir();
  // Four channels of three formats (XML gzipped, CSV, NDJSON) keep the 30 runs quick.
  const channels = channelsForEveryPreset().filter((c) => ["google", "generic-csv", "generic-ndjson", "idealo"].includes(c.preset));
  expect(channels.length).toBe(4);
  const tree = await writeConfig({ channels, source: { sync: { maxAgeHours: 24 } } });
  loaded = await loadConfig(tree.configFile, { env: { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret } });
  const base = join(root, "base");
  await run(base, T0);
  pristine = await readFile(snapshotPath(base));
  const reference = join(root, "reference");
  const full = await run(reference, T0 + 60);
  expected = await feeds(reference, full.manifest);
  expectedSource = full.manifest.source;
  // Sanity: the pristine snapshot refreshes into the same feeds, with no fallback.
  const intact = join(root, "intact");
  await run(intact, T0);
  const refresh = await run(intact, T0 + 60, { source: "snapshot" });
  expect(refresh.manifest.sync).toMatchObject({ used: "snapshot" });
  expect(refresh.manifest.status).toBe("ok");
  for (const [name, bytes] of await feeds(intact, refresh.manifest)) expect(bytes.equals(expected.get(name)!), name).toBe(true);
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  await removeTemporaries();
});

describe("a damaged snapshot", () => {
  it("is refused whatever bit is flipped: a refresh and a delta read in full, say why, and publish the full read's feeds", async () => {
    const offsets = flipOffsets(pristine);
    expect(Object.keys(offsets).length).toBe(16);
    // Each part once, the source alternating: both sources meet the header, blocks, meta, table and
    // footer (both read the file through the same checks), in 16 runs instead of 32.
    for (const [i, [part, offset]] of Object.entries(offsets).entries()) {
      const source = i % 2 === 0 ? "snapshot" : "delta";
      const out = join(root, "flip", source);
      await mkdir(join(out, "state"), { recursive: true });
      const damaged = Buffer.from(pristine);
      damaged[offset]! ^= 0x10;
      await writeFile(snapshotPath(out), damaged);
      const result = await run(out, T0 + 60, { source });
      await expectFullReadInstead(out, result.manifest, source, `${part} (byte ${offset}), --source ${source}`);
    }
  }, 300_000);

  it("is refused when truncated, empty, unreadable (a folder), or of another file", async () => {
    const cases: Record<string, (file: string) => Promise<void>> = {
      "cut in the middle": (file) => writeFile(file, pristine.subarray(0, Math.floor(pristine.length / 2))),
      "cut before its footer": (file) => writeFile(file, pristine.subarray(0, pristine.length - 1)),
      "empty": (file) => writeFile(file, ""),
      "a folder": (file) => mkdir(file),
      "another file": (file) => writeFile(file, "{\"not\":\"a snapshot\"}\n".repeat(10)),
    };
    for (const [label, damage] of Object.entries(cases)) {
      for (const source of ["snapshot", "delta"] as const) {
        const out = join(root, "broken", source);
        await mkdir(join(out, "state"), { recursive: true });
        await rm(snapshotPath(out), { recursive: true, force: true });
        await damage(snapshotPath(out));
        const result = await run(out, T0 + 60, { source });
        if (label === "a folder") {
          // The folder stays (it is not the run's to remove), so no new snapshot is written either.
          expect(result.manifest.sync?.fallback, label).toMatch(/^the snapshot cannot be used: /);
          expect(result.manifest.problems?.map((p) => p.code), label).toEqual(["SNAPSHOT_UNUSABLE", "SNAPSHOT_NOT_WRITTEN"]);
          const got = await feeds(out, result.manifest);
          for (const [name, bytes] of expected) expect(got.get(name)!.equals(bytes), `${label}: ${name}`).toBe(true);
          await rm(snapshotPath(out), { recursive: true, force: true });
        } else {
          await expectFullReadInstead(out, result.manifest, source, `${label}, --source ${source}`);
        }
      }
    }
  }, 300_000);

  it("hands out no line of a block that changed after it was opened", async () => {
    const dir = join(root, "late");
    await mkdir(join(dir, "state"), { recursive: true });
    await writeFile(snapshotPath(dir), pristine);
    const snapshot = openSnapshot(snapshotPath(dir))!;
    const offsets = flipOffsets(pristine);
    const damaged = Buffer.from(pristine);
    // The last block, so that the blocks before it are handed out first (lines > 0 below: there are several).
    damaged[offsets["last block, last byte"]!]! ^= 0x01;
    // Same file, changed in place (the open descriptor sees it).
    const { open } = await import("node:fs/promises");
    const fh = await open(snapshotPath(dir), "r+");
    await fh.write(damaged, 0, damaged.length, 0);
    await fh.close();
    let lines = 0;
    expect(() => {
      for (const _ of snapshot.lines()) lines++;
    }).toThrow(expect.objectContaining({ code: "STORE_INVALID", message: expect.stringMatching(/block \d+ of \d+ does not match its digest/) }));
    expect(lines).toBeGreaterThan(0);
    expect(lines).toBeLessThan(snapshot.info.records);
    snapshot.close();
  });
});
