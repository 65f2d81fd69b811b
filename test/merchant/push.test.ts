/**
 * The intraday push: the plan (pure), then real runs (sandbox, offers file, the real
 * Google writer) against the fake Merchant API: a refresh pushes exactly the changed
 * prices and stock into a supplemental data source it created, at most twice a day per
 * product, and deletes the input of a product that left the feed.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogue } from "../../src/sandbox/index.js";
import { getProduct } from "../../src/merchant/fake/products.js";
import { planPush, type OfferState } from "../../src/merchant/push/plan.js";
import { attributesOf, money, type Values } from "../../src/merchant/push/values.js";
import { channelsForEveryPreset, removeTemporaries, tempDir, type ChannelFileJson } from "../e2e/config.js";
import { itemId, parseFeed } from "../e2e/feeds.js";
import { openBench, T0, HOUR, type Bench, type OfferRow } from "../rowcache/harness.js";
import { startFake, type FakeSetup } from "./helpers.js";

const v = (price: string, availability = "in_stock", salePrice = ""): Values => ({ price, salePrice, availability });
const NOW = new Date("2026-11-27T10:00:00Z");
const LIMITS = { maxPerProductPerDay: 2, repushAfterDays: 25, budget: 100 };

describe("planPush", () => {
  it("pushes what differs from what Google has (input, else the baseline), stock first; nothing without a baseline", () => {
    const state = new Map<string, OfferState>([
      ["A", { baseline: v("10.00 EUR") }],
      ["B", { baseline: v("5.00 EUR") }],
      ["C", { baseline: v("7.00 EUR"), input: { values: v("6.00 EUR"), day: "2026-11-27", today: 1, at: "2026-11-27T08:00:00Z" } }],
    ]);
    const current = new Map([["A", v("9.00 EUR")], ["B", v("5.00 EUR", "out_of_stock")], ["C", v("6.00 EUR")], ["N", v("1.00 EUR")]]);
    const plan = planPush(current, state, LIMITS, NOW);
    expect(plan.push.map((p) => p.id)).toEqual(["B", "A"]);
    expect([plan.remove, plan.waiting]).toEqual([[], 0]);
  });

  it("waits past two pushes a day or the budget; re-pushes an input before it expires; deletes the input of a product gone", () => {
    const input = (day: string, today: number, at: string) => ({ values: v("6.00 EUR"), day, today, at });
    const state = new Map<string, OfferState>([
      ["A", { baseline: v("7.00 EUR"), input: input("2026-11-27", 2, "2026-11-27T09:00:00Z") }],
      ["B", { baseline: v("7.00 EUR"), input: input("2026-10-31", 1, "2026-10-31T09:00:00Z") }],
      ["C", { baseline: v("7.00 EUR"), input: input("2026-11-26", 2, "2026-11-26T09:00:00Z") }],
      ["D", { input: input("2026-11-27", 1, "2026-11-27T09:00:00Z") }],
    ]);
    const current = new Map([["A", v("5.00 EUR")], ["B", v("6.00 EUR")], ["C", v("5.50 EUR")]]);
    const plan = planPush(current, state, LIMITS, NOW);
    expect(plan.push.map((p) => [p.id, p.reason])).toEqual([["C", "changed"], ["B", "expiring"]]);
    expect([plan.remove, plan.waiting]).toEqual([["D"], 1]);
    expect(planPush(current, state, { ...LIMITS, budget: 2 }, NOW).push.map((p) => p.id)).toEqual(["C"]);
  });

  it("sends money as micros without floating point, and an ended sale as the price", () => {
    expect(money("0.29 EUR")).toEqual({ amountMicros: "290000", currencyCode: "EUR" });
    expect(money("1234.5 EUR")).toEqual({ amountMicros: "1234500000", currencyCode: "EUR" });
    expect(money("12,50 EUR")).toBeUndefined();
    expect(attributesOf(v("9.99 EUR", "out_of_stock"))).toEqual({ price: { amountMicros: "9990000", currencyCode: "EUR" }, salePrice: { amountMicros: "9990000", currencyCode: "EUR" }, availability: "OUT_OF_STOCK" });
  });
});

describe("a refresh pushes changed prices and stock", () => {
  const SEED = 5;
  let bench: Bench;
  let fake: FakeSetup;
  let out: string;
  let rows: OfferRow[];
  let inFeed: string[];

  const inserts = () => fake.api.log.filter((r) => r.path.endsWith("/productInputs:insert"));
  const feedIds = async () => parseFeed(await readFile(join(out, "google-fr.xml"), "utf8"), "xml").map((r) => itemId(r, "google"));

  beforeAll(async () => {
    fake = await startFake();
    const ids = [...createCatalogue({ seed: SEED, products: 40, assetBaseUrl: "http://sandbox.test" }).products()].filter((p) => p["status"] === "active").map((p) => p["id"] as string);
    rows = ids.map((id) => ({ id, price: "20.00", quantity: 5 }));
    const google: ChannelFileJson = {
      ...channelsForEveryPreset().find((c) => c.name === "google-fr")!,
      offers: { whenMissing: "skip" },
      merchant: { accountId: fake.account.id, credentials: fake.keyFile, apiUrl: fake.api.url, readAfterRun: false, push: { enabled: true } },
    };
    bench = await openBench({ sandbox: { seed: SEED, products: 40 }, channels: [google], offers: rows });
    out = join(await tempDir(), "out");
    await bench.run(bench.config, out, T0, { source: "full" });
    inFeed = await feedIds();
    // Google fetched the nightly file: its products, at the file's price.
    fake.account.add(inFeed, { feedLabel: "FR", contentLanguage: "fr" });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([bench?.close(), fake?.close()]);
    await removeTemporaries();
  });

  it("the first run only sets the baseline; a refresh sends exactly the changed products, with only those attributes", async () => {
    expect(inFeed.length).toBeGreaterThan(5);
    expect(inserts()).toEqual([]);
    const [a, b] = inFeed;
    await bench.writeOffers(rows.map((r) => (r.id === a ? { ...r, price: "17.49" } : r.id === b ? { ...r, quantity: 0, availability: "out_of_stock" } : r)));
    const result = await bench.run(bench.config, out, T0 + HOUR, { source: "snapshot" });
    expect(result.manifest.status).toBe("ok");
    const sent = inserts().map((r) => r.body as { offerId: string; productAttributes: Record<string, unknown> });
    expect(sent.map((s) => s.offerId).sort()).toEqual([a, b].sort());
    expect(sent.find((s) => s.offerId === a)!.productAttributes).toEqual({ price: { amountMicros: "17490000", currencyCode: "EUR" }, salePrice: { amountMicros: "17490000", currencyCode: "EUR" }, availability: "IN_STOCK" });
    expect(sent.find((s) => s.offerId === b)!.productAttributes["availability"]).toBe("OUT_OF_STOCK");
    expect(fake.account.dataSources.map((d) => d.displayName)).toEqual(["Nightly feed file", "pharmafeed intraday google-fr"]);
    expect(new Set(inserts().map((r) => r.query["dataSource"]))).toEqual(new Set([fake.account.dataSources[1]!.name]));
    // Linked in the primary source's default rule, ahead of the file: what Google shows is the pushed price.
    const supplemental = fake.account.dataSources[1]!.name;
    expect(fake.account.primary.defaultRule).toEqual([{ supplementalDataSourceName: supplemental }, { self: true }]);
    const shown = getProduct(fake.account, `fr~FR~${a}`).body as { productAttributes: { price: unknown } };
    expect(shown.productAttributes.price).toEqual({ amountMicros: "17490000", currencyCode: "EUR" });
  }, 60_000);

  it("the link is checked on every push: put back when removed, reported when no primary source takes the feed", async () => {
    const [, , c, d] = inFeed;
    fake.account.primary.defaultRule = [{ self: true }];
    await bench.writeOffers(rows.map((r) => (r.id === c ? { ...r, price: "18.00" } : r)));
    const relinked = await bench.run(bench.config, out, T0 + HOUR + 60_000, { source: "snapshot" });
    expect(relinked.manifest.status).toBe("ok");
    expect(fake.account.primary.defaultRule?.[0]).toEqual({ supplementalDataSourceName: fake.account.dataSources[1]!.name });

    Object.assign(fake.account.primary, { feedLabel: "DE", contentLanguage: "de", defaultRule: [{ self: true }] });
    try {
      await bench.writeOffers(rows.map((r) => (r.id === d ? { ...r, price: "18.50" } : r)));
      const unlinked = await bench.run(bench.config, out, T0 + HOUR + 120_000, { source: "snapshot" });
      expect(unlinked.manifest.status).toBe("degraded");
      expect(unlinked.manifest.problems).toEqual([
        { kind: "merchant", code: "MERCHANT_PUSH_UNLINKED", channel: "google-fr", reason: expect.stringMatching(/no primary data source of account \d+ takes products of feed label FR and language fr: the pushed prices and stock change nothing Google shows/) },
      ]);
    } finally {
      Object.assign(fake.account.primary, { feedLabel: undefined, contentLanguage: undefined });
    }
  }, 90_000);

  it("a product changes at most twice a day through the API; one that left the feed loses its input", async () => {
    const [a] = inFeed;
    await bench.writeOffers(rows.map((r) => (r.id === a ? { ...r, price: "16.00" } : r)));
    await bench.run(bench.config, out, T0 + 2 * HOUR, { source: "snapshot" });
    expect(inserts().filter((r) => (r.body as { offerId: string }).offerId === a).length).toBe(2);
    await bench.writeOffers(rows.map((r) => (r.id === a ? { ...r, price: "15.00" } : r)));
    await bench.run(bench.config, out, T0 + 3 * HOUR, { source: "snapshot" });
    expect(inserts().filter((r) => (r.body as { offerId: string }).offerId === a).length).toBe(2);

    await bench.writeOffers(rows.filter((r) => r.id !== a));
    await bench.run(bench.config, out, T0 + 4 * HOUR, { source: "snapshot" });
    expect(await feedIds()).not.toContain(a);
    const deletes = fake.api.log.filter((r) => r.method === "DELETE");
    expect(deletes.map((r) => r.path.split("/").at(-1))).toEqual([`fr~FR~${a}`]);
    expect([...(fake.account.inputs.get(fake.account.dataSources[1]!.name)?.keys() ?? [])]).not.toContain(`fr~FR~${a}`);
  }, 90_000);
});
