/**
 * The offers file as a new user gets it wrong, through the BUILT command line:
 * a file `generate` refuses publishes nothing (every file of the output folder
 * byte-identical, the report of refused rows aside) and exits 7 naming the
 * lines; `validate` says the same; `--force` uses the file anyway.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv, type CliResult } from "./cli.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig, type E2eConfig } from "./config.js";
import { parseFeed, readManifestJson, readReport, snapshot, type ManifestJson } from "./feeds.js";
import { createCatalogue } from "../../src/sandbox/index.js";
import { catalogueFacts } from "./oracle.js";

const SEED = 11;
const PRODUCTS = 120;
let sandbox: SandboxHandle;
let ids: string[];

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  ids = catalogueFacts({ seed: SEED, products: PRODUCTS, now: new Date() }).streamIds;
});

afterAll(async () => {
  killAll();
  await sandbox.close();
  await removeTemporaries();
});

const manifestOf = async (dir: string) => (await readManifestJson(dir)) as ManifestJson & { offers?: { accepted: number; refused: number } };

const run = (command: "generate" | "validate", config: E2eConfig, args: string[] = []): Promise<CliResult> =>
  runCli([command, "--config", config.configFile, ...args], { env: sandboxEnv(sandbox) });

/** A config of three channels whose offers file is config/offers.csv, after a first good run with `good` offers. */
async function afterGoodRun(good: number): Promise<{ config: E2eConfig; offersFile: string }> {
  const channels = channelsForEveryPreset().filter((c) => ["google", "generic-csv", "idealo"].includes(c.preset));
  const config = await writeConfig({ channels, main: { offers: { file: "offers.csv" } } });
  const offersFile = join(config.root, "config", "offers.csv");
  await writeFile(offersFile, ["id;price;quantity", ...ids.slice(0, good).map((id, i) => `${id};${i + 1},99;3`)].join("\n") + "\n");
  const first = await run("generate", config);
  expect(first.code, first.stderr).toBe(0);
  expect((await manifestOf(config.outputDir)).offers).toMatchObject({ accepted: good, refused: 0 });
  return { config, offersFile };
}

/** Every file of the output folder but the report of refused offers rows and the run's record (a refused run is recorded as failed). */
async function published(dir: string): Promise<Map<string, string>> {
  const files = await snapshot(dir);
  files.delete(join("reports", "_offers.csv"));
  for (const file of [...files.keys()]) if (file === "manifest.json" || file.startsWith("history")) files.delete(file);
  return files;
}

describe("an offers file the parser does not understand (EAN;Prix;Stock)", () => {
  it("publishes nothing: exit 7, the live feeds byte-identical, the lines named with the field each column likely is; validate says so; --force publishes; mapped in offers.columns, it is read", async () => {
    const { config, offersFile } = await afterGoodRun(40);
    const before = await published(config.outputDir);
    await writeFile(offersFile, ["EAN;Prix;Stock", ...Array.from({ length: 40 }, (_, i) => `3400930000014;${i + 1},50;${i}`)].join("\n") + "\n");

    const refused = await run("generate", config);
    expect(refused.code, refused.stderr).toBe(7);
    expect(refused.stderr).toContain(`OFFERS_REFUSED: offers file ${offersFile} refused: nothing was published, the live feeds stay (fix the file: --force would publish without the refused rows, each of their products left out or sold at catalogue prices and stock (offers.whenRefused, offers.whenMissing))`);
    expect(refused.stderr).toContain('\n  - line 1: unknown column "EAN" (did you mean "gtin"? map it with offers.columns {"EAN": "gtin"}, or list it in offers.ignoreColumns)\n');
    expect(refused.stderr).toContain('\n  - line 1: unknown column "Stock" (did you mean "quantity"? map it with offers.columns {"Stock": "quantity"}, or list it in offers.ignoreColumns)\n');
    expect(refused.stderr).toContain("line 1: OFFER_NO_KEY: the header has no id, gtin or cip13 column");
    expect(refused.stderr).toContain("0 of 40 rows accepted (0.0%), fewer than offers.minAcceptedPercent 95%");
    expect(refused.stdout).not.toContain("Published:");
    expect(await published(config.outputDir)).toEqual(before);
    const record = await manifestOf(config.outputDir);
    expect(record).toMatchObject({ status: "failed", error: { code: "OFFERS_REFUSED" }, offers: { accepted: 40 } });

    const validate = await run("validate", config);
    expect(validate.code, validate.stderr).toBe(7);
    expect(validate.stderr).toContain('line 1: unknown column "EAN" (did you mean "gtin"?');

    const forced = await run("generate", config, ["--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    const manifest = await manifestOf(config.outputDir);
    expect(manifest.offers).toMatchObject({ accepted: 0 });
    expect(manifest.channels.every((c) => c.published === true)).toBe(true);

    // The POS export as it is, its headers mapped in the main config (docs/mapping.md, "Offers file").
    const main = JSON.parse(await readFile(config.configFile, "utf8")) as { offers: Record<string, unknown> };
    main.offers = { ...main.offers, columns: { "Code produit": "id", "Prix TTC": "price", Stock: "quantity" }, ignoreColumns: ["Désignation"] };
    await writeFile(config.configFile, JSON.stringify(main));
    await writeFile(offersFile, ["Code produit;Désignation;Prix TTC;Stock", ...ids.slice(0, 40).map((id, i) => `${id};Produit ${i};${i + 1},50;${i % 3}`)].join("\n") + "\n");
    const mapped = await run("generate", config);
    expect(mapped.code, mapped.stderr).toBe(0);
    expect((await manifestOf(config.outputDir)).offers).toMatchObject({ accepted: 40, refused: 0 });
  });
});

describe("an offers file with too many bad rows, or far fewer offers than the last run", () => {
  it("is refused (exit 7) with the bad lines or both counts; the feeds stay; validate agrees", async () => {
    const { config, offersFile } = await afterGoodRun(40);
    const before = await published(config.outputDir);
    const good = ids.slice(0, 40).map((id) => `${id};5,00;1`);
    good[4] = `${ids[4]};"5,00;1`;
    good[9] = `${ids[9]},5.00,1`;
    good[19] = `${ids[19]};5.00.0;1`;
    await writeFile(offersFile, ["id;price;quantity", ...good].join("\n"));
    const bad = await run("generate", config);
    expect(bad.code, bad.stderr).toBe(7);
    expect(bad.stderr).toContain("37 of 40 rows accepted (92.5%), fewer than offers.minAcceptedPercent 95%");
    expect(bad.stderr).toContain("line 6 OFFER_PARSE a quote opened on this line is not closed");
    expect(bad.stderr).toContain("line 11 OFFER_PARSE 1 field where the header has 3: this row uses ','");
    expect(bad.stderr).toContain("line 21 OFFER_BAD_PRICE price 5.00.0");
    expect(await published(config.outputDir)).toEqual(before);

    await writeFile(offersFile, ["id;price;quantity", ...ids.slice(0, 20).map((id) => `${id};5,00;1`)].join("\n"));
    const dropped = await run("generate", config);
    expect(dropped.code, dropped.stderr).toBe(7);
    expect(dropped.stderr).toContain("20 offers accepted against 40 in the last run (-50.0%), more than offers.maxDropPercent 20%");
    expect(await published(config.outputDir)).toEqual(before);
    const validate = await run("validate", config);
    expect(validate.code, validate.stderr).toBe(7);
    expect(validate.stderr).toContain("against 40 in the last run");
  });
});

describe("a price typed in cents in the euros column, and a row refused for its price", () => {
  it("leaves both products out with their reasons in the report, the manifest and explain; never the catalogue's price in stock", async () => {
    const { config, offersFile } = await afterGoodRun(40);
    const csvFeed = async () => parseFeed(await readFile(join(config.outputDir, "generic-csv-nl.csv"), "utf8"), "csv").map((r) => r["id"]);
    const publicCents = new Map([...createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()].map((p) => [p["id"], p["publicPrice"]]));
    // Two products the good run published, with a catalogue price.
    const [typo, refused] = (await csvFeed()).filter((id) => typeof publicCents.get(id) === "number").slice(0, 2) as [string, string];
    const cents = publicCents.get(typo) as number;
    // A product the good run published without a catalogue price: judged against the price it was published at (afterGoodRun: i+1,99).
    const lastCents = (id: string) => (ids.indexOf(id) + 1) * 100 + 99;
    const unpriced = ((await csvFeed()) as string[]).find((id) => typeof publicCents.get(id) !== "number" && ids.indexOf(id) >= 0 && ids.indexOf(id) < 40) as string;
    expect(unpriced, "the good run published a product without a catalogue price").toBeDefined();
    const others = ids.slice(0, 40).filter((id) => id !== typo && id !== refused && id !== unpriced);
    // The typo: the shop's price is the catalogue's, typed in cents in a column of euros (100x).
    // Every other row at the catalogue's price (a comma decimal, as a French spreadsheet writes it), or the one it was published at.
    const shopPrice = (id: string) => ((typeof publicCents.get(id) === "number" ? (publicCents.get(id) as number) : lastCents(id)) / 100).toFixed(2).replace(".", ",");
    const lines = ["id;price;quantity", ...others.map((id) => `${id};${shopPrice(id)};3`), `${typo};${cents};3`, `${refused};12,99.5;3`, `${unpriced};${lastCents(unpriced)};3`];
    await writeFile(offersFile, lines.join("\n") + "\n");

    const result = await run("generate", config);
    expect(result.code, result.stderr).toBe(0);
    const feed = await csvFeed();
    expect(feed).not.toContain(typo);
    expect(feed).not.toContain(refused);
    const report = await readReport(config.outputDir, "generic-csv-nl");
    expect(report.find((r) => r["id"] === typo)).toMatchObject({
      reason: "IMPLAUSIBLE_PRICE",
      detail: expect.stringContaining(`price ${(cents).toFixed(2)} in the offers file is 100 times the catalogue's public price ${(cents / 100).toFixed(2)}: looks like cents in the euros column`),
    });
    expect(report.find((r) => r["id"] === refused)).toMatchObject({ reason: "OFFER_REFUSED", detail: expect.stringContaining(`offers file line ${lines.length - 1}: OFFER_BAD_PRICE`) });
    expect(feed).not.toContain(unpriced);
    expect(report.find((r) => r["id"] === unpriced)).toMatchObject({
      reason: "IMPLAUSIBLE_PRICE",
      detail: expect.stringContaining(`price ${lastCents(unpriced).toFixed(2)} in the offers file is 100 times the price last published ${(lastCents(unpriced) / 100).toFixed(2)}: looks like cents in the euros column`),
    });
    const manifest = await manifestOf(config.outputDir);
    for (const channel of ["google-fr", "generic-csv-nl", "idealo-fr"]) {
      expect(manifest.channels.find((c) => c.name === channel)?.excluded, channel).toMatchObject({ IMPLAUSIBLE_PRICE: 2, OFFER_REFUSED: 1 });
    }
    const explain = await runCli(["explain", "--config", config.configFile, typo], { env: sandboxEnv(sandbox) });
    expect(explain.code, explain.stderr).toBe(0);
    expect(explain.stdout).toContain("IMPLAUSIBLE_PRICE");
    expect(explain.stdout).toContain("cents in the euros column");
  });
});
