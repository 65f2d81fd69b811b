/**
 * explain never prints another product's row (issue 22.3): the index is used only against the very
 * file it was written for. The BUILT command line is killed (PHARMAFEED_CRASH_AT) between writing
 * manifest.json and committing the explain index, after an offers change that moves the rows by a
 * byte while keeping some feeds' size; a served feed is edited by hand keeping its size. Every
 * product is then explained in every channel: a row is shown only where it is that product's row
 * in the served file, and the stale channels are named.
 */
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { explain, type ExplainAnswer } from "../../src/explain/explain.js";
import { renderExplain } from "../../src/explain/render.js";
import { ExplainIndex, explainFile } from "../../src/explain/store.js";
import { createCatalogue, startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { channelsForEveryPreset, removeTemporaries, tempDir, writeConfig, type E2eConfig } from "../e2e/config.js";
import { itemId, parseFeed, readManifestJson, readReport } from "../e2e/feeds.js";
import { offersCsv, type OfferRow } from "../rowcache/harness.js";
import { writeFile } from "node:fs/promises";

const SEED = 11;
const PRODUCTS = 120;
const CHANNELS = ["google-fr", "idealo-fr", "generic-json-nl", "google-tsv-nl"];
const ids = [...createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()]
  .filter((p) => p["status"] === "active")
  .map((p) => p["id"] as string);

let sandbox: SandboxHandle;
let config: E2eConfig;
let offersFile: string;
/** Products in every channel's feed after the first run, in catalogue order. */
let everywhere: string[];

const generate = async (crashAt?: string) => {
  const env = { ...sandboxEnv(sandbox), ...(crashAt ? { PHARMAFEED_CRASH_AT: crashAt } : {}) };
  return runCli(["generate", "--config", config.configFile, "--workers", "0"], { env });
};

/** Every product of the catalogue explained (in-process, against the output folder). */
async function explainAll(): Promise<ExplainAnswer[]> {
  const index = ExplainIndex.open(explainFile(config.outputDir))!;
  try {
    const answers: ExplainAnswer[] = [];
    for (const id of ids) answers.push(await explain({ index, outputDir: config.outputDir, channels: [], query: id, sourceFilter: {} }));
    return answers;
  } finally {
    index.close();
  }
}

/** For each channel, each product's row text in the file served now. */
async function servedRows(): Promise<Map<string, Set<string>>> {
  const manifest = await readManifestJson(config.outputDir);
  const byChannel = new Map<string, Set<string>>();
  for (const entry of manifest.channels) {
    const text = await readFile(join(config.outputDir, entry.file), "utf8");
    byChannel.set(entry.name, new Set(parseFeed(text, entry.format).map((row) => itemId(row, entry.preset))));
  }
  return byChannel;
}

/** Whether `row` is exactly one whole item of the feed, and that item is product `id` (as explain.test.ts reads rows). */
function isRowOf(row: string, entry: { format: string; preset: string }, header: string, id: string): boolean {
  try {
    if (entry.format === "xml") return new RegExp(`^<(item|product)>[\\s\\S]*>${id}<[\\s\\S]*</(item|product)>$`).test(row.trim());
    if (entry.format === "csv" || entry.format === "tsv") {
      const rows = parseFeed(`${header}\n${row}`, entry.format);
      return rows.length === 1 && itemId(rows[0]!, entry.preset) === id;
    }
    return (JSON.parse(row.replace(/^[\s,]+|[\s,]+$/g, "")) as { id?: string }).id === id;
  } catch {
    return false;
  }
}

/** No shown row belongs to another product, or is cut: each is exactly its product's item. Returns how many were shown. */
async function expectNoForeignRow(answers: readonly ExplainAnswer[]): Promise<number> {
  const manifest = await readManifestJson(config.outputDir);
  const headers = new Map<string, string>();
  for (const e of manifest.channels) headers.set(e.name, (await readFile(join(config.outputDir, e.file), "utf8")).split("\n")[0]!);
  let shown = 0;
  for (const answer of answers) {
    for (const product of answer.products) {
      for (const c of product.channels) {
        if (c.row === undefined) continue;
        shown++;
        const entry = manifest.channels.find((e) => e.name === c.channel)!;
        expect(isRowOf(c.row, entry, headers.get(c.channel)!, product.id), `${c.channel} ${product.id}: ${c.row.slice(0, 80)}`).toBe(true);
      }
    }
  }
  return shown;
}

const offers = (priceOf: (i: number) => string): OfferRow[] => ids.map((id, i) => ({ id, price: priceOf(i) }));

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  offersFile = join(await tempDir(), "offers.csv");
  // An offers file, the gate off for drops: the runs change prices only.
  const offersSettings = { file: offersFile, maxDropPercent: 100, minAcceptedPercent: 0 };
  // Every product at 10.00 and one at 100.00, whatever its catalogue price: the plausibility check
  // (offers.maxPriceRatio) off, or it would leave out the products these runs move rows with.
  const channels = channelsForEveryPreset()
    .filter((c) => CHANNELS.includes(c.name))
    .map((c) => ({ ...c, offers: { maxPriceRatio: 0 } }));
  config = await writeConfig({ channels, main: { offers: offersSettings } });
  await writeFile(offersFile, offersCsv(offers(() => "10.00")));
  const first = await generate();
  if (first.code !== 0) throw new Error(`generate failed (${first.code}): ${first.stderr}`);
  const served = [...(await servedRows()).values()];
  everywhere = ids.filter((id) => served.every((s) => s.has(id)));
}, 180_000);

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await removeTemporaries();
});

describe("an explain index that does not describe the served files", () => {
  it("with the index the run wrote, every row shown is its product's own, in every channel", async () => {
    const answers = await explainAll();
    expect(answers.every((a) => a.staleChannels === undefined)).toBe(true);
    expect(await expectNoForeignRow(answers)).toBeGreaterThan(ids.length);
  });

  it("after a kill between manifest.json and the index's commit: no row of another product, the stale channels named, the reports first", async () => {
    // The first product one byte shorter, the last one a byte longer: the rows between move by a byte,
    // and a feed holding both keeps its size (what the old size check took for the same file).
    const [shorter, longer] = [everywhere[0], everywhere.at(-1)];
    await writeFile(offersFile, offersCsv(offers((i) => (ids[i] === shorter ? "9.00" : ids[i] === longer ? "100.00" : "10.00"))));
    const killed = await generate("manifest:1");
    expect(killed.signal ?? killed.code).toBe("SIGKILL");
    const manifest = await readManifestJson(config.outputDir);
    const index = ExplainIndex.open(explainFile(config.outputDir))!;
    const sameSize = manifest.channels.filter((c) => index.meta.channels.find((i) => i.name === c.name)?.bytes === c.bytes).map((c) => c.name);
    index.close();
    expect(sameSize.length).toBeGreaterThan(0);

    const answers = await explainAll();
    expect(await expectNoForeignRow(answers)).toBe(0);
    const published = manifest.channels.filter((c) => c.published === true).map((c) => c.name);
    for (const answer of answers) expect(answer.staleChannels?.sort()).toEqual([...published].sort());
    // A product the served run left out is answered from that run's report, with its reason.
    const report = await readReport(config.outputDir, "google-fr");
    const leftOut = report[0]!;
    const answer = answers.find((a) => a.query === leftOut["id"])!;
    expect(answer.products[0]!.channels.find((c) => c.channel === "google-fr")).toMatchObject({ outcome: "left_out", from: "report", reasons: [{ code: leftOut["reason"] }] });
    expect(renderExplain(answer)).toContain("Note: the explain index is of the run of");

    // The next run writes an index for the served files: rows again, each its product's own.
    const next = await generate();
    expect(next.code).toBe(0);
    const fresh = await explainAll();
    expect(fresh.every((a) => a.staleChannels === undefined)).toBe(true);
    const served = await servedRows();
    expect(await expectNoForeignRow(fresh)).toBe([...served.values()].reduce((n, s) => n + s.size, 0));
  });

  it("a served feed edited in place keeping its size: that channel is stale, the others still show rows", async () => {
    const manifest = await readManifestJson(config.outputDir);
    const entry = manifest.channels.find((c) => c.name === "idealo-fr")!;
    const handle = await open(join(config.outputDir, entry.file), "r+");
    try {
      // One byte of the first row's text changed in place: same size, same inode.
      const { size } = await handle.stat();
      const buffer = Buffer.alloc(size);
      await handle.read(buffer, 0, size, 0);
      const at = buffer.indexOf("\n") + 5;
      await handle.write(Buffer.from(buffer[at] === 0x41 ? "B" : "A"), 0, 1, at);
    } finally {
      await handle.close();
    }
    const answers = await explainAll();
    for (const answer of answers) expect(answer.staleChannels).toEqual(["idealo-fr"]);
    const shown = await expectNoForeignRow(answers);
    expect(shown).toBeGreaterThan(0);
    for (const answer of answers) for (const p of answer.products) expect(p.channels.find((c) => c.channel === "idealo-fr")?.row).toBeUndefined();
  });
});
