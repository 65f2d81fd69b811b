/**
 * `pharmafeed preview` on every preset, against the sandbox over real HTTP:
 * the raw output is read back by the format's own parser, the table lists the
 * same items, products named with --id show why they are left out, and the
 * output directory is never touched.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import type { LoadedConfig } from "../../src/config/types.js";
import { renderPreview } from "../../src/preview/preview.js";
import { createCatalogue, startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { PRESET_NAMES } from "../../src/presets/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig, type E2eConfig } from "../e2e/config.js";
import { itemId, parseFeed } from "../e2e/feeds.js";

const SEED = 5;
const PRODUCTS = 120;
let sandbox: SandboxHandle;
let files: E2eConfig;
let config: LoadedConfig;
const all = [...createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()];

beforeAll(async () => {
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  files = await writeConfig();
  config = await loadConfig(files.configFile, { env: { ...process.env, ...sandboxEnv(sandbox) } });
});

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await removeTemporaries();
});

describe("pharmafeed preview", () => {
  it.each(PRESET_NAMES.map((preset) => channelsForEveryPreset().find((c) => c.preset === preset)!))("renders $name in its own format and as a table", async (channel) => {
    const raw = await renderPreview({ config, channel: channel.name, limit: 3, format: "raw" });
    const entry = config.channels.find((c) => c.name === channel.name)!;
    const ids = parseFeed(raw, entry.format).map((row) => itemId(row, channel.preset));
    expect(ids).toHaveLength(3);
    const table = await renderPreview({ config, channel: channel.name, limit: 3, format: "table", width: 200 });
    const lines = table.split("\n");
    expect(lines[0]).toMatch(/^id\s+title\s+price\s+availability\s+gtin\s+brand\s+link$/);
    for (const [i, id] of ids.entries()) expect(lines[2 + i]!.startsWith(id)).toBe(true);
    expect(existsSync(files.outputDir)).toBe(false);
  });

  it("--id shows the named products, and why those left out are left out", async () => {
    const inactive = all.find((p) => p["status"] === "inactive")!["id"] as string;
    const table = await renderPreview({ config, channel: "google-fr", ids: [inactive, "M0FFFFFFF9"], format: "table" });
    expect(table).toContain(`Left out:\n  ${inactive}\n    STATUS_INACTIVE: status inactive: the channel publishes active products only`);
    expect(table).toContain("M0FFFFFFF9\n    NOT_FOUND: not in the catalogue");
  });

  it("runs from the command line", async () => {
    ensureBuilt();
    const result = await runCli(["preview", "--config", files.configFile, "--channel", "idealo-fr", "--limit", "2", "--format", "raw"], { env: sandboxEnv(sandbox) });
    expect(result.code, result.stderr).toBe(0);
    expect(parseFeed(result.stdout, "csv")).toHaveLength(2);
    expect(existsSync(files.outputDir)).toBe(false);
  });

  it("--format raw --id: the feed on stdout, and the products left out with their reasons on stderr (a review found them gone)", async () => {
    ensureBuilt();
    const inactive = all.find((p) => p["status"] === "inactive")!["id"] as string;
    const result = await runCli(["preview", "--config", files.configFile, "--channel", "google-fr", "--format", "raw", "--id", inactive], { env: sandboxEnv(sandbox) });
    expect(result.code, result.stderr).toBe(0);
    expect(parseFeed(result.stdout, "xml")).toHaveLength(0);
    expect(result.stderr.startsWith(`Left out:\n  ${inactive}\n    STATUS_INACTIVE: status inactive: the channel publishes active products only\n`), result.stderr).toBe(true);
  });
});
