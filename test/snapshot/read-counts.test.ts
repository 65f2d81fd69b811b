/**
 * The source counts of a run from the snapshot (issue 22, point 5): a full read refuses
 * some lines before the snapshot keeps them (a repeated id) and some after (a line that is
 * not JSON); a refresh, with or without reuse, and a delta report the counts of the read
 * the snapshot holds, and say which read that is.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import type { LoadedConfig } from "../../src/config/types.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate, type GenerateOptions } from "../../src/pipeline/run.js";
import { formatSummary } from "../../src/pipeline/summary.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { CATALOGUE_NOW } from "../../src/sandbox/generate/clock.js";
import { channelsForEveryPreset, removeTemporaries, tempDir, writeConfig } from "../e2e/config.js";

const T0 = CATALOGUE_NOW + 3600;
const at = (t: number) => new Date(t * 1000);

let sandbox: SandboxHandle;
let loaded: LoadedConfig;

function run(outputDir: string, t: number, extra: Partial<GenerateOptions> & { reuse?: boolean } = {}) {
  sandbox.clock.set(t);
  return runGenerate({ config: loaded, outputDir, logger: silentLogger, now: at(t), workers: 0, ...extra });
}

beforeAll(async () => {
  // A line that is not JSON (kept in the snapshot, refused when mapped) and every tenth id repeated (refused by the stream).
  sandbox = await startSandbox({ seed: 9, products: 150, rateLimit: 100_000, faults: { corruptLine: 7, repeatIdEvery: 10 } });
  const channels = channelsForEveryPreset().filter((c) => ["google", "generic-csv"].includes(c.preset));
  const tree = await writeConfig({ channels, source: { sync: { maxAgeHours: 24 } } });
  loaded = await loadConfig(tree.configFile, { env: { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret } });
});

afterAll(async () => {
  await sandbox?.close();
  await removeTemporaries();
});

describe("source counts of a run from the snapshot", () => {
  it("are those of the full read the snapshot holds, for a refresh with and without reuse and for a delta", async () => {
    const out = join(await tempDir(), "out");
    const full = await run(out, T0);
    const counts = (s: typeof full.manifest.source) => ({ total: s.total, received: s.received, rejected: s.rejected, rejectedByCode: s.rejectedByCode });
    const expected = counts(full.manifest.source);
    expect(Object.keys(expected.rejectedByCode).sort()).toEqual(["DUPLICATE_ID", "MALFORMED_LINE"]);
    expect(expected.rejectedByCode["DUPLICATE_ID"]).toBeGreaterThan(5);
    expect(full.manifest.source.readAt).toBeUndefined();

    for (const [label, extra] of [
      ["refresh", { source: "snapshot" }],
      ["refresh --no-reuse", { source: "snapshot", reuse: false }],
      ["refresh after a reusing refresh", { source: "snapshot" }],
    ] as const) {
      const refresh = await run(out, T0 + 600, extra);
      expect(refresh.manifest.sync?.used, label).toBe("snapshot");
      expect(counts(refresh.manifest.source), label).toEqual(expected);
      expect(refresh.manifest.source.readAt, label).toBe(at(T0).toISOString());
      expect(formatSummary(refresh.manifest).split("\n").find((l) => l.startsWith("source:")), label).toContain(`rejected (counts of the catalogue read at ${at(T0).toISOString()})`);
    }
    const delta = await run(out, T0 + 900, { source: "delta" });
    expect(delta.manifest.sync).toMatchObject({ used: "delta" });
    expect(counts(delta.manifest.source)).toEqual(expected);
    expect(delta.manifest.source.readAt).toBe(at(T0).toISOString());
    // And a refresh of the merged snapshot carries them on.
    const after = await run(out, T0 + 1200, { source: "snapshot" });
    expect(counts(after.manifest.source)).toEqual(expected);
  }, 180_000);
});
