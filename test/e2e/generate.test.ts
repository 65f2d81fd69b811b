/**
 * End-to-end tests of the BUILT command line: `node dist/cli.js generate`
 * against sandboxes started in this process, with configs of every preset
 * written to temp folders. Every published file is read back with the
 * independent readers; expectations about products come from the raw
 * generated catalogue (oracle.ts), never from the mapping code.
 */
import { existsSync, readdirSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle, type SandboxOptionsInput } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv, startCli, waitFor, type CliResult } from "./cli.js";
import { channelsForEveryPreset, removeTemporaries, tempDir, writeConfig, type E2eConfig } from "./config.js";
import { gunzip, hasValidCheckDigit, itemId, parseFeed, rfc4180Problem, readManifestJson, readReport, sha256, snapshot, type ManifestJson, type Row } from "./feeds.js";
import { catalogueFacts, type CatalogueFacts } from "./oracle.js";

const SEED = 7;
const PRODUCTS = 300;
const STREAM_PATH = "/v4/products/stream";

let sandbox: SandboxHandle;
const sandboxes: SandboxHandle[] = [];

async function sandboxWith(faults: SandboxOptionsInput["faults"] = {}): Promise<SandboxHandle> {
  const handle = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000, faults });
  sandboxes.push(handle);
  return handle;
}

beforeAll(async () => {
  ensureBuilt();
  sandbox = await sandboxWith();
});

afterAll(async () => {
  killAll();
  await Promise.all(sandboxes.map((s) => s.close()));
  await removeTemporaries();
});

function generate(config: E2eConfig, args: string[] = [], source: SandboxHandle = sandbox): Promise<CliResult> {
  return runCli(["generate", "--config", config.configFile, ...args], { env: sandboxEnv(source) });
}

/** Item ids of every published feed, by channel. */
async function feedIds(outputDir: string, manifest: ManifestJson): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const entry of manifest.channels) {
    const rows = parseFeed(await readFile(join(outputDir, entry.file), "utf8"), entry.format);
    out.set(entry.name, rows.map((row) => itemId(row, entry.preset)));
  }
  return out;
}

/** A copy of the clean run's output folder: "after a first good run", without paying for another run. */
async function previousRunCopy(): Promise<string> {
  const { config } = await clean();
  const dir = join(await tempDir(), "out");
  await cp(config.outputDir, dir, { recursive: true });
  return dir;
}

/** The reference run: every preset, clean stream. Shared by the tests that compare with it. */
let cleanRun: Promise<{ config: E2eConfig; result: CliResult; manifest: ManifestJson; ids: Map<string, string[]>; facts: CatalogueFacts }> | undefined;
/**
 * A run that failed as a whole changed no feed or report; it is recorded:
 * manifest.json (and its history copy) say failed, with the code, and keep the live files.
 */
async function expectFailedRunRecorded(out: string, before: Map<string, string>, code: string): Promise<void> {
  const after = await snapshot(out);
  const record = (file: string) => file === "manifest.json" || file.startsWith("history/");
  const files = (m: Map<string, string>) => [...m].filter(([file]) => !record(file));
  expect(files(after)).toEqual(files(before));
  // The history copy before this run's: the last good run.
  const copies = (await readdir(join(out, "history"))).sort();
  const previous = JSON.parse(await readFile(join(out, "history", copies.at(-2)!), "utf8")) as ManifestJson;
  const manifest = await readManifestJson(out);
  expect(manifest.status).toBe("failed");
  expect((manifest as unknown as { error: { code: string } }).error.code).toBe(code);
  for (const entry of manifest.channels) {
    expect(entry.published, entry.name).toMatch(new RegExp(`^failed: the run failed \\(${code}\\)`));
    expect(entry.live, entry.name).toEqual(previous.channels.find((c) => c.name === entry.name)?.live);
  }
}

function clean() {
  cleanRun ??= (async () => {
    const config = await writeConfig();
    const now = new Date();
    const result = await generate(config, ["--log-format", "json"]);
    if (result.code !== 0) throw new Error(`the clean run failed (exit ${result.code}):\n${result.stderr}`);
    const manifest = await readManifestJson(config.outputDir);
    return { config, result, manifest, ids: await feedIds(config.outputDir, manifest), facts: catalogueFacts({ seed: SEED, products: PRODUCTS, now }) };
  })();
  return cleanRun;
}

describe("a full run", () => {
  it("exits 0, publishes one feed per preset and logs JSON lines", async () => {
    const { result, manifest } = await clean();
    expect(result.code).toBe(0);
    expect(manifest.status).toBe("ok");
    expect(manifest.channels.map((c) => c.preset).sort()).toEqual(channelsForEveryPreset().map((c) => c.preset).sort());
    for (const entry of manifest.channels) expect(entry.published, entry.name).toBe(true);
    const lines = result.stderr.split("\n").filter((l) => l !== "");
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ level: expect.any(String), msg: expect.any(String) });
    // With JSON logs the summary is the last log event, naming every channel; no table on stdout.
    expect(result.stdout).toBe("");
    const summary = JSON.parse(lines.at(-1)!) as { msg: string; channels: { name: string }[] };
    expect(summary.msg).toBe("run summary");
    expect(summary.channels.map((c) => c.name)).toEqual(manifest.channels.map((c) => c.name));
  });

  it("publishes exactly what the manifest lists: parseable, `items` items, matching bytes and sha256", async () => {
    const { config, manifest, facts } = await clean();
    expect(manifest.source.received).toBe(facts.streamIds.length);
    expect(manifest.source.rejected).toBe(0);
    for (const entry of manifest.channels) {
      const data = await readFile(join(config.outputDir, entry.file));
      expect(data.length, entry.name).toBe(entry.bytes);
      expect(sha256(data), entry.name).toBe(entry.sha256);
      expect(entry.live).toMatchObject({ file: entry.file, items: entry.items, bytes: entry.bytes, sha256: entry.sha256 });
      const rows = parseFeed(data.toString("utf8"), entry.format);
      expect(rows.length, entry.name).toBe(entry.items);
      expect(entry.items, `${entry.name} should not be empty`).toBeGreaterThan(0);
      if (entry.live?.gzip) {
        const gz = await readFile(join(config.outputDir, entry.live.gzip.file));
        expect(gz.length).toBe(entry.live.gzip.bytes);
        expect(gunzip(gz).equals(data), `${entry.name}.gz decompresses to the feed`).toBe(true);
      }
    }
    expect(manifest.channels.some((c) => c.live?.gzip)).toBe(true);
    // Nothing half-written or temporary is left, and the lock is released.
    const names = await readdir(config.outputDir);
    expect(names.filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("reports/<channel>.csv lists exactly the excluded products, and feed plus report is the stream", async () => {
    const { config, manifest, ids, facts } = await clean();
    for (const entry of manifest.channels) {
      const report = await readReport(config.outputDir, entry.name);
      const excludedTotal = Object.values(entry.excluded).reduce((a, b) => a + b, 0);
      expect(report.length, entry.name).toBe(excludedTotal);
      const byReason: Record<string, number> = {};
      for (const row of report) byReason[row["reason"] as string] = (byReason[row["reason"] as string] ?? 0) + 1;
      expect(byReason, entry.name).toEqual(entry.excluded);
      const reported = report.map((row) => row["id"] as string);
      const published = ids.get(entry.name)!;
      expect(new Set(reported).size, `${entry.name}: a product reported twice`).toBe(reported.length);
      expect(new Set(published).size, `${entry.name}: a duplicate item`).toBe(published.length);
      expect([...reported, ...published].sort(), entry.name).toEqual(facts.streamIds);
    }
  });

  it("keeps every prescription product out of every feed and every medicine out of Meta", async () => {
    const { manifest, ids, facts } = await clean();
    expect(facts.prescription.size).toBeGreaterThan(10);
    for (const entry of manifest.channels) {
      const leaked = ids.get(entry.name)!.filter((id) => facts.prescription.has(id));
      expect(leaked, `prescription products in ${entry.name}`).toEqual([]);
      if (entry.preset.startsWith("meta")) {
        expect(ids.get(entry.name)!.filter((id) => facts.medicine.has(id)), `medicines in ${entry.name}`).toEqual([]);
      }
    }
  });

  it("generic presets hold every streamed product but those ineligible by status, deletion or prescription", async () => {
    const { manifest, ids, facts } = await clean();
    const expected = facts.streamIds.filter((id) => !facts.ineligible.has(id));
    const expectedReasons: Record<string, number> = {};
    for (const reason of facts.ineligible.values()) expectedReasons[reason] = (expectedReasons[reason] ?? 0) + 1;
    const generic = manifest.channels.filter((c) => c.preset.startsWith("generic-"));
    expect(generic.length).toBe(3);
    for (const entry of generic) {
      expect([...ids.get(entry.name)!].sort(), entry.name).toEqual(expected);
      expect(entry.excluded, entry.name).toEqual(expectedReasons);
    }
  });

  it("gives Google items their required fields, the price format and valid GTIN check digits", async () => {
    const { config, manifest } = await clean();
    const google = manifest.channels.filter((c) => ["google", "microsoft", "google-tsv"].includes(c.preset));
    expect(google.length).toBe(3);
    let gtins = 0;
    for (const entry of google) {
      const rows = parseFeed(await readFile(join(config.outputDir, entry.file), "utf8"), entry.format);
      for (const raw of rows) {
        const item = googleFields(raw);
        const where = `${entry.name} ${item["id"]}`;
        for (const field of ["id", "title", "description", "link", "image_link", "availability", "price", "condition"]) {
          expect(item[field] ?? "", `${where}: ${field}`).toMatch(/\S/);
        }
        expect(item["price"], where).toMatch(/^\d+\.\d{2} EUR$/);
        if (item["sale_price"]) expect(item["sale_price"], where).toMatch(/^\d+\.\d{2} EUR$/);
        expect(item["availability"], where).toMatch(/^(in_stock|out_of_stock|preorder|backorder)$/);
        // Answers 6324448, 6324470: preorder and backorder carry availability_date (else the item is left out).
        if (/^(preorder|backorder)$/.test(item["availability"] ?? "")) expect(item["availability_date"], where).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/);
        expect(item["condition"], where).toBe("new");
        expect(item["link"], where).toMatch(/^https:\/\/shop\.example\/.*&utm_medium=feed$/);
        expect(item["image_link"], where).toMatch(/^https?:\/\//);
        if (item["gtin"]) {
          gtins++;
          expect(hasValidCheckDigit(item["gtin"]), `${where}: GTIN ${item["gtin"]}`).toBe(true);
        } else if (item["identifier_exists"] === "no") {
          // Google's rule (answer 6324478): `no` only without a GTIN and without both brand and mpn.
          expect(item["mpn"] ?? "", `${where}: identifier_exists=no beside brand and mpn`).toBe("");
        } else {
          expect(item["mpn"] ?? "", `${where}: no gtin, so brand and mpn identify it`).toMatch(/\S/);
        }
      }
    }
    expect(gtins).toBeGreaterThan(50);
  });

  it("gives Meta items their required fields: availability with a space, a brand, a price", async () => {
    const { config, manifest } = await clean();
    const meta = manifest.channels.filter((c) => c.preset === "meta" || c.preset === "meta-xml");
    expect(meta.length).toBe(2);
    for (const entry of meta) {
      const rows = parseFeed(await readFile(join(config.outputDir, entry.file), "utf8"), entry.format);
      for (const raw of rows) {
        const item = googleFields(raw);
        const where = `${entry.name} ${item["id"]}`;
        for (const field of ["id", "title", "description", "availability", "condition", "price", "link", "image_link", "brand"]) {
          expect(item[field] ?? "", `${where}: ${field}`).toMatch(/\S/);
        }
        expect(item["availability"], where).toMatch(/^(in stock|out of stock|preorder|available for order)$/);
        expect(item["price"], where).toMatch(/^\d+\.\d{2} EUR$/);
      }
    }
  });

  // Google requires brand on every item: the google, google-tsv and microsoft presets
  // leave out products without one (MISSING_BRAND).
  it("gives every Google item a brand", async () => {
    const { config, manifest } = await clean();
    for (const entry of manifest.channels.filter((c) => ["google", "microsoft", "google-tsv"].includes(c.preset))) {
      const rows = parseFeed(await readFile(join(config.outputDir, entry.file), "utf8"), entry.format);
      for (const raw of rows) {
        const item = googleFields(raw);
        expect(item["brand"] ?? "", `${entry.name} ${item["id"]}: brand`).toMatch(/\S/);
      }
    }
  });

  it("writes valid GTIN check digits in every feed that has a gtin field", async () => {
    const { config, manifest } = await clean();
    for (const entry of manifest.channels) {
      const rows = parseFeed(await readFile(join(config.outputDir, entry.file), "utf8"), entry.format);
      for (const row of rows) {
        const codes = [row["g:gtin"], row["gtin"], row["ean"], row["eancode"], ...(typeof row["eans"] === "string" ? row["eans"].split("|") : [])];
        for (const code of codes) {
          if (typeof code === "string" && code !== "") expect(hasValidCheckDigit(code), `${entry.name}: ${code}`).toBe(true);
        }
        // beslist.nl wants a 13-digit EAN on every product.
        if (entry.preset === "beslist") expect(row["eancode"], `${entry.name} ${itemId(row, entry.preset)}`).toMatch(/^\d{13}$/);
      }
    }
  });
});

describe("CSV feeds of a full run", () => {
  // With CRLF records csv-stringify quoted only values holding CRLF, so a description with a
  // bare LF ("- Sans parabènes\n- Testé") was written unquoted: csv-parse copes, but Excel,
  // Python's csv and most importers read the LF as the end of the record.
  it("quote every value that holds a line break (RFC 4180)", async () => {
    const { config, manifest } = await clean();
    for (const entry of manifest.channels.filter((c) => c.format === "csv")) {
      const text = await readFile(join(config.outputDir, entry.file), "utf8");
      expect(rfc4180Problem(text), entry.name).toBeUndefined();
    }
  });
});

/** A Google item (XML with g: names, or TSV) as field -> text. */
function googleFields(row: Row): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === "string") out[key.replace(/^g:/, "")] = value;
  }
  if (out["identifier_exists"] === "yes") delete out["identifier_exists"];
  return out;
}

describe("a run whose stream is cut", () => {
  // Every truncation shape (issue 15, item 1): a body that ends inside a line must never cost a product.
  it.each([
    ["connection dropped between lines", { dropAfterLines: 40, dropTimes: 3 }, []],
    ["chunked body ending cleanly inside a line", { cutAfterLines: 40, cutTimes: 3, cutShape: "mid-line-end" }, []],
    ["close-delimited body ending inside a line, worker threads", { cutAfterLines: 40, cutTimes: 3, cutShape: "close-delimited" }, ["--workers", "2"]],
    ["connection reset inside a line", { cutAfterLines: 40, cutTimes: 2, cutShape: "mid-line-reset" }, []],
    ["clean end before meta.total lines", { cutAfterLines: 40, cutTimes: 2, cutShape: "short-end" }, []],
  ] as const)("%s: resumes and publishes exactly the items of a clean run", async (_shape, faults, args) => {
    const dropping = await sandboxWith(faults);
    const { ids: cleanIds } = await clean();
    const config = await writeConfig();
    const result = await generate(config, [...args], dropping);
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readManifestJson(config.outputDir);
    expect(manifest.source.resumes).toBeGreaterThanOrEqual(1);
    expect(manifest.source.rejected).toBe(0);
    expect(result.stderr).toContain("stream cut, resumed");
    const ids = await feedIds(config.outputDir, manifest);
    expect([...ids.keys()].sort()).toEqual([...cleanIds.keys()].sort());
    for (const [name, list] of ids) expect(list, name).toEqual(cleanIds.get(name));
  });
});

// Both ways of mapping: in the main thread (the catalogue is small), and by worker threads asked for explicitly.
describe.each([
  ["in one thread", []],
  ["with worker threads", ["--workers", "2"]],
])("interrupted runs, %s", (_, extra: string[]) => {
  /**
   * Starts a run into `out` and resolves once it is half-way through the stream, held there:
   * the sandbox stalls its stream after 100 of 244 products until the client goes away, and the
   * run's idle timeout is far beyond the test's, so the run cannot end before the test signals
   * it however slow the machine is. Waits on events only (the stream request, the run's
   * temporaries on disk), never on a time budget.
   */
  async function startMidStream(out: string) {
    const stalled = await sandboxWith({ stallAfterLines: 100, stallMs: 2 ** 31 - 1 });
    const config = await writeConfig({ source: { timeouts: { bodyIdleMs: 2 ** 31 - 1 } } });
    const run = startCli(["generate", "--config", config.configFile, "--output", out, ...extra], { env: sandboxEnv(stalled) });
    const streaming = () => (stalled.stats.byPath.get(STREAM_PATH) ?? 0) > 0;
    const temporaries = () => readdirSync(out).some((file) => file.endsWith(`.tmp-${run.child.pid}`));
    await waitFor(() => run.child.exitCode !== null || (streaming() && temporaries()), "the run's stream request and temporaries");
    expect(run.child.exitCode, `the run ended before it could be interrupted:\n${run.stderr()}`).toBeNull();
    return run;
  }

  it("killed with SIGKILL half-way: previous files byte-identical, only hidden temporaries added; the next run cleans up", async () => {
    const out = await previousRunCopy();
    const before = await snapshot(out);
    const run = await startMidStream(out);
    const pid = run.child.pid!;
    run.child.kill("SIGKILL");
    expect((await run.done).signal).toBe("SIGKILL");

    const after = await snapshot(out);
    for (const [file, hash] of before) expect(after.get(file), `${file} changed`).toBe(hash);
    const added = [...after.keys()].filter((file) => !before.has(file));
    for (const file of added) expect(basename(file), "a new file under a published name").toMatch(new RegExp(`^\\..+\\.tmp-${pid}$|^\\.pharmafeed\\.lock$|^run-failure\\.json$`));
    expect(added.filter((f) => f.endsWith(`.tmp-${pid}`)).length, "the dead run's temporaries").toBeGreaterThan(0);
    expect(added).toContain(".pharmafeed.lock");
    // The run record that lets serve and the next run say this run died (src/runwatch/).
    expect(added).toContain("run-failure.json");

    const { config } = await clean();
    const next = await generate(config, ["--output", out]);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain("took over the stale lock");
    expect(next.stdout).toMatch(/^Last run: died at /);
    const final = await snapshot(out);
    expect(final.has("run-failure.json"), "the died run's record, replaced and then removed by the next run").toBe(false);
    expect([...final.keys()].filter((file) => basename(file).startsWith(".")), "temporaries or lock left behind").toEqual([]);
    const manifest = await readManifestJson(out);
    for (const entry of manifest.channels) expect(entry.published, entry.name).toBe(true);
  });

  it("SIGTERM during a run: a second run is refused meanwhile; exit 130, nothing published, temporaries removed, lock released", async () => {
    const out = await previousRunCopy();
    const before = await snapshot(out);
    const run = await startMidStream(out);
    // A second run meanwhile (cron fired twice) is refused by the live lock.
    const { config } = await clean();
    const second = await generate(config, ["--output", out]);
    expect(second.code, second.stderr).toBe(6);
    expect(second.stderr).toContain(`pid ${run.child.pid}`);
    expect(run.child.exitCode, "the first run ended too early for this test").toBeNull();
    run.child.kill("SIGTERM");
    const result = await run.done;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toContain("INTERRUPTED");
    await expectFailedRunRecorded(out, before, "INTERRUPTED");
  });
});

describe("source errors", () => {
  it("a refused key exits 4 (SOURCE_AUTH) and keeps the previous files", async () => {
    const { config } = await clean();
    const out = await previousRunCopy();
    const before = await snapshot(out);
    const result = await runCli(["generate", "--config", config.configFile, "--output", out], {
      env: { ...sandboxEnv(sandbox), CATALOGUE_API_KEY_SECRET: "not-the-secret" },
    });
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toContain("SOURCE_AUTH");
    expect(result.stderr).not.toContain("not-the-secret");
    await expectFailedRunRecorded(out, before, "SOURCE_AUTH");
  });

  it("a service that keeps failing exits 4 after the configured retries and keeps the previous files", async () => {
    const failing = await sandboxWith({ failFirst: 1_000 });
    const config = await writeConfig({ source: { retry: { maxRetries: 1, baseMs: 1, maxMs: 1 } } });
    const out = await previousRunCopy();
    const before = await snapshot(out);
    const result = await generate(config, ["--output", out], failing);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toMatch(/SOURCE_HTTP.*503/);
    await expectFailedRunRecorded(out, before, "SOURCE_HTTP");
  });
});

describe("a source failure mid-stream", () => {
  it("exits 4 after the stream stalls past the retries, publishes nothing and leaves no temporaries", async () => {
    // The stall lasts until the client gives up (it ends when the connection closes), so the
    // client's 300 ms idle timer fires first however late a loaded machine runs it.
    const stalling = await sandboxWith({ stallAfterLines: 60, stallMs: 2 ** 31 - 1 });
    const config = await writeConfig({ source: { timeouts: { bodyIdleMs: 300 }, retry: { maxRetries: 0, baseMs: 1, maxMs: 1 } } });
    const out = await previousRunCopy();
    const before = await snapshot(out);
    const result = await generate(config, ["--output", out], stalling);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toContain("SOURCE_TIMEOUT");
    await expectFailedRunRecorded(out, before, "SOURCE_TIMEOUT");
  });
});

describe("the publish gate", () => {
  it("keeps the previous files when the item count drops (exit 5); --force publishes", async () => {
    const { manifest: previous, facts } = await clean();
    const out = await previousRunCopy();
    const before = await snapshot(out);
    const tenIds = facts.streamIds.filter((id) => !facts.ineligible.has(id)).slice(0, 10);
    const shrunk = await writeConfig({ filter: { id: tenIds } });

    const gated = await generate(shrunk, ["--output", out]);
    expect(gated.code, gated.stderr).toBe(5);
    expect(gated.stderr).toContain("GATE_TRIPPED");
    // The summary says what the manifest says, and lists nothing under "Published:".
    expect(gated.stdout).toMatch(new RegExp(`^run: failed \\(${previous.channels.length} of ${previous.channels.length} channels not published: `, "m"));
    expect(gated.stdout).not.toContain("Published:");
    const manifest = await readManifestJson(out);
    expect(manifest.status).toBe("failed");
    expect(manifest.source.received).toBe(10);
    for (const entry of manifest.channels) {
      const old = previous.channels.find((c) => c.name === entry.name)!;
      expect(entry.published, entry.name).toMatch(/^gate: items dropped \d+\.\d% \(\d+ -> \d+\)/);
      expect(entry.live, entry.name).toEqual(old.live);
      expect(entry.items).toBeLessThanOrEqual(10);
      for (const file of [entry.file, entry.live?.gzip?.file].filter((f): f is string => f !== undefined)) {
        expect((await snapshot(out)).get(file), `${file} was replaced`).toBe(before.get(file));
      }
    }
    expect(existsSync(join(out, ".pharmafeed.lock"))).toBe(false);

    const forced = await generate(shrunk, ["--output", out, "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    const published = await readManifestJson(out);
    for (const entry of published.channels) {
      expect(entry.published, entry.name).toBe(true);
      expect(entry.live).toMatchObject({ items: entry.items, sha256: entry.sha256 });
      const rows = parseFeed(await readFile(join(out, entry.file), "utf8"), entry.format);
      expect(rows.length, entry.name).toBe(entry.items);
      for (const row of rows) expect(tenIds).toContain(itemId(row, entry.preset));
    }
  });

  it("still trips when manifest.json was lost: it compares with the last run's copy in history/", async () => {
    const { facts } = await clean();
    const out = await previousRunCopy();
    await rm(join(out, "manifest.json"));
    const before = await snapshot(out);
    const shrunk = await writeConfig({ filter: { id: facts.streamIds.filter((id) => !facts.ineligible.has(id)).slice(0, 10) } });

    const gated = await generate(shrunk, ["--output", out, "--log-format", "json"]);
    expect(gated.code, gated.stderr).toBe(5);
    expect(gated.stderr).toMatch(/"msg":"manifest.json is missing or unreadable; the publish gate compares with the last run's copy","from":"history\/manifest-[^"]+\.json"/);
    const after = await snapshot(out);
    const manifest = await readManifestJson(out);
    for (const entry of manifest.channels) {
      expect(entry.published, entry.name).toMatch(/^gate: items dropped/);
      expect(after.get(entry.live!.file), entry.name).toBe(before.get(entry.live!.file));
    }
  });
});

describe("the run lock", () => {
  async function holdLock(dir: string): Promise<string> {
    const file = join(dir, ".pharmafeed.lock");
    // This test process is alive: the lock is not stale.
    await writeFile(file, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString() }));
    return file;
  }

  it("refuses to run while a live process holds the lock: exit 6, a clear message, nothing written", async () => {
    const { config } = await clean();
    const out = await previousRunCopy();
    const lock = await holdLock(out);
    const before = await snapshot(out);
    const result = await generate(config, ["--output", out]);
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toContain("LOCK_HELD");
    expect(result.stderr).toContain(lock);
    expect(result.stderr).toContain(`pid ${process.pid}`);
    expect(await snapshot(out)).toEqual(before);

    const fresh = join(await tempDir(), "out");
    await cp(out, fresh, { recursive: true, filter: (src) => src === out || basename(src) === ".pharmafeed.lock" });
    expect((await generate(config, ["--output", fresh])).code).toBe(6);
    expect([...(await snapshot(fresh)).keys()]).toEqual([".pharmafeed.lock"]);
  });
});

describe("--log-format json", () => {
  // With --log-format json the run's final error is a JSON line too: a log collector must
  // not trip on the one line that matters most.
  it("writes the run's final error as a JSON line too", async () => {
    const { config } = await clean();
    const out = join(await tempDir(), "out");
    await mkdir(out);
    await writeFile(join(out, ".pharmafeed.lock"), JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString() }));
    const result = await generate(config, ["--output", out, "--log-format", "json"]);
    expect(result.code).toBe(6);
    const lines = result.stderr.split("\n").filter((l) => l !== "");
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return { notJson: line };
      }
    });
    expect(parsed.filter((p) => "notJson" in p)).toEqual([]);
    expect(parsed.some((p) => p["level"] === "error" && JSON.stringify(p).includes("LOCK_HELD"))).toBe(true);
  });
});

describe("a broken config", () => {
  it("exits 3 naming each file and JSON path, writes nothing; validate exits 3 too", async () => {
    const [typo, badType, badPreset, ...rest] = channelsForEveryPreset();
    const config = await writeConfig({
      main: { outptu: { dir: "x" } },
      channels: [{ ...typo!, gtn: { required: false } }, { ...badType!, gzip: "yes" }, { ...badPreset!, preset: "googel" }, ...rest],
    });
    const file = (name: string) => join(config.root, "config", "channels", `${name}.json`);
    const expectProblems = (stderr: string) => {
      expect(stderr).toContain("CONFIG_INVALID");
      expect(stderr).toContain(`${config.configFile}: (root): unknown key "outptu"`);
      expect(stderr).toContain(`${file(typo!.name)}: (root): unknown key "gtn"`);
      expect(stderr).toMatch(new RegExp(`${escapeRegExp(file(badType!.name))}: gzip: true or false is needed, got "yes"`));
      expect(stderr).toMatch(new RegExp(`${escapeRegExp(file(badPreset!.name))}: preset: .*got "googel"`));
    };
    const result = await generate(config);
    expect(result.code).toBe(3);
    expectProblems(result.stderr);
    // No notify section: nobody asked for alerts, so no word about one not sent.
    expect(result.stderr).not.toContain("no alert sent");
    expect(existsSync(config.outputDir), "the output folder was created").toBe(false);

    const validate = await runCli(["validate", "--config", config.configFile], { env: sandboxEnv(sandbox) });
    expect(validate.code).toBe(3);
    expectProblems(validate.stderr);
  });

  it("validate exits 0 on a good config and on the repository's sample config, without fetching", async () => {
    const { config } = await clean();
    const requests = sandbox.stats.requests;
    const good = await runCli(["validate", "--config", config.configFile], { env: sandboxEnv(sandbox) });
    expect(good.code, good.stderr).toBe(0);
    for (const channel of channelsForEveryPreset()) expect(good.stdout).toContain(channel.name);
    const sample = await runCli(["validate", "--config", "config/pharmafeed.json"], { env: sandboxEnv(sandbox) });
    expect(sample.code, sample.stderr).toBe(0);
    expect(sandbox.stats.requests).toBe(requests);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("--dry-run and --channel", () => {
  it("--dry-run publishes nothing, writes its files into preview/ and says 'would publish', on a fresh folder and over a previous run", async () => {
    const { config } = await clean();
    const fresh = join(await tempDir(), "out");
    const first = await generate(config, ["--dry-run", "--output", fresh]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("would publish");
    expect(first.stdout).not.toContain("Published:");
    expect(first.stdout).toMatch(/^dry run, nothing published; the real run would be ok/m);
    const written = [...(await snapshot(fresh)).keys()];
    expect(written.filter((f) => !f.startsWith("preview/"))).toEqual([]);
    // The preview holds every feed, its report and the manifest the run would write; each feed parses.
    const preview = await readManifestJson(join(fresh, "preview"));
    expect(preview.channels.map((c) => c.published)).toEqual(preview.channels.map(() => "dry run: would publish"));
    for (const entry of preview.channels) {
      expect(written).toContain(`preview/${entry.file}`);
      expect(written).toContain(`preview/reports/${entry.name}.csv`);
      expect(first.stdout).toContain(join("preview", entry.file));
      const rows = parseFeed(await readFile(join(fresh, "preview", entry.file), "utf8"), entry.format);
      expect(rows.length, entry.name).toBe(entry.items);
    }

    const out = await previousRunCopy();
    const before = await snapshot(out);
    const again = await generate(config, ["--dry-run", "--output", out]);
    expect(again.code, again.stderr).toBe(0);
    const outside = (m: Map<string, string>) => [...m].filter(([f]) => !f.startsWith("preview/"));
    expect(outside(await snapshot(out))).toEqual(outside(before));
  });

  it("--channel runs only that channel and keeps the other channels' manifest entries and files", async () => {
    const { config } = await clean();
    const out = await previousRunCopy();
    const previous = await readManifestJson(out);
    const before = await snapshot(out);
    const result = await generate(config, ["--channel", "idealo-fr", "--output", out]);
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readManifestJson(out);
    expect(manifest.channels.map((c) => c.name).sort()).toEqual(previous.channels.map((c) => c.name).sort());
    for (const entry of manifest.channels) {
      const old = previous.channels.find((c) => c.name === entry.name)!;
      if (entry.name !== "idealo-fr") {
        expect(entry, entry.name).toEqual(old);
        continue;
      }
      expect(entry.published).toBe(true);
      expect(Date.parse(entry.live!.publishedAt)).toBeGreaterThan(Date.parse(old.live!.publishedAt));
      expect(entry.items).toBe(old.items);
    }
    const after = await snapshot(out);
    const changed = [...after.keys()].filter((file) => after.get(file) !== before.get(file));
    for (const file of changed) expect(file).toMatch(/^(idealo-fr\.csv|reports\/idealo-fr(\.warnings)?\.csv|manifest\.json|history\/manifest-.*\.json|state\/[a-z]+\.(sqlite|ndjson|pfs))$/);
    expect(changed).toContain("manifest.json");

    const unknown = await generate(config, ["--channel", "nope", "--output", out]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('no channel named "nope"');
  });
});

describe("a channel whose custom template is broken", () => {
  const header = '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">\n<channel>\n<title>{{title}}</title>\n';
  const footer = "</channel>\n</rss>\n";
  const layout = { format: "xml", header: "header.xml.hbs", item: "item.xml.hbs", footer: "footer.xml.hbs" };

  it("is refused by validate and before any run when the layout is malformed", async () => {
    const [google] = channelsForEveryPreset().filter((c) => c.preset === "google");
    const config = await writeConfig({
      channels: [google!, { ...google!, name: "custom-if", gzip: false, template: "../layouts/custom-if" }],
      files: {
        "layouts/custom-if/layout.json": layout,
        "layouts/custom-if/header.xml.hbs": header,
        // #if takes exactly one argument (the Handlebars runtime would only throw on the first item).
        "layouts/custom-if/item.xml.hbs": "<item><g:id>{{id}}</g:id>{{#if title brand}}<g:brand>{{brand}}</g:brand>{{/if}}</item>\n",
        "layouts/custom-if/footer.xml.hbs": footer,
      },
    });
    const validate = await runCli(["validate", "--config", config.configFile], { env: sandboxEnv(sandbox) });
    expect(validate.code).toBe(3);
    expect(validate.stderr).toMatch(/item\.xml\.hbs: #if takes one argument on line 1/);
    const result = await generate(config);
    expect(result.code).toBe(3);
    await expect(readdir(config.outputDir)).rejects.toThrow(/ENOENT/);
  });

  it("fails alone at run time when its output does not parse: exit 1, the other channels published", async () => {
    const [google, csv] = channelsForEveryPreset().filter((c) => c.preset === "google" || c.preset === "generic-csv");
    const custom = (name: string) => ({ ...google!, name, gzip: false, template: `../layouts/${name}` });
    const config = await writeConfig({
      channels: [google!, csv!, custom("custom-bad-xml")],
      files: {
        "layouts/custom-bad-xml/layout.json": layout,
        "layouts/custom-bad-xml/header.xml.hbs": header,
        // An item element that is never closed: the feed is not well-formed.
        "layouts/custom-bad-xml/item.xml.hbs": "<item><g:id>{{id}}</g:id>\n",
        "layouts/custom-bad-xml/footer.xml.hbs": footer,
      },
    });
    const validate = await runCli(["validate", "--config", config.configFile], { env: sandboxEnv(sandbox) });
    expect(validate.code, "this layout compiles: only the run can find the fault").toBe(0);

    const result = await generate(config);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain("CHANNEL_FAILED");
    const manifest = await readManifestJson(config.outputDir);
    expect(manifest.status).toBe("degraded");
    const byName = new Map(manifest.channels.map((c) => [c.name, c]));
    expect(byName.get("custom-bad-xml")!.published).toMatch(/^failed: the feed does not parse back/);
    for (const name of ["custom-bad-xml"]) {
      expect(byName.get(name)!.live).toBeNull();
      expect(result.stderr).toContain(name);
    }
    for (const entry of [byName.get(google!.name)!, byName.get(csv!.name)!]) {
      expect(entry.published).toBe(true);
      const rows = parseFeed(await readFile(join(config.outputDir, entry.file), "utf8"), entry.format);
      expect(rows.length).toBe(entry.items);
      expect(entry.items).toBeGreaterThan(0);
    }
    expect((await readdir(config.outputDir)).sort()).toEqual(
      ["google-fr.xml", "google-fr.xml.gz", "generic-csv-nl.csv", "history", "manifest.json", "reports", "state"].sort(),
    );
  });
});
