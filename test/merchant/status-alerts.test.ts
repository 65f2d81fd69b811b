/**
 * The Merchant Center alerts (a jump in disapprovals, a new account issue) delivered to
 * a real webhook receiver, and the status page's Google section over real HTTP after a
 * real run and read-back: counts, top issues with Google's links, search, the report.
 */
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { merchantAlerts } from "../../src/merchant/alerts.js";
import { disapproval } from "../../src/merchant/fake/state.js";
import { sendMerchantAlerts } from "../../src/merchant/run-hook.js";
import { MerchantSettings, type MerchantChannel } from "../../src/merchant/settings.js";
import type { FeedSummary } from "../../src/merchant/store.js";
import { syncMerchant } from "../../src/merchant/sync.js";
import { NotifySettings } from "../../src/notify/settings.js";
import type { FeedServer } from "../../src/serve/server.js";
import { startReceiver } from "../notify/receivers.js";
import { basic, fetchRaw, makeFixture, SECRETS, serve, type Fixture } from "../serve/helpers.js";
import { FAST_RETRY, startFake, type FakeSetup } from "./helpers.js";

const silent = createLogger({ write: () => {} });
const NOW = new Date("2026-11-27T06:00:00Z");

function feed(disapproved: number, products = 100, accountIssues: FeedSummary["accountIssues"] = []): FeedSummary {
  return { channel: "google-fr", accountId: "1", syncedAt: NOW.toISOString(), products, approved: products - disapproved, pending: 0, disapproved, unreadable: 0, accountIssues, topIssues: [] };
}

function merchantChannel(keyFile: string, apiUrl: string, accountId = "1", channel = "google-fr"): MerchantChannel {
  return { channel, settings: MerchantSettings.parse({ accountId, credentials: keyFile, apiUrl }), keyFile, feedLabel: "FR", contentLanguage: "fr" };
}

describe("merchantAlerts", () => {
  const channels = [merchantChannel("k", "https://x.test")];
  const ctx = { shop: "Pharmacie", now: NOW };
  const critical = { name: "accounts/1/issues/9", title: "Misrepresentation", severity: "CRITICAL" };

  it("alerts when disapprovals rise by more than the threshold, not at it, not on a first read-back", () => {
    expect(merchantAlerts([feed(8)], new Map([["google-fr", feed(2)]]), channels, ctx).map((a) => a.event)).toEqual(["merchant-disapprovals"]);
    expect(merchantAlerts([feed(7)], new Map([["google-fr", feed(2)]]), channels, ctx)).toEqual([]);
    expect(merchantAlerts([feed(50)], new Map(), channels, ctx)).toEqual([]);
    expect(merchantAlerts([{ ...feed(50), error: "down" }], new Map([["google-fr", feed(2)]]), channels, ctx)).toEqual([]);
  });

  it("alerts once per new account issue of the configured severities", () => {
    const [alert] = merchantAlerts([feed(0, 100, [critical])], new Map([["google-fr", feed(0)]]), channels, ctx);
    expect(alert).toMatchObject({ event: "merchant-account-issue", channels: [{ name: "account 1", reason: "critical: Misrepresentation" }] });
    expect(merchantAlerts([feed(0, 100, [critical])], new Map([["google-fr", feed(0, 100, [critical])]]), channels, ctx)).toEqual([]);
    expect(merchantAlerts([feed(0, 100, [{ ...critical, severity: "SUGGESTION" }])], new Map([["google-fr", feed(0)]]), channels, ctx)).toEqual([]);
  });
});

describe("a read-back's alerts and the status page", () => {
  let fake: FakeSetup;
  let fx: Fixture;
  let server: FeedServer;
  const AUTH = { Authorization: basic(SECRETS.STATUS_USER, SECRETS.STATUS_PASSWORD) };

  beforeAll(async () => {
    [fake, fx] = await Promise.all([startFake(), makeFixture({ products: 60 })]);
    server = await serve(fx.config);
  }, 120_000);
  afterAll(async () => {
    await server?.close(1000);
    await Promise.all([fx?.close(), fake?.close()]);
  });

  it("sends merchant-disapprovals and merchant-account-issue to a webhook after the read-back that saw them", async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `P${i}`);
    fake.account.add(ids);
    const channels = [merchantChannel(fake.keyFile, fake.api.url, fake.account.id)];
    const outputDir = join(fake.dir, "alerts");
    const sync = () => syncMerchant({ outputDir, channels, logger: silent, client: { retry: FAST_RETRY } });
    const receiver = await startReceiver();
    try {
      const notify = NotifySettings.parse({ webhooks: [{ url: receiver.url }] });
      const config = { notify, shop: { name: "Pharmacie", url: "https://p.example", description: "" } };
      await sendMerchantAlerts(config, channels, await sync(), silent);
      expect(receiver.received).toEqual([]);
      for (const p of fake.account.products.slice(0, 3)) p.status = { disapprovedCountries: ["FR"], issues: [disapproval("invalid_gtin", "gtins", "Invalid GTIN value", ["FR"])] };
      fake.account.issues = [{ name: `accounts/${fake.account.id}/issues/1`, title: "Policy violation: misrepresentation", severity: "CRITICAL" }];
      await sendMerchantAlerts(config, channels, await sync(), silent);
      const bodies = receiver.received.map((r) => r.body as { event: string; channels: { name: string; reason: string }[] });
      expect(bodies.map((b) => b.event).sort()).toEqual(["merchant-account-issue", "merchant-disapprovals"]);
      expect(bodies.find((b) => b.event === "merchant-disapprovals")!.channels[0]!.reason).toMatch(/^0 -> 3 of 20 products disapproved \(0 % -> 15 %, threshold \+5 points\); most: invalid_gtin \(3\)$/);
      await sendMerchantAlerts(config, channels, await sync(), silent);
      expect(receiver.received.length).toBe(2);
    } finally {
      await receiver.close();
    }
  });

  it("shows per feed what Google approved and disapproved and why, searches Google's verdicts, serves google-issues.csv", async () => {
    const before = await fetchRaw(server.url, "/", AUTH);
    expect(before.body.toString()).not.toContain("Google Merchant Center");
    const gtin = disapproval("invalid_gtin", "gtins", "Invalid GTIN <value>", ["FR"]);
    const account = fake.api.account("777", { clientEmail: fake.key.key.client_email, publicKey: fake.key.publicKey });
    account.add(["A1", "A2", "A3"], { status: (id) => (id === "A2" ? { disapprovedCountries: ["FR"], issues: [gtin] } : { approvedCountries: ["FR"] }) });
    const result = await syncMerchant({ outputDir: fx.config.outputDir, channels: [merchantChannel(fake.keyFile, fake.api.url, "777")], logger: silent, client: { retry: FAST_RETRY } });
    expect(result.problems).toEqual([]);
    const html = (await fetchRaw(server.url, "/", AUTH)).body.toString();
    expect(html).toMatch(/<h3>google-fr <small class="muted">Merchant Center 777 · read [^<]+<\/small><\/h3>/);
    expect(html).toContain(`<dt>Approved</dt><dd><span class="ok">2</span></dd><dt>Pending</dt><dd>0</dd><dt>Disapproved by Google</dt><dd><span class="bad">1</span> of 3</dd>`);
    // In the page's language (Google's own issue texts stay as Google wrote them).
    const fr = (await fetchRaw(server.url, "/?lang=fr", AUTH)).body.toString();
    expect(fr).toContain(`<dt>Approuvés</dt><dd><span class="ok">2</span></dd><dt>En attente</dt><dd>0</dd><dt>Refusés par Google</dt><dd><span class="bad">1</span> sur 3</dd>`);
    expect(fr).toContain("ce que Google a fait des flux");
    expect(fr).not.toContain("what Google did with the feeds");
    expect(html).toContain(`<code>invalid_gtin</code> (gtins): <a href="${gtin.documentation}" rel="noreferrer">Invalid GTIN &lt;value&gt;</a>`);
    const search = (await fetchRaw(server.url, "/?q=invalid_gtin", AUTH)).body.toString();
    expect(search).toMatch(/<li><strong>A2<\/strong> · google-fr: FR <span class="bad">disapproved<\/span>/);
    expect(search).not.toMatch(/<strong>A1<\/strong>/);
    const csv = await fetchRaw(server.url, "/status/reports/google-issues.csv", AUTH);
    expect(csv.status).toBe(200);
    expect((parse(csv.body, { columns: true }) as Record<string, string>[]).map((r) => [r["id"], r["code"]])).toEqual([["A2", "invalid_gtin"]]);
    expect((await fetchRaw(server.url, "/status/reports/google-issues.csv")).status).toBe(401);
  });
});
