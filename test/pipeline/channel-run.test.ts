/**
 * runGenerate / ChannelRun in process, on the edge cases: an empty catalogue
 * (204), a corrupt source record, a channel that fails, the rejection gate on a
 * first run, temporaries of dead runs, channels removed from the config.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reportRun } from "../../src/commands/generate.js";
import { loadConfig } from "../../src/config/load.js";
import { exitCodeFor, isPharmafeedError } from "../../src/errors.js";
import { silentLogger } from "../../src/log.js";
import { readManifest } from "../../src/publish/manifest.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { PRESET_NAMES } from "../../src/presets/index.js";
import { startSandbox, type SandboxHandle, type SandboxOptionsInput } from "../../src/sandbox/index.js";
import { channelsForEveryPreset, removeTemporaries, tempDir, writeConfig, type ChannelFileJson, type ConfigOptions } from "../e2e/config.js";
import { itemId, parseFeed, readReport, sha256 } from "../e2e/feeds.js";
import { catalogueFacts } from "../e2e/oracle.js";

const sandboxes: SandboxHandle[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
  await removeTemporaries();
});

async function sandboxOf(options: SandboxOptionsInput): Promise<SandboxHandle> {
  const sandbox = await startSandbox({ rateLimit: 100_000, ...options });
  sandboxes.push(sandbox);
  return sandbox;
}

async function generate(sandbox: SandboxHandle, options: ConfigOptions & { outputDir?: string } = {}) {
  const tree = await writeConfig(options);
  const env = { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
  const config = await loadConfig(tree.configFile, { env });
  return runGenerate({ config, logger: silentLogger, ...(options.outputDir ? { outputDir: options.outputDir } : {}) });
}

/** What reportRun (the CLI's last step) turns a result into: its error code and exit code, or none. */
function outcome(result: Awaited<ReturnType<typeof generate>>): { code: string; exit: number } | undefined {
  try {
    reportRun(result, () => {});
    return undefined;
  } catch (error) {
    if (!isPharmafeedError(error)) throw error;
    return { code: error.code, exit: exitCodeFor(error) };
  }
}

const lenient = (name: string, preset = "generic-csv"): ChannelFileJson => ({
  name,
  preset,
  locale: "fr",
  link: { template: "https://shop.example/p/{{id}}" },
  gate: { maxRejectedPercent: 100 },
});

/** Renders fine, but its output does not parse back (an item element never closed). */
const brokenLayout = {
  "layouts/broken/layout.json": { format: "xml", header: "header.hbs", item: "item.hbs", footer: "footer.hbs" },
  "layouts/broken/header.hbs": "<feed>\n",
  "layouts/broken/item.hbs": "<item>{{id}}\n",
  "layouts/broken/footer.hbs": "</feed>\n",
};

describe("runGenerate on an empty catalogue", () => {
  it("publishes a valid, empty feed for every preset (the stream answers 204)", async () => {
    const sandbox = await sandboxOf({ products: 0 });
    const result = await generate(sandbox);
    expect(result.manifest.source).toMatchObject({ total: 0, received: 0, rejected: 0 });
    expect(result.manifest.channels.map((c) => c.preset).sort()).toEqual([...PRESET_NAMES].sort());
    for (const entry of result.manifest.channels) {
      expect(entry.published, entry.name).toBe(true);
      expect(entry.items).toBe(0);
      const data = await readFile(join(result.outputDir, entry.file));
      expect(sha256(data)).toBe(entry.sha256);
      expect(parseFeed(data.toString("utf8"), entry.format), entry.name).toEqual([]);
      expect(await readReport(result.outputDir, entry.name)).toEqual([]);
    }
    expect(outcome(result)).toBeUndefined();
  });
});

describe("runGenerate with a corrupt source record", () => {
  it("counts it in the manifest and leaves that product out of every feed and report", async () => {
    const sandbox = await sandboxOf({ seed: 3, products: 30, faults: { corruptLine: 5 } });
    const facts = catalogueFacts({ seed: 3, products: 30, now: new Date() });
    const lost = facts.streamIds[5]!;
    const result = await generate(sandbox);
    expect(result.manifest.source).toMatchObject({ total: facts.streamIds.length, received: facts.streamIds.length - 1, rejected: 1 });
    for (const entry of result.manifest.channels) {
      const ids = parseFeed(await readFile(join(result.outputDir, entry.file), "utf8"), entry.format).map((row) => itemId(row, entry.preset));
      const reported = (await readReport(result.outputDir, entry.name)).map((row) => row["id"] as string);
      expect([...ids, ...reported].sort(), entry.name).toEqual(facts.streamIds.filter((id) => id !== lost));
    }
  });
});

describe("a failing channel", () => {
  it("stops alone, keeps its previous live file and manifest entry, and makes the run exit 1", async () => {
    const sandbox = await sandboxOf({ seed: 5, products: 60 });
    const outputDir = join(await tempDir(), "out");
    const first = await generate(sandbox, { outputDir, channels: [lenient("alpha"), lenient("beta")] });
    expect(first.manifest.channels.map((c) => c.published)).toEqual([true, true]);
    const betaBefore = await readFile(join(outputDir, "beta.csv"));

    const second = await generate(sandbox, {
      outputDir,
      channels: [lenient("alpha"), { ...lenient("beta"), template: "../layouts/broken" }],
      files: brokenLayout,
    });
    const [alpha, beta] = second.manifest.channels;
    expect(second.manifest.status).toBe("degraded");
    expect(alpha!.published).toBe(true);
    expect(beta!.published).toMatch(/^failed: the feed does not parse back/);
    expect(beta!.live).toEqual(first.manifest.channels[1]!.live);
    expect((await readFile(join(outputDir, "beta.csv"))).equals(betaBefore)).toBe(true);
    expect(outcome(second)).toEqual({ code: "CHANNEL_FAILED", exit: 1 });
    const hidden = [...(await readdir(outputDir)), ...(await readdir(join(outputDir, "reports")))].filter((n) => n.startsWith("."));
    expect(hidden).toEqual([]);
  });
});

describe("a channel that cannot write", () => {
  // A write or rename error at publish time (full disk, permissions) fails that channel alone:
  // the others are published and the manifest is written. Made here by a directory where
  // beta's report temporary file goes (EISDIR).
  it("fails alone when its report cannot be written", async () => {
    const sandbox = await sandboxOf({ seed: 5, products: 20 });
    const outputDir = join(await tempDir(), "out");
    await mkdir(join(outputDir, "reports", `.beta.csv.tmp-${process.pid}`), { recursive: true });
    const result = await generate(sandbox, { outputDir, channels: [lenient("alpha"), lenient("beta"), lenient("gamma")] });
    expect(result.manifest.channels.map((c) => [c.name, c.published === true])).toEqual([
      ["alpha", true],
      ["beta", false],
      ["gamma", true],
    ]);
    expect(result.manifest.channels[1]!.published).toMatch(/^failed: /);
  });
});

describe("the rejection gate on a first run", () => {
  it("does not publish a channel with too much bad data, still writes its report, and exits 5", async () => {
    const sandbox = await sandboxOf({ seed: 5, products: 60 });
    const google = { ...channelsForEveryPreset().find((c) => c.preset === "google")!, gzip: false, gate: { maxRejectedPercent: 1 } };
    const result = await generate(sandbox, { channels: [google, lenient("plain")] });
    const [gated, plain] = result.manifest.channels;
    expect(gated!.published).toMatch(/^gate: \d+\.\d% of products rejected for bad data \(\d+\), more than maxRejectedPercent 1%$/);
    expect(gated!.live).toBeNull();
    expect(plain!.published).toBe(true);
    const names = await readdir(result.outputDir);
    expect(names).not.toContain(gated!.file);
    expect((await readReport(result.outputDir, gated!.name)).length).toBe(Object.values(gated!.excluded).reduce((a, b) => a + b, 0));
    expect(outcome(result)).toEqual({ code: "GATE_TRIPPED", exit: 5 });
  });
});

describe("the output folder between runs", () => {
  it("removes hidden temporaries of dead runs and keeps everything else", async () => {
    const sandbox = await sandboxOf({ seed: 5, products: 20 });
    const outputDir = join(await tempDir(), "out");
    await mkdir(join(outputDir, "reports"), { recursive: true });
    const dead = [".alpha.csv.tmp-999999", "reports/.alpha.csv.tmp-999999"];
    for (const file of [...dead, "notes.txt", "reports/.keep"]) await writeFile(join(outputDir, file), "x");
    await generate(sandbox, { outputDir, channels: [lenient("alpha")] });
    for (const file of dead) await expect(readFile(join(outputDir, file)), file).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(outputDir, "notes.txt"), "utf8")).toBe("x");
    expect(await readFile(join(outputDir, "reports/.keep"), "utf8")).toBe("x");
  });

  // The manifest's temporaries are hidden like every other, so a run killed while writing
  // the manifest (or its history copy) leaves nothing the next run does not remove.
  it("also removes the manifest temporaries of a run killed while writing it", async () => {
    const sandbox = await sandboxOf({ seed: 5, products: 20 });
    const outputDir = join(await tempDir(), "out");
    await mkdir(join(outputDir, "history"), { recursive: true });
    await writeFile(join(outputDir, ".manifest.json.tmp-999999"), "{");
    await writeFile(join(outputDir, "history", ".manifest-2026-11-01T02-00-00-000Z.json.tmp-999999"), "{");
    await generate(sandbox, { outputDir, channels: [lenient("alpha")] });
    expect(await readdir(outputDir)).not.toContain(".manifest.json.tmp-999999");
    expect((await readdir(join(outputDir, "history"))).filter((f) => f.includes(".tmp-"))).toEqual([]);
  });

  it("keeps a channel removed from the config (held, a served Problem) until retired, and keeps those only skipped", async () => {
    const sandbox = await sandboxOf({ seed: 5, products: 20 });
    const outputDir = join(await tempDir(), "out");
    await generate(sandbox, { outputDir, channels: [lenient("alpha"), lenient("beta"), lenient("gamma")] });
    const tree = await writeConfig({ channels: [lenient("alpha"), lenient("beta")], source: { retry: { maxRetries: 0, baseMs: 1, maxMs: 1 } } });
    const env = { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
    const config = await loadConfig(tree.configFile, { env, only: ["alpha"] });
    const result = await runGenerate({ config, outputDir, logger: silentLogger });
    expect(result.manifest.channels.map((c) => c.name)).toEqual(["alpha", "beta", "gamma"]);
    expect(result.manifest.status).toBe("degraded");
    expect(result.manifest.problems?.map((p) => [p.kind, p.channel])).toEqual([["served", "gamma"]]);
    // A run that fails as a whole drops nothing either.
    const dead = await loadConfig(tree.configFile, { env: { ...env, CATALOGUE_API_BASE_URL: "http://127.0.0.1:9" }, only: ["alpha"] });
    await expect(runGenerate({ config: dead, outputDir, logger: silentLogger })).rejects.toThrow();
    const failed = (await readManifest(outputDir))!;
    expect([failed.status, failed.channels.map((c) => c.name), failed.problems?.map((p) => p.channel)]).toEqual(["failed", ["alpha", "beta", "gamma"], ["gamma"]]);
    const retired = await runGenerate({ config, outputDir, logger: silentLogger, retire: ["gamma"] });
    expect([retired.manifest.status, retired.manifest.channels.map((c) => c.name)]).toEqual(["ok", ["alpha", "beta"]]);
  });
});

describe("columns empty in every row", () => {
  // Without an offers file no product has a sale price, and `custom.note` is empty unless the channel sets it.
  const files = {
    "layouts/c/layout.json": {
      format: "csv",
      columns: [
        { header: "id", value: "{{id}}" },
        { header: "sale", value: "{{salePrice.text}}" },
        { header: "note", value: "{{custom.note}}" },
      ],
    },
  };
  const csv = (name: string, extra: Partial<ChannelFileJson> = {}): ChannelFileJson => ({ ...lenient(name), template: "../layouts/c", custom: { note: "" }, ...extra });

  it.each([
    ["on the main thread", 0],
    ["on worker threads", 2],
  ])("are a warning in the manifest entry and the summary (%s)", async (_, workers) => {
    const sandbox = await sandboxOf({ seed: 5, products: 60 });
    const tree = await writeConfig({ channels: [csv("unset"), csv("set", { custom: { note: "Livraison 24 h" } })], files });
    const env = { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
    const config = await loadConfig(tree.configFile, { env });
    const result = await runGenerate({ config, logger: silentLogger, workers });
    const [unset, set] = result.manifest.channels;
    expect(unset!.items).toBeGreaterThan(0);
    expect(unset!.emptyColumns).toEqual(["sale", "note"]);
    expect(unset!.published).toBe(true);
    expect(set!.emptyColumns).toEqual(["sale"]);
    let summary = "";
    reportRun(result, (text) => (summary += text));
    expect(summary).toContain("warning: unset: columns empty in every row: sale, note");
    expect(summary).toContain("warning: set: column empty in every row: sale");
  });

  it("cover an XML item template's top-level {{...}} (those inside #if are optional)", async () => {
    const sandbox = await sandboxOf({ seed: 5, products: 60 });
    const files = {
      "layouts/x/layout.json": { format: "xml", header: "h.hbs", item: "i.hbs", footer: "f.hbs" },
      "layouts/x/h.hbs": "<feed>\n",
      "layouts/x/i.hbs": "<item><id>{{id}}</id>\n<sale>{{salePrice.text}}</sale>{{#if salePriceFrom}}<from>{{salePriceFrom}}</from>{{/if}}</item>\n",
      "layouts/x/f.hbs": "</feed>\n",
    };
    const result = await generate(sandbox, { channels: [{ ...lenient("xml"), template: "../layouts/x" }], files });
    const [entry] = result.manifest.channels;
    expect(entry!.items).toBeGreaterThan(0);
    // No offers file, so no sale price: the <sale> element is empty in every item.
    expect(entry!.emptyColumns).toEqual(["{{salePrice.text}} (line 2)"]);
    expect(entry!.published).toBe(true);
  });

  it("trip the gate with gate.emptyColumns \"refuse\": not published, exit 5", async () => {
    const sandbox = await sandboxOf({ seed: 5, products: 60 });
    const result = await generate(sandbox, { channels: [csv("strict", { gate: { maxRejectedPercent: 100, emptyColumns: "refuse" } })], files });
    const [entry] = result.manifest.channels;
    expect(entry!.published).toBe('gate: columns "sale", "note" empty in every row (gate.emptyColumns "refuse")');
    expect(outcome(result)).toEqual({ code: "GATE_TRIPPED", exit: 5 });
  });
});
