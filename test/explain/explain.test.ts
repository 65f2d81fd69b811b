/**
 * `pharmafeed explain` end to end: the BUILT command line generates from a
 * sandbox (real HTTP), then explains products found through the feeds and
 * reports it published, through the catalogue (an inactive product) and not at
 * all. The index's row offsets are checked against every published file.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogue, startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ExplainIndex, explainFile } from "../../src/explain/store.js";
import { unpackOutcome } from "../../src/explain/entry.js";
import type { ExplainAnswer } from "../../src/explain/explain.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { parseGtin } from "../../src/mapping/gtin.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig, type E2eConfig } from "../e2e/config.js";
import { itemId, parseFeed, readManifestJson, readReport, type ManifestJson } from "../e2e/feeds.js";

const SEED = 7;
const PRODUCTS = 300;
const CHANNELS = ["google-fr", "idealo-fr", "google-tsv-nl", "generic-json-nl", "beslist-nl", "generic-ndjson-fr"];

let sandbox: SandboxHandle;
let config: E2eConfig;
let manifest: ManifestJson;
const all = [...createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()];

async function explainJson(...args: string[]): Promise<ExplainAnswer> {
  const result = await runCli(["explain", "--config", config.configFile, "--json", ...args], { env: sandboxEnv(sandbox) });
  if (result.code !== 0) throw new Error(`explain failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as ExplainAnswer;
}

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  const channels = channelsForEveryPreset().filter((c) => CHANNELS.includes(c.name));
  config = await writeConfig({ channels });
  const run = await runCli(["generate", "--config", config.configFile, "--workers", "0"], { env: sandboxEnv(sandbox) });
  if (run.code !== 0) throw new Error(`generate failed (${run.code}): ${run.stderr}`);
  manifest = await readManifestJson(config.outputDir);
});

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await removeTemporaries();
});

describe("the explain index", () => {
  it("places every published row: the bytes at its offset are the item of that product, in every format", async () => {
    const index = ExplainIndex.open(explainFile(config.outputDir))!;
    try {
      expect(index.meta.channels.map((c) => c.name)).toEqual(manifest.channels.map((c) => c.name));
      for (const [at, entry] of manifest.channels.entries()) {
        const file = await readFile(join(config.outputDir, entry.file));
        const header = file.toString("utf8").split("\n")[0]!;
        const ids = parseFeed(file.toString("utf8"), entry.format).map((row) => itemId(row, entry.preset));
        expect(ids.length).toBeGreaterThan(10);
        for (const id of ids) {
          const outcome = unpackOutcome(index.byId(id)!.outcomes[at] ?? null);
          expect(outcome?.kind, `${entry.name} ${id}`).toBe("item");
          if (outcome?.kind !== "item") continue;
          const text = file.toString("utf8", outcome.offset, outcome.offset + outcome.bytes);
          if (entry.format === "xml") expect(text.trim()).toMatch(new RegExp(`^<(item|product)>[\\s\\S]*>${id}<[\\s\\S]*</(item|product)>$`));
          else if (entry.format === "csv" || entry.format === "tsv") expect(itemId(parseFeed(`${header}\n${text}`, entry.format)[0]!, entry.preset)).toBe(id);
          else expect((JSON.parse(text) as { id: string }).id).toBe(id);
        }
      }
    } finally {
      index.close();
    }
  });

  it("is the same whether worker threads or the main thread mapped the products", async () => {
    const threaded = await writeConfig({ channels: channelsForEveryPreset().filter((c) => CHANNELS.includes(c.name)) });
    const run = await runCli(["generate", "--config", threaded.configFile, "--workers", "2"], { env: sandboxEnv(sandbox) });
    expect(run.code, run.stderr).toBe(0);
    const a = ExplainIndex.open(explainFile(config.outputDir))!;
    const b = ExplainIndex.open(explainFile(threaded.outputDir))!;
    try {
      const ids = all.filter((p) => p["status"] === "active").map((p) => p["id"] as string);
      expect(ids.length).toBeGreaterThan(100);
      for (const id of ids) expect(b.byId(id), id).toEqual(a.byId(id));
    } finally {
      a.close();
      b.close();
    }
  });
});

describe("pharmafeed explain", () => {
  it("shows a product in the feed with its row exactly as written, on every channel without --channel", async () => {
    const xml = await readFile(join(config.outputDir, "google-fr.xml"), "utf8");
    const id = parseFeed(xml, "xml").map((row) => itemId(row, "google"))[0]!;
    const answer = await explainJson(id);
    expect(answer.matchedBy).toBe("id");
    expect(answer.products).toHaveLength(1);
    expect(answer.products[0]!.channels.map((c) => c.channel)).toEqual(manifest.channels.map((c) => c.name));
    const google = answer.products[0]!.channels.find((c) => c.channel === "google-fr")!;
    expect(google.outcome).toBe("in_feed");
    expect(Buffer.from(xml).toString("utf8", google.offset!, google.offset! + google.bytes!)).toBe(google.row);
    expect(google.row).toContain(`<g:id>${id}</g:id>`);
  });

  it("with --channel answers for that channel only, and prints words and codes as text", async () => {
    const report = await readReport(config.outputDir, "idealo-fr");
    const several = report.find((r) => r["other_reasons"] !== "") as Record<string, string>;
    expect(several).toBeDefined();
    const answer = await explainJson(several["id"]!, "--channel", "idealo-fr");
    expect(answer.products[0]!.channels).toHaveLength(1);
    const channel = answer.products[0]!.channels[0]!;
    expect(channel.outcome).toBe("left_out");
    expect(channel.reasons!.map((r) => r.code)).toEqual([several["reason"], ...several["other_reasons"]!.split("|")]);
    for (const reason of channel.reasons!) expect(reason.detail.length).toBeGreaterThan(15);
    const text = await runCli(["explain", "--config", config.configFile, "--channel", "idealo-fr", several["id"]!], { env: sandboxEnv(sandbox) });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("idealo-fr: LEFT OUT");
    expect(text.stdout).toContain(`${channel.reasons![0]!.code}: ${channel.reasons![0]!.detail}`);
  });

  it("finds a product by its GTIN at any width and by its CIP13", async () => {
    const products = all.filter((p) => p["status"] === "active");
    const withCip = products.find((p) => typeof p["cip13"] === "number")!;
    const withGtin = products.find((p) => typeof p["eanGtin13"] === "number" && String(p["eanGtin13"]).length === 13 && !p["cip13"])!;
    const gtin = String(withGtin["eanGtin13"]);
    for (const query of [gtin, gtin.padStart(14, "0")]) {
      const answer = await explainJson(query);
      expect(answer.matchedBy).toBe("code");
      expect(answer.products.map((p) => p.id)).toEqual([withGtin["id"]]);
    }
    const cip = String(withCip["cip13"]);
    const answer = await explainJson(cip);
    expect(answer.products.map((p) => p.id)).toEqual([withCip["id"]]);
    expect(answer.products[0]!.cip13).toBe(cip);
  });

  it("finds products by words of their name, in the channel's language with --channel", async () => {
    const names = all.filter((p) => p["status"] === "active").map((p) => ((p["name"] as Record<string, string> | undefined) ?? {})["fr"] ?? "");
    const counts = new Map<string, number>();
    for (const name of names) for (const word of new Set(name.toLowerCase().split(/[^\p{L}]+/u).filter((w) => w.length > 4))) counts.set(word, (counts.get(word) ?? 0) + 1);
    const [word, n] = [...counts].filter(([, c]) => c >= 3 && c <= 15).sort((a, b) => b[1] - a[1])[0]!;
    const answer = await explainJson(word, "--channel", "google-fr");
    expect(answer.matchedBy).toBe("words");
    expect(answer.total).toBeGreaterThanOrEqual(n);
    expect(answer.products.length).toBeGreaterThan(1);
    for (const p of answer.products) expect(p.name!.toLowerCase()).toContain(word);
  });

  it("explains a product the source filter left out through one catalogue request, and an unknown one", async () => {
    const inactive = all.find((p) => p["status"] === "inactive")!;
    const answer = await explainJson(inactive["id"] as string);
    expect(answer.matchedBy).toBe("catalogue");
    expect(answer.catalogue).toMatchObject({ found: true, why: ["status inactive: the source filter asks for active products"] });
    const unknown = await explainJson("M0FFFFFFF9");
    expect(unknown.catalogue).toEqual({ found: false, why: ["not in the catalogue"] });
    const text = await runCli(["explain", "--config", config.configFile, "M0FFFFFFF9"], { env: sandboxEnv(sandbox) });
    expect(text.stdout).toContain("not in the catalogue");
  });

  it("explains from the index a product the last run received that the catalogue finds by a code the index does not key (a wrong check digit)", async () => {
    const received = new Set(all.filter((p) => p["status"] === "active").map((p) => p["id"] as string));
    const wrong = all.find((p) => received.has(p["id"] as string) && typeof p["eanGtin13"] === "string" && /^\d{13}$/.test(p["eanGtin13"]) && !parseGtin(p["eanGtin13"], 13).ok);
    expect(wrong, "a product of the catalogue with a wrong check digit").toBeDefined();
    // A review found it said "not received by the last run ... added or changed after the last run".
    const answer = await explainJson(wrong!["eanGtin13"] as string);
    expect(answer.matchedBy).toBe("code");
    expect(answer.products.map((p) => p.id)).toEqual([wrong!["id"]]);
    expect(answer.catalogue).toBeUndefined();
  });

  it("finds a code of a product in no feed through the catalogue, in its 13- and 14-digit forms", async () => {
    const inactive = all.filter((p) => p["status"] === "inactive" && p["eanGtin13"] !== undefined).slice(0, 3);
    expect(inactive.length).toBeGreaterThan(0);
    for (const product of inactive) {
      const thirteen = String(product["eanGtin13"]).padStart(13, "0");
      for (const query of [thirteen, `0${thirteen}`]) {
        const answer = await explainJson(query);
        expect(answer.matchedBy, query).toBe("catalogue");
        expect(answer.catalogue?.product?.id, query).toBe(product["id"]);
      }
    }
  });

  it("refuses a query longer than 200 characters, as the status page's search (exit 2, before any lookup)", async () => {
    const words = Array.from({ length: 5_000 }, (_, i) => `word${i}`).join(" ");
    const result = await runCli(["explain", "--config", config.configFile, words], { env: sandboxEnv(sandbox) });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`the query is ${words.length} characters long; explain takes at most 200`);
    expect(result.stdout).toBe("");
    const longest = await runCli(["explain", "--config", config.configFile, "--json", "x".repeat(200)], { env: sandboxEnv(sandbox) });
    expect(longest.code, longest.stderr).toBe(0);
    // Characters as a person counts them, as the status page does: 101 emoji are 101, not 202.
    expect((await runCli(["explain", "--config", config.configFile, "--json", "💊".repeat(101)], { env: sandboxEnv(sandbox) })).code).toBe(0);
    const emoji = await runCli(["explain", "--config", config.configFile, "💊".repeat(201)], { env: sandboxEnv(sandbox) });
    expect(emoji.code).toBe(2);
    expect(emoji.stderr).toContain("the query is 201 characters long");
  });

  it("answers 'not in the catalogue' (exit 0) for codes of 8, 12, 13 and 14 digits absent from every feed", async () => {
    const known = new Set(all.flatMap((p) => [p["ean"], p["eanGtin8"], p["eanGtin12"], p["eanGtin13"], p["eanGtin14"], p["gtin"], p["cip13"], p["acl13"]].flat().filter((c) => c != null).map((c) => String(c).replace(/^0+/, ""))));
    for (const query of ["00000000", "96385074", "036000291452", "4006381333931", "10012345678902"]) {
      expect(known.has(query.replace(/^0+/, "")), query).toBe(false);
      const result = await runCli(["explain", "--config", config.configFile, "--json", query], { env: sandboxEnv(sandbox) });
      expect(result.code, `${query}: ${result.stderr}`).toBe(0);
      const answer = JSON.parse(result.stdout) as ExplainAnswer;
      expect(answer.catalogue, query).toEqual({ found: false, why: ["not in the catalogue"] });
    }
  });
});
