/**
 * Names in the output folder that a channel must not be able to take: the
 * manifest, another channel's .gz twin, the offers file's report. The config refuses
 * the first two; the offers report has a name no channel can take.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { isPharmafeedError } from "../../src/errors.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { removeTemporaries, writeConfig, type ChannelFileJson, type ConfigOptions } from "../e2e/config.js";

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 3, products: 20, rateLimit: 100_000 });
});
afterAll(async () => {
  await sandbox.close();
  await removeTemporaries();
});

const channel = (name: string, extra: Record<string, unknown> = {}): ChannelFileJson => ({
  name,
  preset: "generic-json",
  locale: "fr",
  link: { template: "https://shop.example/p/{{id}}" },
  gate: { maxRejectedPercent: 100 },
  ...extra,
});

/** Loads and runs the config; undefined when the config is refused (CONFIG_INVALID). */
async function run(options: ConfigOptions): Promise<string | undefined> {
  const tree = await writeConfig(options);
  const env = { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
  try {
    const config = await loadConfig(tree.configFile, { env });
    return (await runGenerate({ config, logger: silentLogger })).outputDir;
  } catch (error) {
    if (isPharmafeedError(error, "CONFIG_INVALID")) return undefined;
    throw error;
  }
}

describe("output names", () => {
  // A feed named manifest.json would be replaced by the manifest, which would then describe
  // a file no longer on disk: the config refuses the names the run uses itself.
  it("a channel cannot publish its feed as manifest.json", async () => {
    const outputDir = await run({ channels: [channel("alpha", { file: "manifest.json" })] });
    if (outputDir === undefined) return; // refused by the config: fine
    const manifest = JSON.parse(await readFile(join(outputDir, "manifest.json"), "utf8")) as { channels: { file: string }[] };
    expect(manifest.channels[0]!.file).not.toBe("manifest.json");
  });

  // Two channels writing the same name (here B's feed and A's .gz twin) would write the same
  // temporary file at once: the config refuses every collision, twins included.
  it("a channel cannot take another channel's .gz twin", async () => {
    const outputDir = await run({
      channels: [channel("alpha", { preset: "generic-ndjson", file: "a.ndjson", gzip: true }), channel("beta", { file: "a.ndjson.gz" })],
    });
    if (outputDir === undefined) return;
    const feed = await readFile(join(outputDir, "a.ndjson"));
    expect(gunzipSync(await readFile(join(outputDir, "a.ndjson.gz"))).equals(feed)).toBe(true);
  });

  // A channel named offers must not overwrite the report of refused offers rows
  // (reports/_offers.csv: channel names cannot start with an underscore).
  it("a channel named offers does not overwrite the report of refused offers rows", async () => {
    const outputDir = await run({
      channels: [channel("offers")],
      main: { offers: { file: "offers.csv", minAcceptedPercent: 0 } },
      files: { "offers.csv": "id,price\nM0,abc\n" },
    });
    if (outputDir === undefined) return;
    const reports = await Promise.all((await readdir(join(outputDir, "reports"))).map((f) => readFile(join(outputDir, "reports", f), "utf8")));
    expect(reports.some((text) => text.startsWith("line,reason,detail") && text.includes("OFFER_BAD_PRICE"))).toBe(true);
  });

  it("writes the offers report when no channel takes its name", async () => {
    const outputDir = await run({ channels: [channel("alpha")], main: { offers: { file: "offers.csv", minAcceptedPercent: 0 } }, files: { "offers.csv": "id,price\nM0,abc\n" } });
    const text = await readFile(join(outputDir!, "reports", "_offers.csv"), "utf8");
    expect(text).toMatch(/^line,reason,detail\r?\n2,OFFER_BAD_PRICE,/);
  });
});
