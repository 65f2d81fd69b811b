/**
 * What a user sees from the built CLI when kept state is damaged or stale (issue 22):
 * a refresh from a damaged snapshot exits 8 (RUN_DEGRADED) with the reason in words and
 * no stack trace; explain says when its index is older than the feeds.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import type { Manifest } from "../../src/publish/manifest.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { HEADER_BYTES } from "../../src/snapshot/format.js";
import { snapshotPath } from "../../src/snapshot/store.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig, type E2eConfig } from "../e2e/config.js";

let sandbox: SandboxHandle;
let tree: E2eConfig;

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: 17, products: 60, rateLimit: 100_000 });
  const channels = channelsForEveryPreset().filter((c) => ["generic-csv", "idealo"].includes(c.preset));
  tree = await writeConfig({ channels });
}, 120_000);

afterEach(() => killAll());
afterAll(async () => {
  await sandbox?.close();
  await removeTemporaries();
});

const manifestOf = async (out: string) => JSON.parse(await readFile(join(out, "manifest.json"), "utf8")) as Manifest;

describe("the CLI with damaged or stale state", () => {
  it("refreshes from a damaged snapshot by reading in full: exit 8, the reason in words, no stack trace", async () => {
    const env = sandboxEnv(sandbox);
    expect((await runCli(["generate", "--config", tree.configFile], { env })).code).toBe(0);
    const file = snapshotPath(tree.outputDir);
    const bytes = await readFile(file);
    bytes[HEADER_BYTES + 100]! ^= 0x04;
    await writeFile(file, bytes);
    const refresh = await runCli(["generate", "--config", tree.configFile, "--source", "snapshot"], { env });
    const output = refresh.stdout + refresh.stderr;
    expect(refresh.code, output).toBe(8);
    expect(output).toMatch(/the snapshot cannot be used: .*block 1 of \d+ does not match its digest/);
    // One shop reads in full, and says so (a shard fails instead, and does not: test/shops/run.test.ts).
    expect(refresh.stderr).toContain("--source snapshot: reading the whole catalogue instead");
    expect(output).toContain("RUN_DEGRADED");
    expect(output).not.toContain("UNEXPECTED");
    expect(output).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
    const manifest = await manifestOf(tree.outputDir);
    expect(manifest.sync).toMatchObject({ requested: "snapshot", used: "full" });
    expect(manifest.problems?.map((p) => p.code)).toEqual(["SNAPSHOT_UNUSABLE"]);
    expect(manifest.channels.every((c) => c.published === true)).toBe(true);
  }, 120_000);

  it("explain says its index is of an older run than the feeds when the last run could not write it", async () => {
    const loaded = await loadConfig(tree.configFile, { env: sandboxEnv(sandbox) });
    const out = join(tree.root, "stale");
    const first = await runGenerate({ config: loaded, outputDir: out, logger: silentLogger, workers: 0 });
    // The next index is built at this process's temporary name: a folder there makes it fail to start.
    await mkdir(join(out, "state", `.explain.sqlite.tmp-${process.pid}`, "blocker"), { recursive: true });
    const second = await runGenerate({ config: loaded, outputDir: out, logger: silentLogger, workers: 0 });
    expect(second.manifest.problems?.map((p) => p.code).sort()).toEqual(["EXPLAIN_INDEX_NOT_WRITTEN", "ROWS_NOT_WRITTEN"]);
    const csv = second.manifest.channels.find((c) => c.preset === "generic-csv")!;
    const id = (await readFile(join(out, csv.file), "utf8")).split("\n")[1]!.split(/[,;\t]/)[0]!.replace(/"/g, "");
    const answer = await runCli(["explain", id, "--config", tree.configFile, "--output", out], { env: sandboxEnv(sandbox) });
    expect(answer.code, answer.stderr).toBe(0);
    // explain/freshness.ts: the index does not describe the files served now.
    expect(answer.stdout).toContain(`Note: the explain index is of the run of ${first.manifest.startedAt}; the feeds served now are from the run of ${second.manifest.startedAt}.`);
    expect(answer.stdout).toContain(id);
  }, 120_000);
});
