/**
 * The read-back against the fake Merchant API: two feeds sharing one account, statuses
 * per country, Google's issues kept in its words, reports/google-issues.csv parsed back,
 * explain's lines; a failed read-back is a Problem and keeps the previous statuses.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { merchantAlerts } from "../../src/merchant/alerts.js";
import { googleLines, type GoogleAnswer } from "../../src/merchant/explain.js";
import { googleSection } from "../../src/merchant/status.js";
import { summaryLines } from "../../src/merchant/summary.js";
import { disapproval } from "../../src/merchant/fake/state.js";
import { MerchantSettings, type MerchantChannel } from "../../src/merchant/settings.js";
import { MerchantStore } from "../../src/merchant/store.js";
import { syncMerchant } from "../../src/merchant/sync.js";
import { FAST_RETRY, startFake, type FakeSetup } from "./helpers.js";

let fake: FakeSetup;
let outputDir: string;
const lines: string[] = [];
const logger = createLogger({ write: (l) => lines.push(l) });

beforeEach(async () => {
  fake = await startFake();
  outputDir = join(fake.dir, "output");
  lines.length = 0;
  const gtin = disapproval("invalid_gtin", "gtins", "Invalid GTIN value", ["FR"]);
  const image = disapproval("image_too_small", "image link", "Image too small", ["FR"]);
  fake.account.add(["P1", "P2", "P3", "sku/4", "P5"], {
    status: (id) =>
      id === "P2" ? { disapprovedCountries: ["FR"], issues: [gtin] }
      : id === "P3" ? { pendingCountries: ["FR"] }
      : id === "sku/4" ? { disapprovedCountries: ["FR"], issues: [gtin, image] }
      : { approvedCountries: ["FR"] },
  });
  fake.account.add(["P1", "P6"], { contentLanguage: "nl", feedLabel: "BE", status: (id) => (id === "P6" ? { disapprovedCountries: ["BE"], issues: [{ ...image, applicableCountries: ["BE"] }] } : { approvedCountries: ["BE"] }) });
  fake.account.add(["X1"], { contentLanguage: "en", feedLabel: "US" });
  fake.account.issues = [{ name: `accounts/${fake.account.id}/issues/1`, title: "Misrepresentation", severity: "CRITICAL" }];
});
afterEach(async () => fake.close());

function channels(keyFile = fake.keyFile): MerchantChannel[] {
  const settings = MerchantSettings.parse({ accountId: fake.account.id, credentials: keyFile, apiUrl: fake.api.url });
  return [
    { channel: "google-fr", settings, keyFile, feedLabel: "FR", contentLanguage: "fr" },
    { channel: "google-nl", settings, keyFile, feedLabel: "BE", contentLanguage: "nl" },
  ];
}

const sync = (cs = channels()) => syncMerchant({ outputDir, channels: cs, logger, now: new Date("2026-11-27T06:00:00Z"), client: { retry: FAST_RETRY } });

describe("syncMerchant", () => {
  it("reads the account once for both feeds and counts each feed's verdicts", async () => {
    const result = await sync();
    expect(result.problems).toEqual([]);
    expect(result.requests).toBe(2);
    const [fr, nl] = result.feeds;
    expect(fr).toMatchObject({ channel: "google-fr", products: 5, approved: 2, pending: 1, disapproved: 2 });
    expect(nl).toMatchObject({ channel: "google-nl", products: 2, approved: 1, pending: 0, disapproved: 1 });
    expect(fr!.topIssues.map((i) => [i.code, i.products])).toEqual([["invalid_gtin", 2], ["image_too_small", 1]]);
    expect(fr!.accountIssues.map((a) => a.title)).toEqual(["Misrepresentation"]);
  });

  it("keeps per product and feed Google's verdict per country, with its issues in Google's words", async () => {
    await sync();
    const store = MerchantStore.open(outputDir)!;
    try {
      const p1 = store.verdicts("P1");
      expect(p1.map((v) => [v.channel, v.state, v.countries.map((c) => `${c.country}:${c.status}`).join()])).toEqual([
        ["google-fr", "approved", "FR:approved"],
        ["google-nl", "approved", "BE:approved"],
      ]);
      const [sku] = store.verdicts("sku/4");
      expect(sku!.issues.map((i) => [i.code, i.attribute, i.description, i.documentation])).toEqual([
        ["invalid_gtin", "gtins", "Invalid GTIN value", expect.stringMatching(/^https:\/\/support\.google\.com\//)],
        ["image_too_small", "image link", "Image too small", expect.stringMatching(/^https:\/\/support\.google\.com\//)],
      ]);
      expect(store.verdicts("X1")).toEqual([]);
      expect(store.find({ channel: "google-fr", state: "disapproved", limit: 10 }).map((v) => v.offerId)).toEqual(["P2", "sku/4"]);
      expect(store.find({ words: "image too small", limit: 10 }).map((v) => v.offerId)).toEqual(["sku/4", "P6"]);
    } finally {
      store.close();
    }
  });

  it("writes reports/google-issues.csv: one line per product and issue, marked as Google's", async () => {
    await sync();
    const rows = parse(await readFile(join(outputDir, "reports", "google-issues.csv")), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r["channel"], r["id"], r["code"], r["google_status"], r["countries"], r["source"]])).toEqual([
      ["google-fr", "P2", "invalid_gtin", "disapproved", "FR", "google"],
      ["google-fr", "sku/4", "invalid_gtin", "disapproved", "FR", "google"],
      ["google-fr", "sku/4", "image_too_small", "disapproved", "FR", "google"],
      ["google-nl", "P6", "image_too_small", "disapproved", "BE", "google"],
    ]);
  });

  it("an issue Google lists per reporting context counts once per product: page, summary, alert, CSV and explain", async () => {
    await sync();
    const shopping = disapproval("image_link_broken", "image link", "Image link broken", ["FR"]);
    const free = { ...shopping, reportingContext: "FREE_LISTINGS", severity: "DEMOTED" };
    fake.account.add(["B1", "B2"], { status: () => ({ disapprovedCountries: ["FR"], issues: [shopping, free] }) });
    const result = await sync();
    const fr = result.feeds[0]!;
    expect(fr.topIssues.find((i) => i.code === "image_link_broken")).toMatchObject({ products: 2, severity: "DISAPPROVED" });
    expect(summaryLines(result.feeds)).toContain("  2 x disapproved image_link_broken (image link): Image link broken");
    expect(googleSection(outputDir, "")).toContain('<span class="n">2</span> · disapproved <code>image_link_broken</code>');
    const [alert] = merchantAlerts(result.feeds, result.previous, channels(), { shop: "Shop", now: new Date("2026-11-27T06:00:00Z") });
    expect(alert!.channels[0]!.reason).toMatch(/most: .*image_link_broken \(2\)/);

    const rows = (parse(await readFile(join(outputDir, "reports", "google-issues.csv")), { columns: true }) as Record<string, string>[]).filter((r) => r["id"] === "B1");
    expect(rows.map((r) => [r["code"], r["severity"], r["contexts"]])).toEqual([["image_link_broken", "DISAPPROVED", "FREE_LISTINGS SHOPPING_ADS"]]);
    const store = MerchantStore.open(outputDir)!;
    const [b1] = store.verdicts("B1");
    store.close();
    expect(b1!.issues).toHaveLength(1);
    const lines = googleLines({ accountId: "1", syncedAt: "t", state: b1!.state, countries: b1!.countries, issues: b1!.issues.map((i) => ({ severity: i.severity, code: i.code, countries: i.applicableCountries, contexts: i.contexts })) });
    expect(lines.filter((l) => l.includes("image_link_broken"))).toEqual(["    disapproved image_link_broken [FR] (free listings, shopping ads): "]);
  });

  it("explain's lines say the verdict per country and each issue with its attribute and link", () => {
    const answer: GoogleAnswer = {
      accountId: "1",
      syncedAt: "2026-11-27T06:00:00.000Z",
      state: "disapproved",
      countries: [{ country: "FR", status: "disapproved", contexts: { SHOPPING_ADS: "disapproved", FREE_LISTINGS: "approved" } }],
      issues: [{ severity: "DISAPPROVED", code: "invalid_gtin", attribute: "gtins", description: "Invalid GTIN value", documentation: "https://support.google.com/merchants/answer/1", countries: ["FR"] }],
    };
    expect(googleLines(answer)).toEqual([
      "  Google's verdict (Merchant Center 1, read 2026-11-27T06:00:00.000Z):",
      "    FR DISAPPROVED (shopping ads: disapproved, free listings: approved)",
      "    disapproved invalid_gtin (gtins) [FR]: Invalid GTIN value",
      "      https://support.google.com/merchants/answer/1",
    ]);
    expect(googleLines({ ...answer, state: "unknown", countries: [], issues: [] })[1]).toMatch(/not in Merchant Center/);
  });

  it("a failed read-back is a merchant Problem per feed and keeps the previous statuses, marked stale", async () => {
    await sync();
    fake.api.faults.push(...Array.from({ length: FAST_RETRY.maxRetries + 1 }, () => ({ status: 503 })));
    const result = await sync();
    expect(result.problems.map((p) => [p.kind, p.code, p.channel])).toEqual([
      ["merchant", "MERCHANT_HTTP", "google-fr"],
      ["merchant", "MERCHANT_HTTP", "google-nl"],
    ]);
    expect(result.feeds.map((f) => [f.channel, f.disapproved, f.error !== undefined])).toEqual([
      ["google-fr", 2, true],
      ["google-nl", 1, true],
    ]);
    const store = MerchantStore.open(outputDir)!;
    expect(store.verdicts("P2").map((v) => v.state)).toEqual(["disapproved"]);
    store.close();
  });

  it("an unset key or an unregistered project is a Problem, never a throw; the key never reaches the log", async () => {
    const unset = await sync(channels(""));
    expect(unset.problems[0]).toMatchObject({ kind: "merchant", channel: "google-fr", reason: expect.stringMatching(/GOOGLE_APPLICATION_CREDENTIALS/) });
    fake.account.registered = false;
    const unregistered = await sync();
    expect(unregistered.problems[0]).toMatchObject({ code: "MERCHANT_AUTH", reason: expect.stringMatching(/registerGcp/) });
    const key = fake.key.key.private_key.split("\n")[1]!;
    expect(lines.join("\n")).not.toContain(key);
    expect(lines.join("\n")).not.toMatch(/ya29/);
  });
});
