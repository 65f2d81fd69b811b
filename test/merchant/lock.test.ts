/**
 * Google never holds the feeds (issue 35, point 7), with the BUILT command line against
 * the fake Merchant API: while a run's read-back waits on a products.list that never
 * answers, the next `generate` publishes (its own read-back is skipped: Google's lock is
 * held), and SIGTERM ends the stuck run (exit 8: the feeds were published) and `merchant
 * sync` (exit 130), each leaving no temporary file. Every wait is on an event (a request
 * the fake received), never on a clock.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeRequest } from "../../src/merchant/fake/server.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv, startCli } from "../e2e/cli.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig, type E2eConfig } from "../e2e/config.js";
import { readManifestJson } from "../e2e/feeds.js";
import { alertText, runAlert } from "../../src/notify/index.js";
import type { Manifest } from "../../src/publish/manifest.js";
import { startFake, type FakeSetup } from "./helpers.js";

let sandbox: SandboxHandle;
let fake: FakeSetup;
let config: E2eConfig;
const env = () => ({ ...sandboxEnv(sandbox), PF_TEST_GOOGLE_KEY: fake.keyFile });

const listAsked = () =>
  new Promise<void>((resolve) => {
    const on = (r: FakeRequest) => {
      if (!r.path.endsWith("/products")) return;
      fake.api.events.off("request", on);
      resolve();
    };
    fake.api.events.on("request", on);
  });

const temporaries = async () => {
  const names = await Promise.all([config.outputDir, join(config.outputDir, "state"), join(config.outputDir, "reports")].map((d) => readdir(d).catch(() => [] as string[])));
  return names.flat().filter((n) => n.includes(".tmp-"));
};

beforeAll(async () => {
  ensureBuilt();
  [sandbox, fake] = await Promise.all([startSandbox({ seed: 12, products: 60, rateLimit: 100_000 }), startFake()]);
  const google = channelsForEveryPreset().find((c) => c.name === "google-fr")!;
  google["merchant"] = { accountId: fake.account.id, credentials: "${PF_TEST_GOOGLE_KEY}", apiUrl: fake.api.url };
  config = await writeConfig({ channels: [google] });
  fake.account.add(["A1"]);
}, 120_000);

afterAll(async () => {
  killAll();
  await Promise.all([sandbox?.close(), fake?.close()]);
  await removeTemporaries();
});

describe("Google's work runs outside the output lock", () => {
  it("the next generate is not refused while Google does not answer; SIGTERM ends the stuck read-back", async () => {
    fake.api.hostile = { kind: "silent-products" };
    const asked = listAsked();
    const stuck = startCli(["generate", "--config", config.configFile, "--workers", "0"], { env: env() });
    await asked;
    const building = `.merchant.sqlite.tmp-${stuck.child.pid}`;
    expect(await temporaries()).toEqual([building]);

    const next = await runCli(["generate", "--config", config.configFile, "--workers", "0"], { env: env() });
    expect(next.code, next.stderr).toBe(0);
    // The next run's clean-up spares a live process's temporary file.
    expect(await temporaries()).toEqual([building]);
    expect(next.stderr).not.toMatch(/LOCK_HELD/);
    expect(next.stderr).toMatch(/another process is talking to Google for this output directory/);

    stuck.child.kill("SIGTERM");
    const ended = await stuck.done;
    expect(ended.code, ended.stderr).toBe(8);
    expect(ended.stderr).toMatch(/interrupted \(SIGTERM or SIGINT\) while talking to Google: the feeds are published/);
    // The later run's manifest stays the later run's.
    const manifest = (await readManifestJson(config.outputDir)) as { status: string };
    expect(manifest.status).toBe("ok");
    expect(await temporaries()).toEqual([]);
  }, 120_000);

  it("merchant sync honours SIGTERM (exit 130) and removes its temporary store", async () => {
    fake.api.hostile = { kind: "silent-products" };
    const asked = listAsked();
    const sync = startCli(["merchant", "sync", "--config", config.configFile], { env: env() });
    await asked;
    sync.child.kill("SIGTERM");
    const ended = await sync.done;
    expect(ended.code, ended.stderr).toBe(130);
    expect(ended.stderr).toMatch(/interrupted: Google's statuses were not read/);
    expect(await temporaries()).toEqual([]);
    fake.api.hostile = undefined;
  }, 120_000);

  it('a wrongly typed reply ({"products": {}}) is one line in stderr, the manifest and the alert', async () => {
    fake.api.hostile = { kind: "products-object" };
    try {
      const run = await runCli(["generate", "--config", config.configFile, "--workers", "0"], { env: env() });
      expect(run.code, run.stderr).toBe(8);
      const said = run.stderr.split("\n").filter((l) => l.includes("the reply does not have the shape"));
      expect(said.length).toBeGreaterThan(0);
      for (const line of said) expect(line).toMatch(/products: a list \(\[\.\.\.\]\) is needed, got \{\}/);
      expect(run.stderr).not.toMatch(/"code": "invalid_type"|^\s*\[$/m);
      const manifest = (await readManifestJson(config.outputDir)) as unknown as Manifest;
      const problem = manifest.problems?.find((p) => p.kind === "merchant");
      expect(problem?.reason).toMatch(/the reply does not have the shape Google's reference gives: products: a list \(\[\.\.\.\]\) is needed, got \{\}/);
      expect(problem?.reason).not.toMatch(/\n/);
      const alert = runAlert({ shop: "Shop", manifest, channels: ["google-fr"], error: { code: "RUN_DEGRADED", message: "" }, exitCode: 8 });
      expect(alertText(alert).split("\n").filter((l) => l.includes("does not have the shape"))).toEqual([`- google-fr: ${problem!.reason}`]);
    } finally {
      fake.api.hostile = undefined;
    }
  }, 120_000);
});
