/**
 * kill -9 of the BUILT command line during a refresh (while it maps, writes the
 * row cache, publishes), at random moments, in a loop: the next refresh with
 * reuse publishes what a refresh without reuse does from the same folder. The
 * offers change before every killed run, so a cache left from the run before
 * describes other rows than the files a killed run may have published.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogue } from "../../src/sandbox/index.js";
import { Rng } from "../../src/sandbox/generate/prng.js";
import type * as Load from "../../src/config/load.js";
import type { LoadedConfig } from "../../src/config/types.js";
import { silentLogger } from "../../src/log.js";
import type * as Run from "../../src/pipeline/run.js";
import { ensureBuilt, killAll, ROOT, sandboxEnv, startCli } from "../e2e/cli.js";
import { removeTemporaries } from "../e2e/config.js";
import { type Bench, expectSameRuns, type OfferRow, openBench, pairOf, reuseOf } from "./harness.js";

const SEED = 13;
const PRODUCTS = 250;
const ROUNDS = 6;
/** The kill moments are drawn from this seed (printed; KILL_SEED=<n> repeats a run's draws). */
const KILL_SEED = Number(process.env["KILL_SEED"] ?? Date.now() % 1_000_000);
const random = new Rng(KILL_SEED);
const ids = [...createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()]
  .filter((p) => p["status"] === "active")
  .map((p) => p["id"] as string)
  .sort();
/** Round k's offers: a different price for a different tenth of the products each time. */
const offers = (k: number): OfferRow[] => ids.slice(0, 150).map((id, i) => ({ id, price: (10 + i * 0.1 + (i % 10 === k % 10 ? 5 : 0)).toFixed(2) }));
const nowSeconds = () => Math.floor(Date.now() / 1000);

let bench: Bench;
/**
 * The built code's runGenerate and config: a cache is only reused by the code that
 * wrote it (the row cache's code fingerprint), so the runs around the CLI's are the
 * built code's too, called in this process with a fixed clock.
 */
let dist: { config: LoadedConfig; run(dir: string, t: number, extra?: Partial<Run.GenerateOptions> & { reuse?: boolean }): Promise<unknown> };

beforeAll(async () => {
  ensureBuilt();
  bench = await openBench({ sandbox: { seed: SEED, products: PRODUCTS }, offers: offers(0) });
  const built = async <T>(path: string) => (await import(pathToFileURL(join(ROOT, "dist", path)).href)) as T;
  const { runGenerate } = await built<typeof Run>("pipeline/run.js");
  const { loadConfig } = await built<typeof Load>("config/load.js");
  const config = await loadConfig(bench.tree.configFile, { env: sandboxEnv(bench.sandbox) });
  dist = {
    config,
    run: (outputDir, t, extra = {}) => runGenerate({ config, outputDir, logger: silentLogger, now: new Date(t * 1000), workers: 0, ...extra }),
  };
});

afterAll(async () => {
  killAll();
  await bench?.close();
  await removeTemporaries();
});

const refresh = () =>
  startCli(["generate", "--config", bench.tree.configFile, "--source", "snapshot", "--workers", "0"], { env: sandboxEnv(bench.sandbox) });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (up to `ms`) until the row cache's temporary file exists in output/state/. */
async function cacheBeingWritten(out: string, ms: number): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(5)) {
    const names = await readdir(join(out, "state")).catch(() => [] as string[]);
    if (names.some((n) => n.startsWith(".rows.ndjson.tmp"))) return;
  }
}

describe("kill -9 during a refresh", () => {
  it("leaves a cache the next refresh uses right or not at all, round after round", async () => {
    const out = bench.tree.outputDir;
    await dist.run(out, nowSeconds(), { source: "full" });
    // How long a whole refresh takes here (built CLI, start-up included).
    const started = performance.now();
    const whole = await refresh().done;
    expect(whole.code, whole.stderr).toBe(0);
    const duration = performance.now() - started;
    expect((await reuseOf(out))?.reused).toBeGreaterThan(0);
    // --no-reuse maps everything and says so.
    const off = await startCli(["generate", "--config", bench.tree.configFile, "--source", "snapshot", "--workers", "0", "--no-reuse"], { env: sandboxEnv(bench.sandbox) }).done;
    expect(off.code, off.stderr).toBe(0);
    expect(await reuseOf(out)).toMatchObject({ reused: 0, reason: "--no-reuse" });

    console.log(`kill moments drawn with KILL_SEED=${KILL_SEED}`);
    const outcomes: string[] = [];
    const reuses: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await bench.writeOffers(offers(round));
      const running = refresh();
      // Odd rounds: as soon as the cache's temporary file is there; even rounds: anywhere in the run.
      if (round % 2 === 1) {
        await cacheBeingWritten(out, duration * 2);
        await sleep(random.next() * 60);
      } else {
        await sleep(duration * (0.3 + random.next() * 0.65));
      }
      running.child.kill("SIGKILL");
      const result = await running.done;
      outcomes.push(result.signal ?? `exit ${result.code}`);

      const pair = await pairOf(out);
      const t = nowSeconds();
      await dist.run(pair.a, t, { source: "snapshot" });
      await dist.run(pair.b, t, { source: "snapshot", reuse: false });
      await expectSameRuns(pair.a, pair.b, bench.config, ids);
      reuses.push(JSON.stringify(await reuseOf(pair.a)));
      expect(await reuseOf(pair.a), `round ${round}`).toBeDefined();
    }
    // Most runs were killed (some may finish before the kill comes).
    expect(outcomes.filter((o) => o === "SIGKILL").length, outcomes.join(", ")).toBeGreaterThanOrEqual(2);
    // And the runs after the kills reused rows (a cache left whole is used, one cut short is not).
    expect(reuses.some((r) => r.includes('"reused":') && !r.includes('"reused":0')), reuses.join("\n")).toBe(true);
  });
});
