/**
 * The BUILT command line with a Google channel that has a Merchant Center account (the
 * fake, real HTTP): generate reads Google's statuses back after publishing, `merchant
 * sync` does it alone, explain shows Google's verdict beside pharmafeed's own outcome,
 * and a read-back that fails leaves the feeds published and the run degraded (exit 8).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExplainAnswer } from "../../src/explain/explain.js";
import { disapproval } from "../../src/merchant/fake/state.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig, type E2eConfig } from "../e2e/config.js";
import { itemId, parseFeed, readManifestJson, readReport } from "../e2e/feeds.js";
import { startFake, type FakeSetup } from "./helpers.js";

let sandbox: SandboxHandle;
let fake: FakeSetup;
let config: E2eConfig;
let inFeed: string[];
let leftOut: string;

const env = () => sandboxEnv(sandbox);

async function explainJson(id: string): Promise<ExplainAnswer> {
  const result = await runCli(["explain", "--config", config.configFile, "--json", id], { env: env() });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ExplainAnswer;
}

beforeAll(async () => {
  ensureBuilt();
  [sandbox, fake] = await Promise.all([startSandbox({ seed: 11, products: 120, rateLimit: 100_000 }), startFake()]);
  const google = channelsForEveryPreset().find((c) => c.name === "google-fr")!;
  google["merchant"] = { accountId: fake.account.id, credentials: "${PF_TEST_GOOGLE_KEY}", apiUrl: fake.api.url };
  config = await writeConfig({ channels: [google] });
  // The first run: Google has nothing yet.
  const first = await runCli(["generate", "--config", config.configFile, "--workers", "0"], { env: { ...env(), PF_TEST_GOOGLE_KEY: fake.keyFile } });
  if (first.code !== 0) throw new Error(`generate failed (${first.code}): ${first.stderr}`);
  inFeed = parseFeed(await readFile(join(config.outputDir, "google-fr.xml"), "utf8"), "xml").map((r) => itemId(r, "google"));
  leftOut = String((await readReport(config.outputDir, "google-fr"))[0]!["id"]);
  // Google fetched the feed: the first item disapproved, the rest approved.
  fake.account.add(inFeed, { status: (_, i) => (i === 0 ? { disapprovedCountries: ["FR"], issues: [disapproval("invalid_gtin", "gtins", "Invalid GTIN value", ["FR"])] } : { approvedCountries: ["FR"] }) });
}, 120_000);

afterAll(async () => {
  killAll();
  await Promise.all([sandbox?.close(), fake?.close()]);
  await removeTemporaries();
});

describe("Google Merchant Center from the command line", () => {
  it("merchant sync reads every status and explain tells Google's verdict from pharmafeed's own", async () => {
    const sync = await runCli(["merchant", "sync", "--config", config.configFile], { env: { ...env(), PF_TEST_GOOGLE_KEY: fake.keyFile } });
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toContain(`google-fr (Merchant Center ${fake.account.id}): ${inFeed.length} products at Google: ${inFeed.length - 1} approved, 0 pending, 1 disapproved`);

    const disapproved = await explainJson(inFeed[0]!);
    const channel = disapproved.products[0]!.channels[0]!;
    expect(channel.outcome).toBe("in_feed");
    expect(channel.google).toMatchObject({ state: "disapproved", countries: [{ country: "FR", status: "disapproved" }], issues: [{ code: "invalid_gtin", attribute: "gtins" }] });

    const excluded = await explainJson(leftOut);
    expect(excluded.products[0]!.channels[0]).toMatchObject({ outcome: "left_out", google: { state: "unknown" } });

    const text = await runCli(["explain", "--config", config.configFile, inFeed[0]!], { env: env() });
    expect(text.stdout).toMatch(/google-fr: IN THE FEED[\s\S]*Google's verdict \(Merchant Center \d+, read [^)]*\):\n\s+FR DISAPPROVED\n\s+disapproved invalid_gtin \(gtins\) \[FR\]: Invalid GTIN value/);
    const csv = await readFile(join(config.outputDir, "reports", "google-issues.csv"), "utf8");
    expect(csv.split("\n").filter((l) => l !== "").length).toBe(2);
  }, 60_000);

  it("generate reads back after publishing; a failed read-back leaves the feeds published and the run degraded (exit 8)", async () => {
    fake.account.registered = false;
    const run = await runCli(["generate", "--config", config.configFile, "--workers", "0"], { env: { ...env(), PF_TEST_GOOGLE_KEY: fake.keyFile } });
    expect(run.code, run.stderr).toBe(8);
    const manifest = (await readManifestJson(config.outputDir)) as Awaited<ReturnType<typeof readManifestJson>> & { problems?: { kind: string; code: string; channel?: string }[] };
    expect(manifest.status).toBe("degraded");
    expect(manifest.channels[0]!.published).toBe(true);
    expect(manifest.problems?.map((p) => [p.kind, p.code, p.channel])).toEqual([["merchant", "MERCHANT_AUTH", "google-fr"]]);
    // The statuses of the last good read-back stay, marked stale.
    const answer = await explainJson(inFeed[0]!);
    expect(answer.products[0]!.channels[0]!.google).toMatchObject({ state: "disapproved", staleBecause: expect.stringMatching(/registerGcp/) });

    fake.account.registered = true;
    const unset = await runCli(["generate", "--config", config.configFile, "--workers", "0"], { env: env() });
    expect(unset.code, unset.stderr).toBe(8);
    expect(unset.stderr).toMatch(/GOOGLE_APPLICATION_CREDENTIALS/);
  }, 120_000);
});
