/**
 * A feed that was served stays served until someone says otherwise (issue 23, point 1), with the
 * built CLI as cron runs it and `serve` running all along: a channel renamed by a typo keeps its
 * old URL answering 200 with the last good file while the run exits 8, the webhook and /monitor say
 * degraded and the log says "did you mean" and how to retire it; `--retire` drops it on purpose. A
 * channel whose file name changes is not moved (gate, exit 5) until retired the same way.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { readManifest } from "../../src/publish/manifest.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import type { FeedServer } from "../../src/serve/server.js";
import { startReceiver, type HttpReceiver } from "../notify/receivers.js";
import { fetchRaw, serve } from "../serve/helpers.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "./cli.js";
import { removeTemporaries, writeConfig, type E2eConfig } from "./config.js";

const link = { template: "https://shop.example/p/{{id}}" };
const gate = { maxRejectedPercent: 100 };

let sandbox: SandboxHandle;
let hook: HttpReceiver;
let c: E2eConfig;
let server: FeedServer;

type Payload = { event: string; exitCode: number; channels: { name: string; reason: string }[] };

async function generate(...args: string[]) {
  return runCli(["generate", "--config", c.configFile, ...args], { env: sandboxEnv(sandbox) });
}

/** Edits a channel file in place, as a shop manager would. */
async function editChannel(file: string, change: Record<string, unknown>): Promise<void> {
  const path = join(c.root, "config", "channels", file);
  await writeFile(path, JSON.stringify({ ...(JSON.parse(await readFile(path, "utf8")) as object), ...change }));
}

async function monitor(): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetchRaw(server.url, "/monitor");
  return { status: r.status, body: JSON.parse(r.body.toString("utf8")) as Record<string, unknown> };
}

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: 7, products: 120, rateLimit: 100_000 });
  hook = await startReceiver();
  c = await writeConfig({
    channels: [
      { name: "google-fr", preset: "google", locale: "fr", link, gate },
      { name: "idealo-fr", preset: "idealo", locale: "fr", link, gate },
    ],
    main: { notify: { timeoutMs: 2000, webhooks: [{ url: hook.url, format: "json" }] } },
  });
  expect((await generate()).code).toBe(0);
  const config = await loadConfig(c.configFile, { env: sandboxEnv(sandbox) });
  server = await serve(config, {
    reloadConfig: async () => {
      const reloaded = await loadConfig(c.configFile, { env: sandboxEnv(sandbox), serve: true, checkCredentials: false });
      return { channels: reloaded.channels.map((ch) => ({ name: ch.name, preset: ch.preset.name, access: ch.access })), status: reloaded.serve.status };
    },
  });
});
afterAll(async () => {
  killAll();
  await server?.close(1000);
  await Promise.all([sandbox?.close(), hook?.close()]);
  await removeTemporaries();
});

describe("a served feed is never dropped as a side effect", () => {
  it("a typo in a channel's name: the old URL keeps its file, the run exits 8 and every surface says degraded, with did-you-mean and how to retire", async () => {
    const before = await fetchRaw(server.url, "/feeds/google-fr.xml");
    expect(before.status).toBe(200);
    await editChannel("google-fr.json", { name: "gogle-fr" });

    // Fetched again and again while the run goes, and after it: never anything but 200.
    const statuses = new Set<number>();
    let finished = false;
    const running = generate().finally(() => (finished = true));
    while (!finished) statuses.add((await fetchRaw(server.url, "/feeds/google-fr.xml")).status);
    const run = await running;
    statuses.add((await fetchRaw(server.url, "/feeds/google-fr.xml")).status);
    expect([...statuses]).toEqual([200]);
    expect(run.code).toBe(8);
    expect(run.stderr).toContain("RUN_DEGRADED");
    expect(run.stdout).toContain('run: degraded (every channel published, but: google-fr: the config no longer names channel "google-fr"');
    expect(run.stderr).toContain('(renamed to "gogle-fr"? "google-fr" was fetched by a marketplace: register the new URL there first)');
    expect(run.stderr).toContain("pharmafeed generate --retire google-fr");

    // The same bytes as before, at the URL the marketplace registered; the new name is served too.
    const after = await fetchRaw(server.url, "/feeds/google-fr.xml");
    expect(after.status).toBe(200);
    expect(after.headers["etag"]).toBe(before.headers["etag"]);
    expect(after.body.equals(before.body)).toBe(true);
    expect((await fetchRaw(server.url, "/feeds/gogle-fr.xml")).status).toBe(200);

    const manifest = (await readManifest(c.outputDir))!;
    expect(manifest.status).toBe("degraded");
    expect(manifest.problems?.map((p) => [p.kind, p.code, p.channel])).toEqual([["served", "SERVED_NOT_CONFIGURED", "google-fr"]]);
    expect(manifest.channels.map((e) => e.name).sort()).toEqual(["gogle-fr", "google-fr", "idealo-fr"]);

    const m = await monitor();
    expect(m.status).toBe(503);
    expect(m.body["status"]).toBe("degraded");
    expect(m.body["feedsServed"]).toBe(3);
    expect(String(m.body["summary"])).toContain('Degraded: the last run published all 2 feeds; google-fr: the config no longer names channel "google-fr"');
    const health = await fetchRaw(server.url, "/healthz");
    expect(health.status).toBe(200);
    expect((JSON.parse(health.body.toString("utf8")) as { problems: { channel: string }[] }).problems.map((p) => p.channel)).toEqual(["google-fr"]);

    const alert = hook.received.at(-1)!.body as Payload;
    expect(alert.event).toBe("run-degraded");
    expect(alert.exitCode).toBe(8);
    expect(alert.channels.map((x) => x.name)).toEqual(["google-fr"]);

    // A second run changes nothing: held until someone says otherwise.
    expect((await generate()).code).toBe(8);
    expect((await fetchRaw(server.url, "/feeds/google-fr.xml")).status).toBe(200);
  });

  it("--retire drops it on purpose: the old URL stops, the run is ok again", async () => {
    const run = await generate("--retire", "google-fr");
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("served channel retired");
    expect((await fetchRaw(server.url, "/feeds/google-fr.xml")).status).toBe(404);
    expect((await fetchRaw(server.url, "/feeds/gogle-fr.xml")).status).toBe(200);
    const m = await monitor();
    expect([m.status, m.body["status"], m.body["feedsServed"]]).toEqual([200, "ok", 2]);
    expect((await readManifest(c.outputDir))!.problems).toBeUndefined();
  });

  it("a changed file name is not published (gate, exit 5): the old URL keeps answering until --retire moves it", async () => {
    const before = await fetchRaw(server.url, "/feeds/idealo-fr.csv");
    expect(before.status).toBe(200);
    await editChannel("idealo-fr.json", { file: "idealo-new.csv" });

    const run = await generate();
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("the file would move from idealo-fr.csv to idealo-new.csv");
    expect((await fetchRaw(server.url, "/feeds/idealo-fr.csv")).body.equals(before.body)).toBe(true);
    expect((await fetchRaw(server.url, "/feeds/idealo-new.csv")).status).toBe(404);
    expect((await monitor()).status).toBe(503);

    expect((await generate("--retire", "idealo-fr")).code).toBe(0);
    expect((await fetchRaw(server.url, "/feeds/idealo-new.csv")).status).toBe(200);
    expect((await fetchRaw(server.url, "/feeds/idealo-fr.csv")).status).toBe(404);
  });
});
