/**
 * reports/<channel>.csv and reports/<channel>.warnings.csv as a catalogue team
 * reads them: written by a real run of the BUILT CLI against the sandbox, read
 * back with csv-parse, checked against the generated catalogue and the manifest.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogue, startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig, type E2eConfig } from "../e2e/config.js";
import { readManifestJson, type ManifestJson } from "../e2e/feeds.js";

const SEED = 11;
const PRODUCTS = 250;
// generic-csv-nl opts in to title and description fallbacks (as the sample config), so the warnings report has some.
const CHANNELS = ["google-fr", "beslist-nl", "idealo-fr", "generic-csv-nl"];

let sandbox: SandboxHandle;
let config: E2eConfig;
let manifest: ManifestJson;
const products = new Map([...createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()].map((p) => [p["id"] as string, p]));

type Csv = { header: string[]; rows: Record<string, string>[] };

async function readCsv(name: string): Promise<Csv> {
  const text = await readFile(join(config.outputDir, "reports", name), "utf8");
  const [header, ...rest] = parse(text) as string[][];
  return { header: header!, rows: rest.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i]!]))) };
}

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  config = await writeConfig({ channels: channelsForEveryPreset().filter((c) => CHANNELS.includes(c.name)) });
  const run = await runCli(["generate", "--config", config.configFile, "--workers", "0"], { env: sandboxEnv(sandbox) });
  if (run.code !== 0) throw new Error(`generate failed (${run.code}): ${run.stderr}`);
  manifest = await readManifestJson(config.outputDir);
});

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await removeTemporaries();
});

/** Every code field of a raw product, as digit strings without leading zeros. */
function codes(p: Record<string, unknown>): string[] {
  return ["eanGtin13", "eanGtin14", "eanGtin12", "eanGtin8", "ean", "gtin", "cip13", "acl13"].flatMap((k) => [p[k]].flat()).filter((v) => v !== undefined && v !== null).map((v) => String(v).replace(/^0+/, ""));
}

describe("reports/<channel>.csv", () => {
  it("gives id, GTIN, the name in the channel's language, brand, and every reason with its detail in words", async () => {
    for (const entry of manifest.channels) {
      const { header, rows } = await readCsv(`${entry.name}.csv`);
      expect(header).toEqual(["id", "gtin", "name", "brand", "reason", "detail", "other_reasons"]);
      expect(rows.length).toBe(Object.values(entry.excluded).reduce((a, b) => a + b, 0));
      for (const row of rows) {
        const p = products.get(row["id"]!)!;
        expect(p, row["id"]).toBeDefined();
        if (row["gtin"] !== "" && !row["gtin"]!.includes(" ")) expect(codes(p), row["id"]).toContain(row["gtin"]!.replace(/^0+/, ""));
        const names = (p["name"] ?? {}) as Record<string, string>;
        const own = names[entry.locale]?.trim();
        if (own) expect(row["name"]).toBe(own);
        const brand = (p["brands"] as { name?: unknown }[] | undefined)?.[0]?.name;
        if (typeof brand === "string" && brand.trim() !== "") expect(row["brand"]).toBe(brand.trim());
        expect(row["detail"]!.length, `${entry.name} ${row["id"]} ${row["reason"]}`).toBeGreaterThan(15);
      }
      const noImage = rows.find((r) => r["reason"] === "NO_IMAGE");
      if (noImage) expect(noImage["detail"]).toMatch(/^looked for a .*photo of type .*, at least \d+ px, .* and found none$/);
    }
    const all = (await Promise.all(manifest.channels.map((e) => readCsv(`${e.name}.csv`)))).flatMap((c) => c.rows);
    expect(all.some((r) => r["reason"] === "NO_IMAGE")).toBe(true);
    expect(all.some((r) => r["other_reasons"] !== "")).toBe(true);
    // The health rule is cited: the class, the row, its verdict, its source and the date it was verified.
    expect(all.find((r) => r["reason"] === "POLICY_DENIED" && r["detail"]!.includes("prescription-medicine: "))?.["detail"]).toMatch(
      /^the health policy table leaves this class of product out of \w+ feeds for [A-Z]{2} \(docs\/policy\.md; .*\): prescription-medicine: row "\S+ \S+ prescription-medicine" deny \(https:\/\/\S+, verified \d{4}-\d\d-\d\d\): .+/,
    );
  });
});

describe("reports/<channel>.warnings.csv", () => {
  it("lists every warning and locale fallback the manifest counts, one line each, in words", async () => {
    let fallbacks = 0;
    for (const entry of manifest.channels) {
      const { header, rows } = await readCsv(`${entry.name}.warnings.csv`);
      expect(header).toEqual(["id", "gtin", "name", "brand", "kind", "code", "detail"]);
      const warnings: Record<string, number> = {};
      const byField: Record<string, number> = {};
      for (const row of rows) {
        expect(["warning", "fallback"]).toContain(row["kind"]);
        expect(products.has(row["id"]!)).toBe(true);
        if (row["kind"] === "warning") warnings[row["code"]!] = (warnings[row["code"]!] ?? 0) + 1;
        else {
          const locale = /^\w+ taken from (\S+) \(none in \S+\)$/.exec(row["detail"]!)?.[1];
          expect(locale, row["detail"]).toBeDefined();
          byField[`${row["code"]}:${locale}`] = (byField[`${row["code"]}:${locale}`] ?? 0) + 1;
        }
      }
      const counted = (manifest.channels.find((c) => c.name === entry.name) as unknown as { warnings: Record<string, number>; fallbacks: Record<string, number> });
      expect(warnings, entry.name).toEqual(counted.warnings);
      expect(byField, entry.name).toEqual(counted.fallbacks);
      fallbacks += Object.keys(byField).length;
    }
    expect(fallbacks).toBeGreaterThan(0);
  });
});
