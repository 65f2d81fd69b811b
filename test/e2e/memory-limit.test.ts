/**
 * The built CLI under a real memory limit: `generate` started inside a cgroup
 * of its own with a 192 MB limit picks one worker thread (two or more would
 * not fit, see src/pipeline/workers.ts), says so, and finishes. Runs where this
 * process may create a cgroup (root on a cgroup v1 or v2 memory controller, as
 * on the CI machine); skipped elsewhere, and on one core where no worker is
 * started anyway.
 */
import { spawn } from "node:child_process";
import { rmdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { makeMemoryCgroup } from "./cgroup.js";
import { CLI, ensureBuilt, ROOT, sandboxEnv } from "./cli.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig } from "./config.js";

const LIMIT_MB = 192;

const cgroup = availableParallelism() >= 2 ? makeMemoryCgroup(LIMIT_MB, "test") : undefined;
let sandbox: SandboxHandle;

beforeAll(async () => {
  if (!cgroup) return;
  ensureBuilt();
  // Above SHARD_MIN_PRODUCTS (5,000 in the stream), so that the default worker count is used.
  sandbox = await startSandbox({ seed: 3, products: 7_000, rateLimit: 100_000 });
});

afterAll(async () => {
  await sandbox?.close();
  await removeTemporaries();
  // Empty by now: the test waits for the CLI to exit (killed after 60 s at worst).
  if (cgroup) rmdirSync(cgroup.dir);
});

describe.skipIf(!cgroup)("generate under a memory limit", () => {
  it(`starts the one worker thread that fits in ${LIMIT_MB} MB, says so, and publishes`, async () => {
    const config = await writeConfig({ channels: channelsForEveryPreset().filter((c) => c.preset === "generic-ndjson") });
    const env: NodeJS.ProcessEnv = { ...process.env, ...sandboxEnv(sandbox) };
    delete env["NODE_OPTIONS"];
    // The shell joins the cgroup, then becomes node: only the CLI runs under the limit.
    const child = spawn("sh", ["-c", 'echo $$ > "$0" && exec "$@"', cgroup!.procs, process.execPath, CLI, "generate", "--config", config.configFile, "--log-format", "json"], { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    // Only for a hang: far above what a run takes at load 20, under the test timeout (vitest.config.ts).
    const timer = setTimeout(() => child.kill("SIGKILL"), 550_000);
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    clearTimeout(timer);
    expect(code, stderr).toBe(0);
    const log = stderr.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log.find((entry) => entry["msg"] === "fewer worker threads for the memory limit")).toMatchObject({ workers: 1, memoryLimitMb: LIMIT_MB });
    expect(log.find((entry) => entry["msg"] === "products mapped")).toMatchObject({ workers: 1 });
  });
});
