/**
 * The feed history through the BUILT command line against the sandbox: every run keeps the
 * versions live after it (unchanged ones once), a dry run keeps nothing, and `history.keepRuns`
 * prunes the versions no kept run names. The kept bytes are the published ones.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readKept } from "../../src/history/store.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig } from "../e2e/config.js";
import { readManifestJson } from "../e2e/feeds.js";
import { catalogueFacts } from "../e2e/oracle.js";

const SEED = 12;
const PRODUCTS = 80;
let sandbox: SandboxHandle;

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
});

afterAll(async () => {
  killAll();
  await sandbox.close();
  await removeTemporaries();
});

const files = async (outputDir: string) => await readdir(join(outputDir, "history", "feeds")).catch(() => [] as string[]);
/** The kept versions' digests; each has its item sheet beside it (checked here, every time). */
const kept = async (outputDir: string) => {
  const names = await files(outputDir);
  const versions = names.filter((f) => /^[0-9a-f]{64}\.gz$/.test(f)).map((f) => f.slice(0, 64)).sort();
  expect(names.filter((f) => f.endsWith(".items.gz")).map((f) => f.slice(0, 64)).sort()).toEqual(versions);
  expect(names.length).toBe(versions.length * 2);
  return versions;
};

describe("the feed history", () => {
  it("keeps each run's live versions once, nothing for a dry run, and prunes past history.keepRuns", async () => {
    const ids = catalogueFacts({ seed: SEED, products: PRODUCTS, now: new Date() }).streamIds;
    const channels = channelsForEveryPreset().filter((c) => ["generic-csv", "idealo"].includes(c.preset));
    const config = await writeConfig({ channels, main: { offers: { file: "offers.csv", maxDropPercent: 100 }, history: { keepRuns: 2 } } });
    const offersFile = join(config.root, "config", "offers.csv");
    const offers = (price: string) => writeFile(offersFile, ["id;price;quantity", ...ids.slice(0, 10).map((id) => `${id};${price};3`)].join("\n") + "\n");
    const generate = async (...args: string[]) => {
      const result = await runCli(["generate", "--config", config.configFile, ...args], { env: sandboxEnv(sandbox) });
      expect(result.code, result.stderr).toBe(0);
      const manifest = await readManifestJson(config.outputDir);
      return manifest.channels.map((c) => (c as { live: { sha256: string } }).live.sha256).sort();
    };
    const liveOf = async (channel: string) => ((await readManifestJson(config.outputDir)).channels.find((c) => c.name === channel) as { live: { sha256: string } }).live.sha256;
    const idealo = () => readFile(join(config.outputDir, "idealo-fr.csv"));

    await offers("10,00");
    const first = await generate();
    const firstIdealo = await idealo();
    const before = await liveOf("idealo-fr");
    expect(await kept(config.outputDir)).toEqual(first);

    // The same run again: nothing new to keep, but a damaged copy of a live version (truncated here)
    // is kept again, so that version can still be put back once replaced.
    const keptCopy = join(config.outputDir, "history", "feeds", `${before}.gz`);
    await writeFile(keptCopy, (await readFile(keptCopy)).subarray(0, 20));
    expect(await generate()).toEqual(first);
    expect(await kept(config.outputDir)).toEqual(first);
    expect(await readKept(config.outputDir, before)).toEqual(firstIdealo);

    // Prices changed: idealo's file changes (generic-csv, without prices from the offers file, may not).
    await offers("11,00");
    await generate("--dry-run");
    expect(await kept(config.outputDir)).toEqual(first);
    const second = await generate();
    expect(second).not.toEqual(first);
    expect(await kept(config.outputDir)).toEqual([...new Set([...first, ...second])].sort());
    // idealo's version published before is the bytes that were published, checked against its digest.
    expect(second).not.toContain(before);
    expect(await readKept(config.outputDir, before)).toEqual(firstIdealo);

    // keepRuns 2: a third version leaves out what only the first run named.
    await offers("12,00");
    const third = await generate();
    expect(await kept(config.outputDir)).toEqual([...new Set([...second, ...third])].sort());
    expect(await readKept(config.outputDir, before)).toBeUndefined();
  });

  it("a dry run says what the price gate would do, as the run then does, and keeps nothing of its item sheets", async () => {
    const ids = catalogueFacts({ seed: SEED, products: PRODUCTS, now: new Date() }).streamIds;
    const gate = { maxPriceChangePercent: 50, maxPriceChangedItemsPercent: 5, maxDropPercent: 100, maxRejectedPercent: 100 };
    const channels = channelsForEveryPreset()
      .filter((c) => c.preset === "idealo")
      .map((c) => ({ ...c, gate }));
    const config = await writeConfig({ channels, main: { offers: { file: "offers.csv", maxDropPercent: 100 } } });
    const offers = (price: string) => writeFile(join(config.root, "config", "offers.csv"), ["id;price;quantity", ...ids.slice(0, 10).map((id) => `${id};${price};3`)].join("\n") + "\n");
    const generate = (...args: string[]) => runCli(["generate", "--config", config.configFile, ...args], { env: sandboxEnv(sandbox) });
    await offers("10,00");
    const first = await generate();
    expect(first.code, first.stderr).toBe(0);
    const history = await files(config.outputDir);
    const live = await readFile(join(config.outputDir, "idealo-fr.csv"));

    // Every offer's price tripled: beyond 50 % for all ten, more than 25 % of the items.
    await offers("30,00");
    const dry = await generate("--dry-run");
    expect(dry.code, dry.stderr).toBe(0);
    const reason = /would not publish \(gate: (prices moved more than 50% for .*, more than maxPriceChangedItemsPercent 5%)\)\n/.exec(dry.stdout)?.[1];
    expect(reason, dry.stdout).toBeDefined();
    expect(dry.stdout).toContain("Would publish (nothing was published;");
    expect(dry.stdout).toMatch(/to inspect\):\n {2}\(none\)\n/);
    // Nothing of the dry run's sheets is kept, here or in output/preview/.
    expect(await files(config.outputDir)).toEqual(history);
    expect(existsSync(join(config.outputDir, "preview", "history"))).toBe(false);

    const run = await generate();
    expect(run.code, run.stderr).toBe(5);
    expect(run.stdout).toContain(`no: gate: ${reason!}\n`);
    expect(await readFile(join(config.outputDir, "idealo-fr.csv"))).toEqual(live);
  });
});
