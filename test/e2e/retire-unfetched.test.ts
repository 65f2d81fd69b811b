/**
 * A channel-name typo, fixed (issue 34.2): the typo's feed, published once and never fetched by a
 * marketplace (serve's serve-state.json says so), is retired by the next run and said once; a
 * typo's feed a marketplace did fetch is held, and the alert names the exact command to retire it
 * (the held name, never the real channel's), in the alert's language.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { readManifest } from "../../src/publish/manifest.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { startReceiver, type HttpReceiver } from "../notify/receivers.js";
import { fetchRaw, serve } from "../serve/helpers.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "./cli.js";
import { removeTemporaries, writeConfig } from "./config.js";

const link = { template: "https://shop.example/p/{{id}}" };
const gate = { maxRejectedPercent: 100, maxDropPercent: 100 };
const BESLIST_BOT = "beslist.nl feed fetcher";

let sandbox: SandboxHandle;
let hook: HttpReceiver;

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: 7, products: 50, rateLimit: 100_000 });
  hook = await startReceiver();
});
afterAll(async () => {
  killAll();
  await Promise.all([sandbox?.close(), hook?.close()]);
  await removeTemporaries();
});

/** Publishes `gogle-be-fr` (the typo) and beslist-be-nl once; serve records a fetch of `fetched` (by beslist's fetcher), then stops (saving its state). */
async function typoPublished(fetched: string) {
  const c = await writeConfig({
    channels: [
      { name: "gogle-be-fr", preset: "google", locale: "fr", link, gate },
      { name: "beslist-be-nl", preset: "beslist", locale: "nl", link, gate },
    ],
    main: { notify: { timeoutMs: 5000, language: "fr", webhooks: [{ url: hook.url, format: "json" }] } },
  });
  const env = sandboxEnv(sandbox);
  expect((await runCli(["generate", "--config", c.configFile], { env })).code).toBe(0);
  const server = await serve(await loadConfig(c.configFile, { env }));
  const file = fetched === "gogle-be-fr" ? "gogle-be-fr.xml" : "beslist-be-nl.xml";
  expect((await fetchRaw(server.url, `/feeds/${file}`, { "User-Agent": BESLIST_BOT })).status).toBe(200);
  await server.close();
  expect(JSON.parse(await readFile(join(c.outputDir, "serve-state.json"), "utf8")).fetches[fetched]).toBeDefined();
  // The typo fixed: the channel file now names google-be-fr.
  const channelFile = join(c.root, "config", "channels", "gogle-be-fr.json");
  const channel = JSON.parse(await readFile(channelFile, "utf8")) as Record<string, unknown>;
  await writeFile(channelFile, JSON.stringify({ ...channel, name: "google-be-fr" }));
  return { c, env };
}

describe("a channel-name typo, fixed", () => {
  it("never fetched: the next run retires the typo's feed, says so once, and is ok", async () => {
    const { c, env } = await typoPublished("beslist-be-nl");
    await readFile(join(c.outputDir, "reports", "gogle-be-fr.csv"));
    const run = await runCli(["generate", "--config", c.configFile], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('retired: gogle-be-fr: the config no longer names channel "gogle-be-fr" (now "google-be-fr"?) and no marketplace ever fetched gogle-be-fr.xml: no longer served');
    const manifest = (await readManifest(c.outputDir))!;
    expect(manifest.status).toBe("ok");
    expect(manifest.channels.map((e) => e.name).sort()).toEqual(["beslist-be-nl", "google-be-fr"]);
    // Its reports go with it (34.8).
    await expect(readFile(join(c.outputDir, "reports", "gogle-be-fr.csv"))).rejects.toThrow(/ENOENT/);
    await readFile(join(c.outputDir, "reports", "google-be-fr.csv"));
    const again = await runCli(["generate", "--config", c.configFile], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain("retired:");
  });

  it("fetched by a marketplace: held (exit 8), and the French alert gives the complete command with the held name", async () => {
    const { c, env } = await typoPublished("gogle-be-fr");
    const before = hook.received.length;
    const run = await runCli(["generate", "--config", c.configFile], { env });
    expect(run.code).toBe(8);
    const alert = hook.received.slice(before).map((r) => r.body as { event: string; next: string })[0]!;
    expect(alert.event).toBe("run-degraded");
    expect(alert.next).toContain("Lisez ci-dessus ce qui a échoué");
    expect(alert.next).toContain("gogle-be-fr reste en ligne parce qu'une place de marché l'a récupéré");
    expect(alert.next).toContain("(la configuration nomme maintenant google-be-fr)");
    expect(alert.next).toContain(`\`pharmafeed generate --retire gogle-be-fr --config ${c.configFile}\``);
    expect(alert.next).not.toContain("--retire google-be-fr");
  });
});
