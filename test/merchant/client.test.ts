/**
 * The Merchant API client against the local fake (real HTTP on 127.0.0.1): the JWT
 * grant at the key's token_uri, paging, base64url names, 429 retries, the daily limit,
 * 401 before developer registration, 403 for a stranger, a revoked token renewed once.
 */
import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PharmafeedError } from "../../src/errors.js";
import { makeTestKey, writeTestKey } from "../../src/merchant/fake/key.js";
import { parseProductSegment, productSegment } from "../../src/merchant/names.js";
import { registerAccounts } from "../../src/merchant/register.js";
import { MerchantSettings } from "../../src/merchant/settings.js";
import { join } from "node:path";
import { startFake, type FakeSetup } from "./helpers.js";

let fake: FakeSetup;
beforeEach(async () => (fake = await startFake()));
afterEach(async () => fake.close());

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PharmafeedError);
  return (error as PharmafeedError).code;
}

async function allOffers(client: Awaited<ReturnType<FakeSetup["client"]>>): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of client.products()) ids.push(...page.products.map((p) => p.offerId));
  return ids;
}

describe("names", () => {
  it("encodes a {product} segment as unpadded base64url only when a part has a reserved character", () => {
    expect(productSegment({ contentLanguage: "en", feedLabel: "US", offerId: "sku123" })).toBe("en~US~sku123");
    expect(productSegment({ contentLanguage: "en", feedLabel: "US", offerId: "sku/123" })).toBe("ZW5-VVN-c2t1LzEyMw");
    for (const offerId of ["sku/123", "a~b", "50%", "plain-1.2_3", "é"]) {
      expect(parseProductSegment(productSegment({ contentLanguage: "fr", feedLabel: "FR", offerId }))).toEqual({ contentLanguage: "fr", feedLabel: "FR", offerId });
    }
    expect(parseProductSegment("nonsense")).toBeUndefined();
  });
});

describe("MerchantClient", () => {
  it("gets one token from the key's token_uri and reads every product over pages of 1000", async () => {
    const ids = Array.from({ length: 2500 }, (_, i) => `P${i}`);
    fake.account.add(ids);
    const client = await fake.client();
    expect(await allOffers(client)).toEqual(ids);
    expect(client.requests).toBe(3);
    expect(fake.api.tokens.grants).toBe(1);
    expect(fake.api.log.map((r) => r.query["pageSize"])).toEqual(["1000", "1000", "1000"]);
  });

  it("waits out 429 quota/request_rate_too_high and 503, then answers", async () => {
    fake.account.add(["A", "B"]);
    fake.api.faults.push({ status: 429, retryAfterSeconds: 0 }, { status: 503 }, { status: 429 });
    const client = await fake.client();
    expect(await allOffers(client)).toEqual(["A", "B"]);
    expect(client.retries).toBe(3);
  });

  it("gives up after its retries with MERCHANT_HTTP, and stops at once on the daily limit (MERCHANT_QUOTA)", async () => {
    fake.api.faults.push(...Array.from({ length: 4 }, () => ({ status: 429 })));
    const client = await fake.client();
    expect(await codeOf(allOffers(client))).toBe("MERCHANT_HTTP");
    fake.account.quotas[0]!.usage = fake.account.quotas[0]!.limit;
    const before = client.requests;
    expect(await codeOf(allOffers(client))).toBe("MERCHANT_QUOTA");
    expect(client.requests - before).toBe(1);
  });

  it("answers 401 before developer registration with what to do, and works once registered", async () => {
    fake.account.registered = false;
    const client = await fake.client();
    const error = await allOffers(client).catch((e: unknown) => e as PharmafeedError);
    expect((error as PharmafeedError).code).toBe("MERCHANT_AUTH");
    expect((error as PharmafeedError).message).toMatch(/pharmafeed merchant register --developer-email/);
    // merchant register: with the key itself (no impersonation); a person's e-mail, never a service account's.
    const settings = MerchantSettings.parse({ accountId: fake.account.id, credentials: fake.keyFile, apiUrl: fake.api.url });
    const channel = { channel: "google-fr", settings, keyFile: fake.keyFile, feedLabel: "FR", contentLanguage: "fr" };
    await expect(registerAccounts([channel], fake.key.key.client_email)).rejects.toMatchObject({ code: "USAGE" });
    // A user of the account without ADMIN access is refused, with what to do.
    fake.api.admins.clear();
    await expect(registerAccounts([channel], "dev@pharmacie.example")).rejects.toMatchObject({ code: "MERCHANT_AUTH", message: expect.stringMatching(/ADMIN access.*Admin access: the developer registration needs it/) });
    fake.api.admins.set(fake.account.id, new Set([fake.key.key.client_email]));
    expect(await registerAccounts([channel, { ...channel, channel: "google-fr-2" }], "dev@pharmacie.example")).toEqual([expect.stringMatching(/^Merchant Center \d+: the Google Cloud project of feeds@.* is registered \(developer contact dev@pharmacie\.example\)/)]);
    expect([fake.account.registered, fake.account.registeredEmail]).toEqual([true, "dev@pharmacie.example"]);
    fake.account.add(["X"]);
    expect(await allOffers(client)).toEqual(["X"]);
  });

  it("renews a revoked token once; a stranger's key is refused at the token endpoint, a non-user gets 403", async () => {
    fake.account.add(["A"]);
    const client = await fake.client();
    await allOffers(client);
    fake.api.tokens.revokeAll();
    expect(await allOffers(client)).toEqual(["A"]);
    expect(fake.api.tokens.grants).toBe(2);

    const stranger = makeTestKey(fake.api.tokenUri, "stranger@other.iam.gserviceaccount.com");
    const strangerFile = join(fake.dir, "stranger.json");
    await writeTestKey(strangerFile, stranger.key);
    expect(await codeOf(allOffers(await fake.client({ keyFile: strangerFile })))).toBe("MERCHANT_AUTH");
    fake.api.publicKeys.set(stranger.key.client_email, stranger.publicKey);
    const error = await allOffers(await fake.client({ keyFile: strangerFile })).catch((e: unknown) => e as PharmafeedError);
    expect((error as PharmafeedError).message).toMatch(/HTTP 403.*user of the Merchant Center account/);
  });

  it("inserts only the given attributes into a supplemental data source it created, by base64url name for a reserved id, and deletes it", async () => {
    fake.account.add(["sku/1"]);
    const client = await fake.client();
    const source = await client.createSupplementalDataSource("pharmafeed intraday");
    expect((await client.dataSources()).map((d) => d.displayName)).toContain("pharmafeed intraday");
    const key = { contentLanguage: "fr", feedLabel: "FR", offerId: "sku/1" };
    await client.insertProductInput(source.name, key, { price: { amountMicros: "7490000", currencyCode: "EUR" }, availability: "OUT_OF_STOCK" });
    expect(fake.api.log.at(-1)?.body).toEqual({ offerId: "sku/1", contentLanguage: "fr", feedLabel: "FR", productAttributes: { price: { amountMicros: "7490000", currencyCode: "EUR" }, availability: "OUT_OF_STOCK" } });
    await client.deleteProductInput(source.name, key);
    expect(fake.api.log.at(-1)?.path).toBe(`/products/v1/accounts/${fake.account.id}/productInputs/ZnJ-RlJ-c2t1LzE`);
    expect(await codeOf(client.deleteProductInput(source.name, key))).toBe("MERCHANT_HTTP");
    // v1 has `gtins` (a list): the fake refuses the old singular name, as Google does.
    expect(await codeOf(client.insertProductInput(source.name, key, { gtin: "123" } as never))).toBe("MERCHANT_HTTP");
    const quotas = await client.quotas();
    expect(quotas.find((q) => q.methodDetails.some((m) => m.method === "productinputs.insert"))?.quotaUsage).toBe(4);
  });

  it("never shows the key or the token when inspected or serialised", async () => {
    const client = await fake.client();
    const shown = `${inspect(client, { depth: 10 })} ${inspect(client.tokens, { depth: 10 })} ${JSON.stringify(client.tokens)}`;
    expect(shown).not.toMatch(/PRIVATE KEY|ya29/);
  });
});
