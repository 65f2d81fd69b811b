/**
 * One truth on every surface: after a run that left a channel unpublished (a
 * tripped gate) or failed as a whole, /healthz keeps answering 200 while
 * feeds are served but says degraded, /monitor answers 503, and the status
 * page header says the same; feeds older than maxFeedAgeHours are stale.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { isPharmafeedError } from "../../src/errors.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { readManifest } from "../../src/publish/manifest.js";
import { startSandbox } from "../../src/sandbox/index.js";
import type { FeedServer } from "../../src/serve/server.js";
import { basic, fetchRaw, makeFixture, SECRETS, serve, type Fixture } from "./helpers.js";

const link = { template: "https://shop.example/p/{{id}}" };
// google-fr keeps the default drop gate (20%); ndjson publishes whatever the drop.
const CHANNELS = [
  { name: "google-fr", preset: "google", locale: "fr", link, gate: { maxRejectedPercent: 100 } },
  { name: "generic-ndjson-fr", preset: "generic-ndjson", locale: "fr", link, gate: { maxRejectedPercent: 100, maxDropPercent: 100 } },
];
const AUTH = { Authorization: basic(SECRETS.STATUS_USER, SECRETS.STATUS_PASSWORD) };

let fx: Fixture;
let server: FeedServer;
const cleanups: (() => Promise<void>)[] = [];

async function health(path: string, on: FeedServer = server): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetchRaw(on.url, path);
  return { status: r.status, body: JSON.parse(r.body.toString("utf8")) as Record<string, unknown> };
}

/** One run against a smaller catalogue: google-fr drops more than 20% and is gated. */
async function smallerRun(): Promise<void> {
  const smaller = await startSandbox({ products: 60, seed: 3, rateLimit: 100_000 });
  try {
    const env = { ...fx.env, CATALOGUE_API_BASE_URL: smaller.url, CATALOGUE_API_KEY_ID: smaller.keyId, CATALOGUE_API_KEY_SECRET: smaller.keySecret };
    await runGenerate({ config: await loadConfig(fx.tree.configFile, { env }), logger: silentLogger });
  } finally {
    await smaller.close();
  }
}

beforeAll(async () => {
  fx = await makeFixture({ products: 150, channels: CHANNELS });
  server = await serve(fx.config);
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  await server?.close(1000);
  await fx?.close();
});

describe("/healthz and /monitor", () => {
  it("say ok (200, 200) after a run that published every channel", async () => {
    const h = await health("/healthz");
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({ status: "ok", run: "ok", feedsServed: 2 });
    const m = await health("/monitor");
    expect(m.status).toBe(200);
    expect(m.body["status"]).toBe("ok");
  });

  it("after a tripped gate: healthz 200 with degraded and the channel, monitor 503, the page and the manifest agree", async () => {
    await smallerRun();
    const manifest = await readManifest(fx.tree.outputDir);
    expect(manifest?.status).toBe("degraded");
    expect(manifest?.unpublished).toEqual([{ channel: "google-fr", kind: "gate", reason: expect.stringMatching(/^gate: items dropped/) as unknown as string }]);

    const h = await health("/healthz");
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({ status: "degraded", run: "degraded", feedsServed: 2 });
    expect(h.body["unpublished"]).toEqual(manifest?.unpublished);
    const m = await health("/monitor");
    expect(m.status).toBe(503);
    expect(m.body["status"]).toBe("degraded");

    const page = (await fetchRaw(server.url, "/", AUTH)).body.toString("utf8");
    expect(page).toContain(`data-state="degraded"`);
    // In words, the gate's own text (with its config key) one click away.
    expect(page).toMatch(/<strong>google-fr<\/strong>: \d+ → \d+ items \(−[\d.]+ %\), a bigger drop than the 20 % allowed<details class="tech"><summary>Technical detail<\/summary><code>gate: items dropped/);
    expect(page).not.toMatch(/<strong class="ok" data-state/);
    // What marketplaces get leads: both previous files are online.
    expect(page.indexOf("What marketplaces get now")).toBeLessThan(page.indexOf('data-state="degraded"'));
    expect(page).toContain('<strong class="ok">2 of 2 feeds online</strong>');
  });

  it("after a run that failed as a whole: recorded as failed, the previous feeds still served, monitor 503", async () => {
    const dead = await startSandbox({ products: 10, seed: 1 });
    const url = dead.url;
    await dead.close();
    const config = await loadConfig(fx.tree.configFile, { env: { ...fx.env, CATALOGUE_API_BASE_URL: url } });
    const failing = { ...config, source: { ...config.source!, retry: { maxRetries: 0, baseMs: 1, maxMs: 1, jitter: "none" as const } } };
    const error = await runGenerate({ config: failing, logger: silentLogger }).catch((e: unknown) => e);
    expect(isPharmafeedError(error, "SOURCE_NETWORK")).toBe(true);

    const manifest = await readManifest(fx.tree.outputDir);
    expect(manifest?.status).toBe("failed");
    expect(manifest?.error?.code).toBe("SOURCE_NETWORK");
    expect(manifest?.unpublished?.map((u) => [u.channel, u.kind])).toEqual([
      ["google-fr", "failed"],
      ["generic-ndjson-fr", "failed"],
    ]);
    expect(manifest?.channels.every((c) => c.live !== null)).toBe(true);

    const h = await health("/healthz");
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({ status: "degraded", run: "failed", feedsServed: 2, error: { code: "SOURCE_NETWORK" } });
    expect((await fetchRaw(server.url, "/feeds/google-fr.xml")).status).toBe(200);
    expect((await health("/monitor")).status).toBe(503);
    const page = (await fetchRaw(server.url, "/", AUTH)).body.toString("utf8");
    expect(page).toContain(`<li><strong>the catalogue could not be reached</strong><details class="tech"><summary>Technical detail</summary><code>SOURCE_NETWORK: `);
  });

  it("say stale when the newest feed is older than maxFeedAgeHours (healthz still 200, monitor 503)", async () => {
    await fx.generate();
    expect((await health("/monitor")).status).toBe(200);
    const later = new Date(Date.now() + 40 * 3600_000);
    const old = await serve(fx.config, { now: () => later, maxFeedAgeHours: 36 });
    cleanups.push(() => old.close(1000));
    const h = await health("/healthz", old);
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({ status: "stale", run: "ok", maxFeedAgeHours: 36 });
    expect(h.body["newestFeedAgeHours"]).toBeGreaterThan(36);
    expect((await health("/monitor", old)).status).toBe(503);
    const page = (await fetchRaw(old.url, "/", AUTH)).body.toString("utf8");
    expect(page).toContain(`data-state="stale"`);
  });
});
