/**
 * Alerts from the built CLI as cron runs it: a tripped gate and a failed run
 * reach a local webhook receiver and a local SMTP server; a dead notifier
 * beside them changes nothing of the run's exit code; a run that publishes
 * everything (and a dry run) alerts nobody.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { startReceiver, startSmtp, type HttpReceiver } from "../notify/receivers.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "./cli.js";
import { removeTemporaries, writeConfig, type ChannelFileJson } from "./config.js";

const link = { template: "https://shop.example/p/{{id}}" };
const CHANNELS: ChannelFileJson[] = [
  { name: "google-fr", preset: "google", locale: "fr", link, gate: { maxRejectedPercent: 100 } },
  { name: "idealo-fr", preset: "idealo", locale: "fr", link, gate: { maxRejectedPercent: 100, maxDropPercent: 100 } },
];

let sandbox: SandboxHandle;
let hook: HttpReceiver;
let dead: HttpReceiver;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: 7, products: 200, rateLimit: 100_000 });
  hook = await startReceiver();
  dead = await startReceiver();
  await dead.close();
  smtp = await startSmtp();
});
afterAll(async () => {
  killAll();
  await Promise.all([sandbox?.close(), hook?.close(), smtp?.close()]);
  await removeTemporaries();
});

function config() {
  return writeConfig({
    channels: CHANNELS,
    source: { retry: { maxRetries: 1, baseMs: 1, maxMs: 1 } },
    main: {
      notify: {
        timeoutMs: 2000,
        statusUrl: "https://feeds.shop.example/",
        webhooks: [{ url: dead.url }, { url: hook.url, format: "json" }],
        email: { host: "127.0.0.1", port: smtp.port, from: "feeds@shop.example", to: ["owner@shop.example"] },
      },
    },
  });
}

type Payload = { event: string; exitCode: number; errorCode: string; channels: { name: string; reason: string }[]; next: string };

describe("alerts from generate", () => {
  it("none for a run that publishes every channel, or for a dry run", async () => {
    const c = await config();
    expect((await runCli(["generate", "--config", c.configFile], { env: sandboxEnv(sandbox) })).code).toBe(0);
    expect((await runCli(["generate", "--config", c.configFile, "--dry-run"], { env: sandboxEnv(sandbox) })).code).toBe(0);
    expect(hook.received).toHaveLength(0);
    expect(smtp.mails).toHaveLength(0);
  });

  it("a tripped gate: webhook and e-mail name the channel and what to do; the dead webhook is logged, the exit code stays 5", async () => {
    const c = await config();
    expect((await runCli(["generate", "--config", c.configFile], { env: sandboxEnv(sandbox) })).code).toBe(0);
    const small = await startSandbox({ seed: 7, products: 40, rateLimit: 100_000 });
    const before = hook.received.length;
    try {
      const result = await runCli(["generate", "--config", c.configFile], { env: sandboxEnv(small) });
      expect(result.code, result.stderr).toBe(5);
      expect(result.stderr).toMatch(/alert not sent .*via="webhook json 127\.0\.0\.1:\d+".*ECONNREFUSED/);
    } finally {
      await small.close();
    }
    const payload = hook.received.slice(before)[0]!.body as Payload;
    expect(payload).toMatchObject({ event: "gate-tripped", exitCode: 5, errorCode: "GATE_TRIPPED" });
    expect(payload.channels.map((ch) => ch.name)).toEqual(["google-fr"]);
    expect(payload.channels[0]!.reason).toMatch(/^\d+ → \d+ items \(−[\d.]+ %\), a bigger drop than the 20 % allowed$/);
    expect((payload.channels[0] as { detail?: string }).detail).toMatch(/^gate: items dropped/);
    const mail = smtp.mails.at(-1)!;
    expect(mail.subject).toBe("Pharmacie <Test> & Fils: publish gate tripped: feeds not updated");
    expect(mail.text).toMatch(/- google-fr: \d+ → \d+ items \(−[\d.]+ %\), a bigger drop than the 20 % allowed/);
  });

  it("a run that failed (the catalogue refuses connections): run-failed with the error", async () => {
    const c = await config();
    const gone = await startSandbox({ seed: 1, products: 10 });
    const env = sandboxEnv(gone);
    await gone.close();
    const before = hook.received.length;
    const result = await runCli(["generate", "--config", c.configFile], { env });
    expect(result.code, result.stderr).toBe(4);
    const payload = hook.received.slice(before)[0]!.body as Payload & { what: string };
    expect(payload).toMatchObject({ event: "run-failed", exitCode: 4, errorCode: "SOURCE_NETWORK" });
    expect(payload.what).toContain("ECONNREFUSED");
    expect(payload.channels.map((ch) => ch.name)).toEqual(["google-fr", "idealo-fr"]);
    expect(payload.next).toContain("base URL");
  });
});
