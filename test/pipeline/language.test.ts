/**
 * One language per feed, through a whole run (issue 13, item 5): a Dutch
 * channel over the sandbox leaves out exactly the products whose name has no
 * Dutch, counts them under MISSING_LANGUAGE in the manifest and lists them in
 * the channel's report; the same channel opting in to fallbacks publishes them.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate, type GenerateResult } from "../../src/pipeline/run.js";
import { createCatalogue, startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { removeTemporaries, writeConfig, type ChannelFileJson } from "../e2e/config.js";
import { itemId, parseFeed, readReport } from "../e2e/feeds.js";
import { catalogueFacts } from "../e2e/oracle.js";

const SEED = 13;
const PRODUCTS = 300;
const NOW = new Date("2026-11-21T00:00:00Z");

let sandbox: SandboxHandle;
let result: GenerateResult;

const nl = (name: string, extra: Record<string, unknown> = {}): ChannelFileJson => ({
  name,
  preset: "google-tsv",
  locale: "nl",
  fallbackLocales: ["fr", "en"],
  country: "BE",
  link: { template: "https://shop.example/nl/{{id}}" },
  categories: { defaultGoogleCategory: 491 },
  gate: { maxRejectedPercent: 100 },
  ...extra,
});

beforeAll(async () => {
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  const tree = await writeConfig({ channels: [nl("only-nl"), nl("nl-with-fallback", { title: { fallback: true }, description: { fallback: true } })] });
  const env = { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
  result = await runGenerate({ config: await loadConfig(tree.configFile, { env }), logger: silentLogger, now: NOW });
});

afterAll(async () => {
  await sandbox?.close();
  await removeTemporaries();
});

/** Streamed, eligible products whose name has no Dutch text: computed from the raw catalogue, not by mapping. */
function withoutDutchName(): Set<string> {
  const facts = catalogueFacts({ seed: SEED, products: PRODUCTS, now: NOW });
  const streamed = new Set(facts.streamIds);
  const ids = new Set<string>();
  for (const p of createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()) {
    const id = p["id"] as string;
    if (!streamed.has(id) || facts.ineligible.has(id)) continue;
    const dutch = (p["name"] as Record<string, unknown>)["nl"];
    if (typeof dutch !== "string" || dutch.trim() === "") ids.add(id);
  }
  return ids;
}

async function published(channel: string): Promise<Set<string>> {
  const entry = result.manifest.channels.find((c) => c.name === channel)!;
  const text = await readFile(join(result.outputDir, entry.file), "utf8");
  return new Set(parseFeed(text, entry.format).map((row) => itemId(row, entry.preset)));
}

describe("a Dutch channel", () => {
  it("leaves out exactly the products whose name has no Dutch, as MISSING_LANGUAGE", async () => {
    const expected = withoutDutchName();
    expect(expected.size).toBeGreaterThan(50);
    const report = await readReport(result.outputDir, "only-nl");
    const titles = report.filter((r) => r["reason"] === "MISSING_LANGUAGE" && /: title: only [a-z, ]+$/.test(String(r["detail"])));
    expect(new Set(titles.map((r) => r["id"] as string))).toEqual(expected);
    const items = await published("only-nl");
    expect([...expected].filter((id) => items.has(id))).toEqual([]);
  });

  it("counts them in the manifest like any other reason", async () => {
    const entry = result.manifest.channels.find((c) => c.name === "only-nl")!;
    const report = await readReport(result.outputDir, "only-nl");
    expect(entry.excluded["MISSING_LANGUAGE"]).toBe(report.filter((r) => r["reason"] === "MISSING_LANGUAGE").length);
    expect(entry.published).toBe(true);
  });

  it("publishes them where the channel opts in to fallbacks for titles and descriptions", async () => {
    const entry = result.manifest.channels.find((c) => c.name === "nl-with-fallback")!;
    expect(entry.excluded["MISSING_LANGUAGE"]).toBeUndefined();
    const items = await published("nl-with-fallback");
    expect([...withoutDutchName()].filter((id) => items.has(id)).length).toBeGreaterThan(20);
  });
});
