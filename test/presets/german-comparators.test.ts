/**
 * The German comparators (medizinfuchs, billiger, idealo-de) end to end: the sandbox catalogue
 * over loopback HTTP, an offers file with a `pzn` column for a few products, a real `generate`,
 * and the published files read with csv-parse (never the code that wrote them). The column
 * names and formats are those src/presets/sources.ts cites.
 *
 *   - medizinfuchs publishes exactly the products with a PZN; the others are counted and
 *     reported as MISSING_CODE (its detail naming `pzn`), measured against the same preset without the rule
 *   - every PZN column holds the offer's PZN, 8 digits (a PZN-7 padded), or nothing
 *   - prices read as numbers in each preset's format: `12,50` (medizinfuchs), `12.50` (the others)
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import { PHARMACY_CODES } from "../../src/mapping/pharmacy-codes.js";
import { runGenerate, type GenerateResult } from "../../src/pipeline/run.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { removeTemporaries, writeConfig, type ChannelFileJson } from "../e2e/config.js";
import { readReport, type ManifestEntry } from "../e2e/feeds.js";
import { catalogueFacts } from "../e2e/oracle.js";

const SEED = 42;
const PRODUCTS = 80;
const NOW = new Date("2026-11-21T00:00:00Z");

/** The header each layout writes, with the names its sources give (sources.ts: MFX, BLP, ID + IDP). */
const HEADERS = {
  medizinfuchs: ["PZN", "preis", "versandkosten", "produktlink", "grundpreis", "id"],
  billiger: ["aid", "name", "brand", "mpnr", "ean", "pzn", "desc", "shop_cat", "price", "old_price", "ppu", "link", "image", "images", "dlv_time", "dlv_cost"],
  "idealo-de": ["sku", "brand", "title", "categoryPath", "url", "eans", "pzns", "description", "price", "formerPrice", "deliveryCosts_dhl", "paymentCosts_paypal", "deliveryTime", "imageUrl", "basePrice"],
} as const;
const DELIMITER = { medizinfuchs: ";", billiger: "\t", "idealo-de": "," } as const;
const ID = { medizinfuchs: "id", billiger: "aid", "idealo-de": "sku" } as const;
const PZN = { medizinfuchs: "PZN", billiger: "pzn", "idealo-de": "pzns" } as const;
const PRICE = { medizinfuchs: "preis", billiger: "price", "idealo-de": "price" } as const;
const BASE_PRICE = { medizinfuchs: "grundpreis", billiger: "ppu", "idealo-de": "basePrice" } as const;
type German = keyof typeof HEADERS;
const GERMAN = Object.keys(HEADERS) as German[];

/** IFA's check digit of a 7-digit body: weights 1..7, remainder mod 11; undefined for 10 (never issued). */
function checkDigit(body: string): number | undefined {
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(body[i]) * (i + 1);
  return sum % 11 === 10 ? undefined : sum % 11;
}

/** The n-th valid PZN of a fixed series, the first with a leading 0 (so that its PZN-7 differs). */
function pzn(n: number): string {
  for (let body = 123456 + n * 104729; ; body++) {
    const digits = String(body % 10_000_000).padStart(7, "0");
    const check = checkDigit(digits);
    if (check !== undefined) return digits + String(check);
  }
}

interface Feed {
  entry: ManifestEntry;
  header: string[];
  rows: Record<string, string>[];
}

let sandbox: SandboxHandle;
let result: GenerateResult;
/** Offer PZN (8 digits) by product id. */
const pznById = new Map<string, string>();
/** Offer price by product id, for the products whose offer has one. */
const priceById = new Map<string, string>();
let ineligible: Map<string, string>;
/** Active, undeleted prescription products: left out of every feed, whatever their PZN. */
let prescription: Set<string>;
let streamIds: string[];

async function feed(channel: string, preset: German): Promise<Feed> {
  const entry = result.manifest.channels.find((c) => c.name === channel) as ManifestEntry | undefined;
  if (!entry) throw new Error(`no channel ${channel}`);
  const text = await readFile(join(result.outputDir, entry.file), "utf8");
  const records = parseCsv(text, { delimiter: DELIMITER[preset], relax_quotes: false, relax_column_count: false }) as string[][];
  const [header = [], ...data] = records;
  const rows = data.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ""])));
  return { entry, header, rows };
}

const ids = (f: Feed, preset: German) => new Set(f.rows.map((r) => r[ID[preset]]!));
const sorted = (s: Iterable<string>) => [...s].sort();

beforeAll(async () => {
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  const facts = catalogueFacts({ seed: SEED, products: PRODUCTS, now: NOW });
  streamIds = facts.streamIds;
  ineligible = facts.ineligible;
  const deleted = (id: string) => ["DELETED", "OFFICIALLY_DELETED"].includes(ineligible.get(id) ?? "");
  prescription = new Set(streamIds.filter((id) => facts.prescription.has(id) && !deleted(id)));
  // PZNs for every other sellable product and one prescription product (banned whatever its PZN),
  // the first given as a PZN-7 (the 8-digit one with its leading 0 off), four with the shop's own price.
  const eligible = streamIds.filter((id) => !ineligible.has(id));
  const rx = [...prescription][0];
  const chosen = [...eligible.filter((_, i) => i % 2 === 0), ...(rx ? [rx] : [])];
  const prices = ["12.50", "7.49", "23.90", "4.05"];
  const lines = ["id,price,pzn"];
  chosen.forEach((id, i) => {
    const code = pzn(i);
    pznById.set(id, code);
    const price = prices[i] ?? "";
    if (price) priceById.set(id, price);
    lines.push(`${id},${price},${i === 0 ? code.slice(1) : code}`);
  });

  const common = { link: { template: "https://apotheke.example/p/{{seoName}}-{{id}}.html?ref=feed&x=1" }, gate: { maxRejectedPercent: 100 } };
  // The sandbox has German text for few products: these channels read French and English too.
  const readsFrench = { locale: "de", fallbackLocales: ["fr", "en"], title: { fallback: true }, description: { fallback: true } };
  const channels: ChannelFileJson[] = [
    { name: "medizinfuchs-de", preset: "medizinfuchs", ...common, custom: { deliveryCosts: "3,95" } },
    // The same preset without the PZN rule: what medizinfuchs would publish if every product had one.
    { name: "medizinfuchs-all", preset: "medizinfuchs", ...common, codes: { required: [] } },
    { name: "billiger-de", preset: "billiger", ...common, ...readsFrench, custom: { deliveryTime: "1-3 Werktage", deliveryCosts: "3.95" } },
    { name: "idealo-de", preset: "idealo-de", ...common, ...readsFrench, custom: { deliveryTime: "1-3 Werktage", deliveryCosts: "3.95", paymentCosts: "0.00" } },
  ];
  const tree = await writeConfig({ channels, main: { offers: { file: "offers.csv" } }, files: { "offers.csv": lines.join("\n") + "\n" } });
  const env = { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
  const config = await loadConfig(tree.configFile, { env });
  result = await runGenerate({ config, logger: silentLogger, now: NOW });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  await removeTemporaries();
});

describe("the test's own PZNs", () => {
  it("pass the mapping's PZN check, the PZN-7 padded to 8 digits", () => {
    expect(pznById.size).toBeGreaterThanOrEqual(8);
    expect([...pznById.values()][0]).toMatch(/^0/);
    for (const code of pznById.values()) expect(PHARMACY_CODES.pzn.check(code)).toEqual({ ok: true, value: code, checked: "check-digit" });
    const first = [...pznById.values()][0]!;
    expect(PHARMACY_CODES.pzn.check(first.slice(1))).toMatchObject({ ok: true, value: first });
    expect(result.manifest.offers).toMatchObject({ accepted: pznById.size, refused: 0 });
  });
});

describe.each([
  ["medizinfuchs-de", "medizinfuchs"],
  ["billiger-de", "billiger"],
  ["idealo-de", "idealo-de"],
] as const)("%s", (channel, preset) => {
  it("is published with the header the sources give, every product either in the feed or in the report", async () => {
    const f = await feed(channel, preset);
    expect(f.entry.published).toBe(true);
    expect(f.header).toEqual(HEADERS[preset]);
    expect(f.rows.length).toBe(f.entry.items);
    const reported = new Set((await readReport(result.outputDir, channel)).map((r) => String(r["id"])));
    const inFeed = ids(f, preset);
    expect(inFeed.size).toBe(f.rows.length);
    for (const id of inFeed) expect(reported.has(id), id).toBe(false);
    expect(sorted([...inFeed, ...reported])).toEqual(streamIds);
  });

  it("writes the offer's PZN (8 digits) in its PZN column, and nothing for a product without one", async () => {
    const f = await feed(channel, preset);
    for (const row of f.rows) {
      const id = row[ID[preset]]!;
      expect(row[PZN[preset]], id).toBe(pznById.get(id) ?? "");
    }
    // The products given a PZN that the channel publishes at all carry it (the PZN-7 one padded).
    const withPzn = f.rows.filter((r) => r[PZN[preset]] !== "");
    expect(withPzn.length).toBeGreaterThanOrEqual(4);
    for (const row of withPzn) expect(row[PZN[preset]]).toMatch(/^\d{8}$/);
  });

  it("writes prices that read as numbers in the preset's format, the offer's price where it has one", async () => {
    const f = await feed(channel, preset);
    const comma = preset === "medizinfuchs";
    const format = comma ? /^\d+,\d{2}$/ : /^\d+\.\d{2}$/;
    const number = (text: string) => Number(comma ? text.replace(",", ".") : text);
    for (const row of f.rows) {
      const price = row[PRICE[preset]]!;
      expect(price, row[ID[preset]]).toMatch(format);
      expect(number(price)).toBeGreaterThan(0);
      const offered = priceById.get(row[ID[preset]]!);
      if (offered !== undefined) expect(price).toBe(comma ? offered.replace(".", ",") : offered);
      const base = row[BASE_PRICE[preset]]!;
      if (base !== "") expect(base).toMatch(comma ? /^\d+,\d{2} EUR \/ 1 (?:l|kg)$/ : /^\d+\.\d{2} EUR \/ 1 (?:l|kg)$/);
    }
    expect([...priceById.keys()].some((id) => ids(f, preset).has(id))).toBe(true);
  });
});

describe("medizinfuchs", () => {
  it("publishes exactly the products with a PZN, and counts and reports the others as MISSING_CODE pzn", async () => {
    const withRule = await feed("medizinfuchs-de", "medizinfuchs");
    const withoutRule = await feed("medizinfuchs-all", "medizinfuchs");
    const all = ids(withoutRule, "medizinfuchs");
    const expected = sorted([...all].filter((id) => pznById.has(id)));
    expect(expected.length).toBeGreaterThanOrEqual(4);
    expect(sorted(ids(withRule, "medizinfuchs"))).toEqual(expected);

    const missing = sorted([...all].filter((id) => !pznById.has(id)));
    expect(missing.length).toBeGreaterThan(0);
    expect(withRule.entry.excluded["MISSING_CODE"]).toBe(missing.length);
    expect(withoutRule.entry.excluded["MISSING_CODE"]).toBeUndefined();
    const report = await readReport(result.outputDir, "medizinfuchs-de");
    const missingCode = report.filter((r) => r["reason"] === "MISSING_CODE");
    expect(sorted(missingCode.map((r) => String(r["id"])))).toEqual(missing);
    // The report words the detail (reason-details.ts); the kind it names is the last word.
    for (const r of missingCode) expect(String(r["detail"])).toMatch(/\bpzn$/);
  });

  it("leaves a prescription product out of every German feed, whatever its PZN", async () => {
    const rx = [...pznById.keys()].find((id) => prescription.has(id));
    expect(rx).toBeDefined();
    for (const preset of GERMAN) {
      const channel = preset === "medizinfuchs" ? "medizinfuchs-de" : preset === "billiger" ? "billiger-de" : "idealo-de";
      expect(ids(await feed(channel, preset), preset).has(rx!), channel).toBe(false);
    }
  });

  it("writes the channel's shipping costs and no image or text column", async () => {
    const f = await feed("medizinfuchs-de", "medizinfuchs");
    for (const row of f.rows) {
      expect(row["versandkosten"]).toBe("3,95");
      expect(row["produktlink"]).toMatch(/^https:\/\/apotheke\.example\/p\/.+\?ref=feed&x=1$/);
    }
  });
});
