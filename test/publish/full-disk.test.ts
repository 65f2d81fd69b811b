/**
 * A run that cannot start on a full disk still reaches monitoring (issue 22.6): the output
 * directory is a tmpfs filled to the last byte, so even the lock file cannot be created. The run
 * fails (not LOCK_HELD), the served feeds stay byte for byte, and /healthz, /monitor and the
 * status page say the run failed, from the failure record kept outside the full file system
 * (publish/failure-record.ts). Once space is back, a run clears it. Needs root to mount a tmpfs:
 * skipped with a message where mounting is refused.
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, writeSync } from "node:fs";
import { cp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPharmafeedError } from "../../src/errors.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { loadConfig } from "../../src/config/load.js";
import { readFailureRecord } from "../../src/publish/failure-record.js";
import type { FeedServer } from "../../src/serve/server.js";
import { fetchRaw, makeFixture, serve, type Fixture } from "../serve/helpers.js";

const link = { template: "https://shop.example/p/{{id}}" };
const CHANNELS = [
  { name: "google-fr", preset: "google", locale: "fr", link, gate: { maxRejectedPercent: 100 } },
  { name: "generic-ndjson-fr", preset: "generic-ndjson", locale: "fr", link, gate: { maxRejectedPercent: 100 } },
];

function tryMount(dir: string): string | undefined {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir], { stdio: "pipe" });
    return undefined;
  } catch (error) {
    return (error as Error).message.split("\n")[0];
  }
}

const mountDir = mkdtempSync(join(tmpdir(), "pf-full-"));
const refused = tryMount(mountDir);
if (refused) console.warn(`full-disk test skipped: a tmpfs cannot be mounted here (${refused})`);

let fx: Fixture;
let server: FeedServer;
const records = mkdtempSync(join(tmpdir(), "pf-records-"));
const savedTmp = process.env["TMPDIR"];

async function health(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetchRaw(server.url, path);
  return { status: r.status, body: JSON.parse(r.body.toString("utf8")) as Record<string, unknown> };
}

async function feeds(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of await readdir(mountDir)) if (/\.(xml|ndjson)$/.test(name)) out.set(name, await readFile(join(mountDir, name), "utf8"));
  return out;
}

/** Fills the file system to its last byte. */
function fill(): void {
  const fd = openSync(join(mountDir, "filler"), "w");
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(refused !== undefined)("a run on a full disk", () => {
  beforeAll(async () => {
    // The failure record's fallback place ($TMPDIR) on the real disk, apart from other tests.
    process.env["TMPDIR"] = records;
    fx = await makeFixture({ products: 60, channels: CHANNELS });
    await cp(join(fx.tree.root, "out"), mountDir, { recursive: true });
    server = await serve(fx.config, { outputDir: mountDir });
  });
  afterAll(async () => {
    await server?.close(1000);
    await fx?.close();
    try {
      execFileSync("umount", [mountDir]);
    } catch {
      // already gone
    }
    await rm(mountDir, { recursive: true, force: true });
    await rm(records, { recursive: true, force: true });
    if (savedTmp === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = savedTmp;
  });

  it("fails, keeps the served feeds, and /healthz and /monitor say it failed", async () => {
    expect((await health("/healthz")).body).toMatchObject({ status: "ok", run: "ok" });
    const before = await feeds();
    expect(before.size).toBe(2);
    fill();
    const config = await loadConfig(fx.tree.configFile, { env: { ...fx.env, FEED_PASSWORD: "", FEED_TOKEN: "", STATUS_PASSWORD: "" } });
    const failure = await runGenerate({ config, outputDir: mountDir, logger: silentLogger }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeDefined();
    expect(isPharmafeedError(failure, "LOCK_HELD")).toBe(false);
    expect(await feeds()).toEqual(before);
    const record = await readFailureRecord(mountDir);
    expect(record?.unrecorded).toMatch(/ENOSPC|no space/i);
    // Kept outside the full file system.
    expect((await readdir(records)).filter((n) => n.startsWith("pharmafeed-run-failure-"))).toHaveLength(1);

    const h = await health("/healthz");
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({ status: "degraded", run: "failed", feedsServed: 2 });
    expect(String(h.body["summary"])).toContain("not recorded in manifest.json");
    expect((await health("/monitor")).status).toBe(503);

    // Space back: the next run publishes, clears the record, and every surface says ok again.
    await rm(join(mountDir, "filler"));
    await runGenerate({ config, outputDir: mountDir, logger: silentLogger });
    expect(await readFailureRecord(mountDir)).toBeUndefined();
    expect((await health("/healthz")).body).toMatchObject({ status: "ok", run: "ok" });
  });
});
