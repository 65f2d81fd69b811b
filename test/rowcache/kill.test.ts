/**
 * kill -9 of the BUILT command line during a refresh (while it maps, writes the
 * row cache, publishes), at random moments, in a loop: the next refresh with
 * reuse publishes what a refresh without reuse does from the same folder. The
 * offers change before every killed run, so a cache left from the run before
 * describes other rows than the files a killed run may have published.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogue } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, sandboxEnv, startCli } from "../e2e/cli.js";
import { removeTemporaries } from "../e2e/config.js";
import { type Bench, expectSameRuns, type OfferRow, openBench, pairOf, reuseOf } from "./harness.js";

const SEED = 13;
const PRODUCTS = 400;
const ROUNDS = 5;
const ids = [...createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()]
  .filter((p) => p["status"] === "active")
  .map((p) => p["id"] as string)
  .sort();
/** Round k's offers: a different price for a different tenth of the products each time. */
const offers = (k: number): OfferRow[] => ids.slice(0, 200).map((id, i) => ({ id, price: (10 + i * 0.1 + (i % 10 === k % 10 ? 5 : 0)).toFixed(2) }));
const nowSeconds = () => Math.floor(Date.now() / 1000);

let bench: Bench;

beforeAll(async () => {
  ensureBuilt();
  bench = await openBench({ sandbox: { seed: SEED, products: PRODUCTS }, offers: offers(0) });
}, 60_000);

afterAll(async () => {
  killAll();
  await bench?.close();
  await removeTemporaries();
});

const refresh = () =>
  startCli(["generate", "--config", bench.tree.configFile, "--source", "snapshot", "--workers", "0"], { env: sandboxEnv(bench.sandbox), timeoutMs: 60_000 });

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
    await bench.run(bench.config, out, nowSeconds(), { source: "full" });
    // How long a whole refresh takes here (built CLI, start-up included).
    const started = performance.now();
    const whole = await refresh().done;
    expect(whole.code, whole.stderr).toBe(0);
    const duration = performance.now() - started;
    expect((await reuseOf(out))?.reused).toBeGreaterThan(0);

    const outcomes: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await bench.writeOffers(offers(round));
      const running = refresh();
      // Odd rounds: as soon as the cache's temporary file is there; even rounds: anywhere in the run.
      if (round % 2 === 1) {
        await cacheBeingWritten(out, duration * 2);
        await sleep(Math.random() * duration * 0.5);
      } else {
        await sleep(duration * (0.2 + Math.random() * 0.9));
      }
      running.child.kill("SIGKILL");
      const result = await running.done;
      outcomes.push(result.signal ?? `exit ${result.code}`);

      const pair = await pairOf(out);
      const t = nowSeconds();
      await bench.run(bench.config, pair.a, t, { source: "snapshot" });
      await bench.run(bench.config, pair.b, t, { source: "snapshot", reuse: false });
      await expectSameRuns(pair.a, pair.b, bench.config, ids);
      expect(await reuseOf(pair.a), `round ${round}`).toBeDefined();
    }
    // At least one run was killed (the others finished before the kill came).
    expect(outcomes).toContain("SIGKILL");
  }, 120_000);
});
