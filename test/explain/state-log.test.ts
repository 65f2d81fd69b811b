/**
 * The explain index holds a product's keys and where its line is in the run's state log
 * (rows.ndjson); the outcomes are read from that line (issue 25: one packed outcome, kept once).
 * The pair is checked before any outcome is read: the BUILT command line killed between the log's
 * commit and the index's (PHARMAFEED_CRASH_AT=state-log:1) leaves a new log beside the last index,
 * and a bit flipped in the log leaves a log that is not the one written. In both, explain and the
 * status page's search answer no outcome at all and say why; the next run writes both again.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { explain } from "../../src/explain/explain.js";
import { ExplainIndex, explainFile } from "../../src/explain/store.js";
import { rowsPath } from "../../src/rowcache/file.js";
import { createCatalogue, startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { searchIndex } from "../../src/serve/status/search.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { channelsForEveryPreset, removeTemporaries, tempDir, writeConfig, type E2eConfig } from "../e2e/config.js";
import { offersCsv } from "../rowcache/harness.js";

const SEED = 5;
const PRODUCTS = 60;
const CHANNELS = ["google-fr", "idealo-fr"];
const ids = [...createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()]
  .filter((p) => p["status"] === "active")
  .map((p) => p["id"] as string);

let sandbox: SandboxHandle;
let config: E2eConfig;
let offersFile: string;
/** The offers file with every price: a new price moves the rows, so the log's entries (and digest) change. */
const priced = (price: string) => writeFile(offersFile, offersCsv(ids.map((id) => ({ id, price }))));

const generate = (crashAt?: string) => runCli(["generate", "--config", config.configFile, "--workers", "0"], { env: { ...sandboxEnv(sandbox), ...(crashAt ? { PHARMAFEED_CRASH_AT: crashAt } : {}) } });
const explainCli = (id: string) => runCli(["explain", id, "--config", config.configFile, "--json"], { env: sandboxEnv(sandbox) });

/** Every product explained in-process: the outcome of each channel, or the error. */
async function outcomes(): Promise<string[]> {
  const index = ExplainIndex.open(explainFile(config.outputDir))!;
  try {
    const out: string[] = [];
    for (const id of ids) {
      const answer = await explain({ index, outputDir: config.outputDir, channels: [], query: id, sourceFilter: {} });
      out.push(`${id}: ${answer.products[0]?.channels.map((c) => `${c.channel}=${c.outcome}`).join(" ")}`);
    }
    return out;
  } finally {
    index.close();
  }
}

async function expectRefused(why: RegExp): Promise<void> {
  expect(() => ExplainIndex.open(explainFile(config.outputDir))).toThrow(expect.objectContaining({ code: "STORE_INVALID", message: expect.stringMatching(why) }));
  const cli = await explainCli(ids[0]!);
  expect(cli.code).not.toBe(0);
  expect(cli.stdout).toBe("");
  expect(cli.stderr).toMatch(/STORE_INVALID: the explain index cannot be used/);
  const page = await searchIndex(config.outputDir, [], ids[0]!, "fr");
  expect(page).toContain("La recherche est indisponible");
  expect(page).not.toContain(ids[0]!);
}

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  offersFile = join(await tempDir(), "offers.csv");
  // An offers file, the gate off for drops: the runs change prices only.
  const offersSettings = { file: offersFile, maxDropPercent: 100, minAcceptedPercent: 0 };
  config = await writeConfig({ channels: channelsForEveryPreset().filter((c) => CHANNELS.includes(c.name)), main: { offers: offersSettings } });
  await priced("10.00");
  const first = await generate();
  if (first.code !== 0) throw new Error(`generate failed (${first.code}): ${first.stderr}`);
}, 180_000);

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await removeTemporaries();
});

describe("the explain index and the state log it points into", () => {
  let good: string[];

  it("answers every product from the log's line of that product", async () => {
    good = await outcomes();
    expect(good).toHaveLength(ids.length);
    expect(good.filter((o) => o.includes("=in_feed")).length).toBeGreaterThan(ids.length / 2);
    expect(good.filter((o) => o.includes("=left_out")).length).toBeGreaterThan(0);
    const cli = await explainCli(ids[0]!);
    expect(cli.code, cli.stderr).toBe(0);
    expect((JSON.parse(cli.stdout) as { products: { id: string }[] }).products[0]!.id).toBe(ids[0]);
  });

  it("a run killed between the log and the index: no outcome is read, and the next run mends both", async () => {
    await priced("1000.00");
    const killed = await generate("state-log:1");
    expect(killed.signal).toBe("SIGKILL");
    await expectRefused(/is not the state log the index was written with/);
    await priced("10.00");
    const next = await generate();
    expect(next.code, next.stderr).toBe(0);
    expect(await outcomes()).toEqual(good);
  });

  it("a bit flipped in the log: no outcome is read, and the next run mends it", async () => {
    const file = rowsPath(config.outputDir);
    const bytes = await readFile(file);
    // In the middle of the entries (before the trailer line).
    const at = Math.floor(bytes.lastIndexOf(0x0a, bytes.length - 2) / 2);
    bytes[at] = bytes[at]! ^ 0x01;
    await writeFile(file, bytes);
    await expectRefused(/not usable: its entries are not those its trailer describes/);
    const next = await generate();
    expect(next.code, next.stderr).toBe(0);
    expect(await outcomes()).toEqual(good);
  });
});
