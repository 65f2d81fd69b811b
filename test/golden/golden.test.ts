/**
 * Golden files: one channel per preset over a fixed sandbox seed, a fixed clock
 * and a small offers file, compared byte for byte with test/golden/<preset>.<ext>.
 * The sandbox's random base URL is replaced by http://sandbox.test first.
 *
 *   UPDATE_GOLDEN=1 npx vitest run test/golden     rewrites them (review the diff!)
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate, type GenerateResult } from "../../src/pipeline/run.js";
import { PRESET_NAMES } from "../../src/presets/index.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig } from "../e2e/config.js";
import { parseFeed, rfc4180Problem } from "../e2e/feeds.js";

const GOLDEN_DIR = fileURLToPath(new URL(".", import.meta.url));
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";
const NOW = new Date("2026-11-21T00:00:00Z");
const STABLE_BASE_URL = "http://sandbox.test";
/** Files of this folder that are not golden feeds. */
const NOT_GOLDEN = new Set(["golden.test.ts", "offers.csv"]);

/** Public categories of the sandbox's tree mapped to Google taxonomy ids, as a shop would. */
const CATEGORIES = { googleCategoryMap: { "501": 491, "510": 491, "517": 567, "524": 486 }, defaultGoogleCategory: 491 };
const TAXONOMY_PRESETS = new Set(["google", "google-tsv", "microsoft", "meta", "meta-xml", "beslist"]);

let sandbox: SandboxHandle;
let result: GenerateResult;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 42, products: 40, rateLimit: 100_000 });
  const channels = channelsForEveryPreset().map((c) => ({ ...c, gzip: false, ...(TAXONOMY_PRESETS.has(c.preset) ? { categories: CATEGORIES } : {}) }));
  // Offers for a few products: an active sale, an expired one, out of stock, a backorder with its availability_date,
  // a preorder without one (left out of Google and Microsoft: MISSING_AVAILABILITY_DATE), a price the catalogue lacks.
  const tree = await writeConfig({ channels, main: { offers: { file: join(GOLDEN_DIR, "offers.csv") } } });
  const env = { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
  const config = await loadConfig(tree.configFile, { env });
  result = await runGenerate({ config, logger: silentLogger, now: NOW });
});

afterAll(async () => {
  await sandbox?.close();
  await removeTemporaries();
});

async function published(preset: string): Promise<{ name: string; text: string; items: number; format: string; golden: string }> {
  const entry = result.manifest.channels.find((c) => c.preset === preset);
  if (!entry) throw new Error(`no channel of preset ${preset}`);
  const text = (await readFile(join(result.outputDir, entry.file), "utf8")).replaceAll(sandbox.url, STABLE_BASE_URL);
  return { name: entry.name, text, items: entry.items, format: entry.format, golden: join(GOLDEN_DIR, `${preset}${extname(entry.file)}`) };
}

describe("golden files", () => {
  it("publishes one channel per preset, none empty", () => {
    expect(result.manifest.channels.map((c) => c.preset).sort()).toEqual([...PRESET_NAMES].sort());
    for (const entry of result.manifest.channels) {
      expect(entry.published, entry.name).toBe(true);
      expect(entry.items, entry.name).toBeGreaterThan(0);
    }
    expect(result.manifest.offers).toMatchObject({ accepted: 4, refused: 0 });
  });

  it.each(PRESET_NAMES)("%s matches its golden file byte for byte", async (preset) => {
    const feed = await published(preset);
    expect(parseFeed(feed.text, feed.format).length).toBe(feed.items);
    expect(feed.text).not.toContain("127.0.0.1");
    if (UPDATE) {
      await writeFile(feed.golden, feed.text);
      return;
    }
    const golden = await readFile(feed.golden, "utf8").catch(() => {
      throw new Error(`${feed.golden} is missing: run UPDATE_GOLDEN=1 npx vitest run test/golden and review it`);
    });
    expect(feed.text, `${preset} differs from ${feed.golden} (UPDATE_GOLDEN=1 rewrites it)`).toBe(golden);
  });

  // Values with a bare line break must be quoted (a CRLF record delimiter made csv-stringify
  // quote only CRLF); Python's csv and spreadsheets split the record otherwise.
  it.each(["meta.csv", "idealo.csv", "idealo-de.csv", "billiger.csv", "medizinfuchs.csv", "generic-csv.csv"])("%s is RFC 4180 (values with line breaks quoted)", async (file) => {
    expect(rfc4180Problem(await readFile(join(GOLDEN_DIR, file), "utf8"))).toBeUndefined();
  });

  it("keeps no golden file of a preset that no longer exists", async () => {
    const files = (await readdir(GOLDEN_DIR)).filter((f) => !NOT_GOLDEN.has(f));
    const expected = await Promise.all(PRESET_NAMES.map(async (p) => (await published(p)).golden.slice(GOLDEN_DIR.length)));
    expect(files.sort()).toEqual(expected.sort());
  });
});
