/**
 * serve follows the manifest: a channel added to the config and published by
 * a run is served without a restart (its access rule read from the config
 * then); a renamed or removed one keeps being served under its old name (with
 * the access rule serve knew) until a run retires it, then it stops; each
 * change is a log line.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate } from "../../src/pipeline/run.js";
import type { FeedServer } from "../../src/serve/server.js";
import { basic, fetchRaw, makeFixture, memoryLogger, SECRETS, serve, type Fixture } from "./helpers.js";

const link = { template: "https://shop.example/p/{{id}}" };
const gate = { maxRejectedPercent: 100, maxDropPercent: 100 };
const CHANNELS = [
  { name: "google-fr", preset: "google", locale: "fr", link, gate },
  { name: "generic-ndjson-fr", preset: "generic-ndjson", locale: "fr", link, gate },
];

let fx: Fixture;
let server: FeedServer;
let log: ReturnType<typeof memoryLogger>;

/** Writes the channel files and the main file's list, then runs generate with that config. */
async function runWith(channels: Record<string, unknown>[], retire: string[] = []): Promise<void> {
  const dir = join(fx.tree.root, "config");
  for (const c of channels) await writeFile(join(dir, "channels", `${String(c["name"])}.json`), JSON.stringify(c));
  const main = JSON.parse(await readFile(fx.tree.configFile, "utf8")) as Record<string, unknown>;
  await writeFile(fx.tree.configFile, JSON.stringify({ ...main, channels: channels.map((c) => `channels/${String(c["name"])}.json`) }));
  await runGenerate({ config: await loadConfig(fx.tree.configFile, { env: fx.env }), logger: silentLogger, retire });
}

function changes(): unknown[] {
  return log
    .lines()
    .filter((l) => String(l["msg"]).startsWith("channel "))
    .map((l) => [l["msg"], l["channel"]]);
}

beforeAll(async () => {
  fx = await makeFixture({ products: 80, channels: CHANNELS });
  log = memoryLogger();
  server = await serve(fx.config, {
    logger: log.logger,
    reloadConfig: async () => {
      const config = await loadConfig(fx.tree.configFile, { env: fx.env, serve: true, checkCredentials: false });
      return { channels: config.channels.map((c) => ({ name: c.name, preset: c.preset.name, access: c.access })), status: config.serve.status };
    },
  });
});
afterAll(async () => {
  await server?.close(1000);
  await fx?.close();
});

describe("serve follows the manifest", () => {
  it("serves a channel added under it, with its access rule from the config, and says so", async () => {
    expect((await fetchRaw(server.url, "/feeds/meta-fr.csv")).status).toBe(404);
    const meta = { name: "meta-fr", preset: "meta", locale: "fr", link, gate, access: { mode: "basic", user: "${FEED_USER}", password: "${FEED_PASSWORD}" } };
    await runWith([...CHANNELS, meta]);
    // Basic now that a channel uses it: without credentials 401, with them the feed.
    expect((await fetchRaw(server.url, "/feeds/meta-fr.csv")).status).toBe(401);
    const r = await fetchRaw(server.url, "/feeds/meta-fr.csv", { Authorization: basic(SECRETS.FEED_USER, SECRETS.FEED_PASSWORD) });
    expect(r.status).toBe(200);
    expect(r.body.toString("utf8").split("\n")[0]).toContain("id");
    expect(changes()).toEqual([["channel now served", "meta-fr"]]);
  });

  it("serves a renamed channel under its new name and keeps the old and the removed ones, access rules included, until retired", async () => {
    const before = changes().length;
    const renamed = { ...CHANNELS[1]!, name: "ndjson-fr" };
    await runWith([CHANNELS[0]!, renamed]);
    expect((await fetchRaw(server.url, "/feeds/ndjson-fr.ndjson")).status).toBe(200);
    expect((await fetchRaw(server.url, "/feeds/generic-ndjson-fr.ndjson")).status).toBe(200);
    // meta-fr is no longer in the config: served with the rule serve knew, not opened to anyone.
    expect((await fetchRaw(server.url, "/feeds/meta-fr.csv")).status).toBe(401);
    expect((await fetchRaw(server.url, "/feeds/meta-fr.csv", { Authorization: basic(SECRETS.FEED_USER, SECRETS.FEED_PASSWORD) })).status).toBe(200);
    expect(changes().slice(before)).toEqual([["channel now served", "ndjson-fr"]]);
    // The status page lists them with what marketplaces get, marked as held; the run is not "published all".
    const page = (await fetchRaw(server.url, "/", { Authorization: basic(SECRETS.STATUS_USER, SECRETS.STATUS_PASSWORD) })).body.toString("utf8");
    expect(page).toMatch(/<strong class="ok">4 of 4 feeds online<\/strong>/);
    expect(page.match(/no longer in the config: kept online until someone retires it/g)).toHaveLength(2);
    expect(page).toContain('data-state="degraded"');
    expect(page).toContain("2 of 2 feeds published");

    await runWith([CHANNELS[0]!, renamed], ["generic-ndjson-fr", "meta-fr"]);
    expect((await fetchRaw(server.url, "/feeds/generic-ndjson-fr.ndjson")).status).toBe(404);
    expect((await fetchRaw(server.url, "/feeds/meta-fr.csv", { Authorization: basic(SECRETS.FEED_USER, SECRETS.FEED_PASSWORD) })).status).toBe(404);
    expect((await fetchRaw(server.url, "/feeds/google-fr.xml")).status).toBe(200);
    expect(changes().slice(before)).toEqual([
      ["channel now served", "ndjson-fr"],
      ["channel no longer served", "generic-ndjson-fr"],
      ["channel no longer served", "meta-fr"],
    ]);
  });
});
