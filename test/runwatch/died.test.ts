/**
 * The run record (publish/failure-record.ts, runwatch/): a run killed with SIGKILL, or that aborts
 * natively (process.abort(), as a native module's assertion does), and a run that cannot start
 * (a channel path typo) are seen by every surface: /healthz, /monitor and the status page of a
 * `serve` started before, the next run's summary, and a `run-failed` alert read back from a local
 * receiver. The built CLI runs them, as cron does.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import type { FeedServer } from "../../src/serve/server.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { removeTemporaries, writeConfig, type E2eConfig } from "../e2e/config.js";
import { startReceiver, type HttpReceiver } from "../notify/receivers.js";
import { basic, fetchRaw, SECRETS, serve } from "../serve/helpers.js";

const link = { template: "https://shop.example/p/{{id}}" };
const gate = { maxRejectedPercent: 100, maxDropPercent: 100 };

let sandbox: SandboxHandle;
let hook: HttpReceiver;

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: 7, products: 60, rateLimit: 100_000 });
  hook = await startReceiver();
});
afterAll(async () => {
  killAll();
  await Promise.all([sandbox?.close(), hook?.close()]);
  await removeTemporaries();
});

type Health = { status: string; run: string; error?: { code: string; message: string }; summary: string };
type Payload = { event: string; errorCode: string; what: string; next: string; title: string; exitCode?: number };

async function setup(): Promise<{ tree: E2eConfig; env: Record<string, string>; server: FeedServer }> {
  const tree = await writeConfig({
    channels: [{ name: "google-be-fr", preset: "google", locale: "fr", link, gate }],
    main: {
      notify: { timeoutMs: 5000, language: "fr", webhooks: [{ url: hook.url, format: "json" }] },
      serve: { status: { user: "${STATUS_USER}", password: "${STATUS_PASSWORD}" } },
    },
  });
  const env = { ...sandboxEnv(sandbox), ...SECRETS };
  const first = await runCli(["generate", "--config", tree.configFile], { env });
  expect(first.code, first.stderr).toBe(0);
  const config = await loadConfig(tree.configFile, { env, serve: true, checkCredentials: false });
  return { tree, env, server: await serve(config) };
}

async function surfaces(server: FeedServer, lang: string): Promise<{ health: Health; monitor: number; page: string }> {
  const health = JSON.parse((await fetchRaw(server.url, "/healthz")).body.toString()) as Health;
  const monitor = (await fetchRaw(server.url, "/monitor")).status;
  const page = (await fetchRaw(server.url, `/?lang=${lang}`, { Authorization: basic(SECRETS.STATUS_USER, SECRETS.STATUS_PASSWORD) })).body.toString();
  return { health, monitor, page };
}

describe("a run that dies without a word is still seen", () => {
  for (const [how, crash, signal] of [
    ["SIGKILL", "rename:1", "SIGKILL"],
    ["process.abort()", "rename:1:abort", "SIGABRT"],
  ] as const) {
    it(`killed by ${how}: healthz, monitor and the page say it died; the next run says so and alerts`, async () => {
      const { tree, env, server } = await setup();
      try {
        expect((await surfaces(server, "en")).health.status).toBe("ok");
        const killed = await runCli(["generate", "--config", tree.configFile], { env: { ...env, PHARMAFEED_CRASH_AT: crash } });
        expect(killed.signal).toBe(signal);
        const { health, monitor, page } = await surfaces(server, "en");
        expect(health).toMatchObject({ run: "failed", error: { code: "RUN_DIED" } });
        expect(health.summary).toMatch(/the last run died at \S+ without finishing/);
        // The feeds of the last good run stay served: healthz stays 200, the monitor says 503.
        expect(monitor).toBe(503);
        expect(page).toMatch(/the last run died at \d{4}-\d\d-\d\d \d\d:\d\d UTC without finishing/);
        expect((await surfaces(server, "fr")).page).toContain("la dernière exécution s&#39;est arrêtée net à");

        const before = hook.received.length;
        const next = await runCli(["generate", "--config", tree.configFile], { env });
        expect(next.code, next.stderr).toBe(0);
        expect(next.stdout).toMatch(/^Last run: died at \S+ without finishing/);
        const alerts = hook.received.slice(before).map((r) => r.body as Payload);
        // The death, then the all-clear of this run that published everything.
        expect(alerts.map((a) => a.event)).toEqual(["run-failed", "run-recovered"]);
        expect(alerts[0]).toMatchObject({ event: "run-failed", errorCode: "RUN_DIED" });
        expect(alerts[0]!.what).toMatch(/^la dernière exécution s'est arrêtée net à \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
        expect(alerts[0]!.next).toContain("journalctl -k");
        expect(alerts[0]!.next).toContain(`\`pharmafeed generate --config ${tree.configFile}\``);
        expect(alerts[1]!.title).toContain("flux de nouveau publiés");
        expect((await surfaces(server, "en")).health.status).toBe("ok");
        // Said once: the run after that has nothing to say about it.
        const third = await runCli(["generate", "--config", tree.configFile], { env });
        expect(third.stdout).not.toContain("Last run: died");
        expect(hook.received.length).toBe(before + 2);
      } finally {
        await server.close();
      }
    });
  }
});

describe("a run that cannot start is still seen", () => {
  it("a channel path typo: exit 3, a run-failed alert, and every surface says the run failed until it is fixed", async () => {
    const { tree, env, server } = await setup();
    try {
      const channel = join(tree.root, "config", "channels", "google-be-fr.json");
      await rename(channel, `${channel}.typo`);
      const before = hook.received.length;
      const broken = await runCli(["generate", "--config", tree.configFile], { env });
      expect(broken.code).toBe(3);
      const alerts = hook.received.slice(before).map((r) => r.body as Payload);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({ event: "run-failed", errorCode: "CONFIG_INVALID", exitCode: 3 });
      expect(alerts[0]!.what).toMatch(/^la configuration contient une erreur/);
      expect(alerts[0]!.next).toContain(`\`pharmafeed validate --config ${tree.configFile}\``);
      const { health, monitor, page } = await surfaces(server, "nl");
      expect(health).toMatchObject({ status: "degraded", run: "failed", error: { code: "CONFIG_INVALID" } });
      expect(health.error!.message).toContain("google-be-fr.json");
      expect(monitor).toBe(503);
      expect(page).toContain("de configuratie bevat een fout");

      await rename(`${channel}.typo`, channel);
      const fixed = await runCli(["generate", "--config", tree.configFile], { env });
      expect(fixed.code, fixed.stderr).toBe(0);
      expect((await surfaces(server, "en")).health.status).toBe("ok");
      expect(hook.received.slice(before).map((r) => (r.body as Payload).event)).toEqual(["run-failed", "run-recovered"]);
    } finally {
      await server.close();
    }
  });

  it("a main file that is not JSON (a trailing comma): its intact notify section still alerts, and the record is written", async () => {
    const { tree, env, server } = await setup();
    try {
      const text = await readFile(tree.configFile, "utf8");
      // The commonest slip of a hand edit: a comma after the last key (a review found no alert and no word).
      await writeFile(tree.configFile, text.replace(/\n}\s*$/, ",\n}\n"));
      const before = hook.received.length;
      const broken = await runCli(["generate", "--config", tree.configFile], { env });
      expect(broken.code).toBe(3);
      expect(broken.stderr).toMatch(/pharmafeed\.json: not valid JSON at line \d+, column \d+/);
      const alerts = hook.received.slice(before).map((r) => r.body as Payload);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({ event: "run-failed", errorCode: "CONFIG_INVALID", exitCode: 3 });
      const { health } = await surfaces(server, "en");
      expect(health).toMatchObject({ run: "failed", error: { code: "CONFIG_INVALID" } });
      expect(health.error!.message).toContain("not valid JSON");
    } finally {
      await server.close();
    }
  });

  it("a notify section that cannot be read: the record is still written, the log says why no alert went", async () => {
    const tree = await writeConfig({
      channels: [{ name: "google-be-fr", preset: "gogle", locale: "fr", link, gate }],
      main: { notify: { webhooks: [{ url: "${NOT_SET_WEBHOOK}" }] }, serve: { status: { user: "${STATUS_USER}", password: "${STATUS_PASSWORD}" } } },
    });
    const before = hook.received.length;
    const result = await runCli(["generate", "--config", tree.configFile], { env: { ...sandboxEnv(sandbox), ...SECRETS } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("no alert sent: the notify section of the config cannot be read");
    expect(hook.received.length).toBe(before);
    const { readFailureRecord } = await import("../../src/publish/failure-record.js");
    expect((await readFailureRecord(tree.outputDir))?.error.code).toBe("CONFIG_INVALID");
  });
});
