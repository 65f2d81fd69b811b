/**
 * Commands that refused what the docs promise (issue 34.7), each run from the built CLI: explain and
 * validate without the notify section's variables, `--retire` given twice, the summary's
 * "Published:" list with `--channel`, push and merchant sync with nothing configured, and
 * validate's hint at --no-credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { removeTemporaries, writeConfig, type E2eConfig } from "../e2e/config.js";

const link = { template: "https://shop.example/p/{{id}}" };
const gate = { maxRejectedPercent: 100, maxDropPercent: 100 };

let sandbox: SandboxHandle;
let tree: E2eConfig;

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: 7, products: 40, rateLimit: 100_000 });
  tree = await writeConfig({
    channels: [
      { name: "google-be-fr", preset: "google", locale: "fr", link, gate },
      { name: "beslist-be-nl", preset: "beslist", locale: "nl", link, gate },
    ],
    main: { notify: { webhooks: [{ url: "${SLACK_WEBHOOK_URL}", format: "slack" }] } },
  });
});
afterAll(async () => {
  killAll();
  await sandbox?.close();
  await removeTemporaries();
});

describe("commands do what the docs promise", () => {
  it("validate needs the catalogue's variables only: the notify section is said not checked", async () => {
    const result = await runCli(["validate", "--config", tree.configFile], { env: sandboxEnv(sandbox) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("notify: not checked (environment variable SLACK_WEBHOOK_URL is not set); generate and serve need it");
  });

  it("validate without the catalogue's secrets hints at --no-credentials, with the real config path", async () => {
    const result = await runCli(["validate", "--config", tree.configFile], { env: { CATALOGUE_API_KEY_ID: "", CATALOGUE_API_KEY_SECRET: "" } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`to check everything but the secrets here: pharmafeed validate --config ${tree.configFile} --no-credentials`);
    const without = await runCli(["validate", "--config", tree.configFile, "--no-credentials"], { env: { CATALOGUE_API_KEY_ID: "", CATALOGUE_API_KEY_SECRET: "" } });
    expect(without.code, without.stderr).toBe(0);
  });

  it("validate does not offer --no-credentials for a variable that is no secret (a link's ${SHOP_BASE}): that would be refused too", async () => {
    const shopBase = await writeConfig({ channels: [{ name: "idealo-fr", preset: "idealo", locale: "fr", link: { template: "${SHOP_BASE}/p/{{id}}" } }] });
    const result = await runCli(["validate", "--config", shopBase.configFile], { env: sandboxEnv(sandbox) });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("link.template: environment variable SHOP_BASE is not set");
    expect(result.stderr).not.toContain("--no-credentials");
  });

  it("explain needs no notify variable (it gets as far as the missing index)", async () => {
    const result = await runCli(["explain", "--config", tree.configFile, "123"], { env: {} });
    expect(result.stderr).not.toContain("environment variable");
    expect(result.stderr).toContain("NO_INDEX");
  });

  it("--retire is repeatable; the summary's Published: lists only what this run published", async () => {
    const env = { ...sandboxEnv(sandbox), SLACK_WEBHOOK_URL: "http://127.0.0.1:9/hook" };
    const both = await runCli(["generate", "--config", tree.configFile], { env });
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toMatch(/Published:\n.*google-be-fr\.xml.*\n.*beslist-be-nl/);
    const one = await runCli(["generate", "--config", tree.configFile, "--channel", "beslist-be-nl", "--retire", "old-a", "--retire", "old-b"], { env });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain("beslist-be-nl");
    expect(one.stdout.slice(one.stdout.indexOf("Published:"))).not.toContain("google-be-fr");
  });

  it("push --dry-run and merchant sync with nothing configured: nothing to do, exit 0", async () => {
    const push = await runCli(["push", "--config", tree.configFile, "--dry-run"], { env: {} });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toMatch(/^nothing to push: no channel of .* has destinations/);
    const sync = await runCli(["merchant", "sync", "--config", tree.configFile], { env: {} });
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/^nothing to sync: no channel of .* has a `merchant` section/);
  });
});
