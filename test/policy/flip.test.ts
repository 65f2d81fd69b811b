/**
 * The check of the table as data: one cell changed (Google, BE, pharmacy-only OTC
 * medicines) between two runs over the sandbox, and exactly the products of that class flip,
 * each citing the row in the report; the manifest counts them under the row. Real HTTP, the
 * published feed read back by an XML parser, the expected set computed from the raw catalogue.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { createCatalogue, startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { removeTemporaries, writeConfig } from "../e2e/config.js";
import { parseFeed, readManifestJson } from "../e2e/feeds.js";

const SEED = 7;
const PRODUCTS = 400;
const NOW = new Date("2026-11-29T00:00:00Z");
let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
});
afterAll(async () => {
  await sandbox?.close();
  await removeTemporaries();
});

const cell = (verdict: string) => ({
  channel: "google",
  country: "BE",
  class: "pharmacy-medicine",
  verdict,
  source: `https://policy.example/google-be-otc-${verdict}`,
  verified: "2026-11-29",
  recheck: "2027-05-29",
  rule: `test: Google says ${verdict} for OTC medicines in Belgium`,
});

async function run(verdict: string) {
  const channel = {
    name: "google-be",
    preset: "google",
    locale: "fr",
    country: "BE",
    gzip: false,
    link: { template: "https://shop.example/{{id}}" },
    gate: { maxRejectedPercent: 100 },
  };
  const tree = await writeConfig({ channels: [channel], main: { policy: { rows: [cell(verdict)] } } });
  const env = { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
  const config = await loadConfig(tree.configFile, { env });
  await runGenerate({ config, logger: silentLogger, now: NOW });
  const manifest = await readManifestJson(tree.outputDir);
  const ids = new Set(parseFeed(await readFile(join(tree.outputDir, "google-be.xml"), "utf8"), "xml").map((r) => String(r["g:id"])));
  const report = parse(await readFile(join(tree.outputDir, "reports", "google-be.csv"), "utf8"), { columns: true }) as Record<string, string>[];
  return { manifest, ids, report };
}

/** Pharmacy-only OTC medicines by the catalogue's own fields: a medicine category, no prescription. */
function otcMedicines(): Set<string> {
  const out = new Set<string>();
  for (const p of createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()) {
    const types = ((p["catalogCategories"] as { type?: unknown }[] | undefined) ?? []).map((c) => c.type);
    if (types.includes("medicine") && p["prescription"] !== true) out.add(p["id"] as string);
  }
  return out;
}

describe("one cell of the policy table", () => {
  it("google BE pharmacy-medicine allow -> deny flips exactly the OTC medicines, each citing the row", async () => {
    const allowed = await run("allow");
    const denied = await run("deny");
    const otc = otcMedicines();
    const flipped = [...allowed.ids].filter((id) => !denied.ids.has(id)).sort();
    const expected = [...allowed.ids].filter((id) => otc.has(id)).sort();
    expect(expected.length).toBeGreaterThan(5);
    expect(flipped).toEqual(expected);
    expect([...denied.ids].filter((id) => !allowed.ids.has(id))).toEqual([]);

    const lines = new Map(denied.report.map((r) => [r["id"]!, r]));
    for (const id of flipped) {
      const line = lines.get(id);
      expect(line?.["reason"], id).toBe("POLICY_DENIED");
      expect(line?.["detail"], id).toContain('pharmacy-medicine: row "google BE pharmacy-medicine" deny (https://policy.example/google-be-otc-deny, verified 2026-11-29): test: Google says deny for OTC medicines in Belgium');
    }
    // Counted per row: every product the row left out, also those something else kept out before (no photo, deleted).
    const byRow = denied.report.filter((r) => otc.has(r["id"]!) && (r["reason"] === "POLICY_DENIED" || r["other_reasons"]!.split(" ").includes("POLICY_DENIED"))).length;
    expect(byRow).toBeGreaterThan(flipped.length);
    expect(denied.manifest.channels[0]?.policy?.["google BE pharmacy-medicine"]).toBe(byRow);
    expect(allowed.manifest.channels[0]?.policy?.["google BE pharmacy-medicine"]).toBeUndefined();
  }, 120_000);
});
