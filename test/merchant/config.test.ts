/** A channel's `merchant` section: strict, Google channels only, the key file unset tolerated (the run goes on). */
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { PharmafeedError } from "../../src/errors.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig } from "../e2e/config.js";

afterAll(removeTemporaries);

const ENV = { CATALOGUE_API_KEY_ID: "demo", CATALOGUE_API_KEY_SECRET: "demo-secret", CATALOGUE_API_BASE_URL: "http://127.0.0.1:1" };

async function load(merchant: Record<string, unknown>, preset = "google", env: Record<string, string> = {}) {
  const channel = channelsForEveryPreset().find((c) => c.preset === preset)!;
  const config = await writeConfig({ channels: [{ ...channel, merchant }] });
  return loadConfig(config.configFile, { env: { ...ENV, ...env }, checkCredentials: false });
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PharmafeedError);
  return (error as PharmafeedError).message;
}

describe("merchant settings", () => {
  it("resolves the key file beside the channel file and takes feed label and language from the channel", async () => {
    const config = await load({ accountId: "123", credentials: "${GOOGLE_APPLICATION_CREDENTIALS}" }, "google", { GOOGLE_APPLICATION_CREDENTIALS: "keys/sa.json" });
    const merchant = config.channels[0]!.merchant!;
    expect(merchant.keyFile).toMatch(/\/config\/channels\/keys\/sa\.json$/);
    expect([merchant.feedLabel, merchant.contentLanguage, merchant.settings.alerts.disapprovalJumpPercent]).toEqual(["FR", "fr", 5]);
  });

  it("loads with the credentials variable unset (the read-back will say so), and refuses typos and non-Google channels", async () => {
    expect((await load({ accountId: "123", credentials: "${GOOGLE_APPLICATION_CREDENTIALS}" })).channels[0]!.merchant!.keyFile).toBe("");
    expect(await refusal(load({ accountId: "123", credentials: "k.json", alert: {} }))).toMatch(/merchant.*alert/);
    expect(await refusal(load({ accountId: "shop-1", credentials: "k.json" }))).toMatch(/merchant\.accountId/);
    expect(await refusal(load({ accountId: "123", credentials: "k.json" }, "idealo"))).toMatch(/merchant: a Merchant Center account belongs to a Google channel/);
    const named = await writeConfig({ channels: [{ ...channelsForEveryPreset().find((c) => c.preset === "idealo")!, name: "google-issues" }] });
    expect(await refusal(loadConfig(named.configFile, { env: ENV, checkCredentials: false }))).toMatch(/name: "google-issues" is taken by reports\/google-issues\.csv/);
  });
});
