/**
 * kill -9 of the BUILT generate at every step of publishing (issue 15, item 2), then a
 * restarted serve: every feed whose file is complete is served, its body matching its
 * ETag (the sha256 of the bytes) and being either the last good run's file or the killed
 * run's, never refused. Then the next generate rolls the journal into manifest.json.
 * PHARMAFEED_CRASH_AT (publish/crash-point.ts) picks the step.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { tempDir } from "../e2e/config.js";
import { basic, fetchRaw, makeFixture, SECRETS, serve, type Fixture } from "../serve/helpers.js";
import { JOURNAL_FILE } from "../../src/core/layout.js";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

let fx: Fixture;
let other: SandboxHandle;
beforeAll(async () => {
  ensureBuilt();
  fx = await makeFixture({ products: 60 });
  // The killed runs read another catalogue: every file they publish differs from the good run's.
  other = await startSandbox({ products: 50, seed: 99, rateLimit: 100_000 });
});

afterAll(async () => {
  killAll();
  await other?.close();
  await fx?.close();
});

/** Each feed fetched as a marketplace would: body, ETag, and the gzip twin where there is one. */
async function fetchEvery(outputDir: string): Promise<Map<string, { status: number; etag: string | undefined; sha: string; gz: boolean }>> {
  const server = await serve(fx.config, { outputDir });
  try {
    const got = new Map<string, { status: number; etag: string | undefined; sha: string; gz: boolean }>();
    const paths: [string, string, Record<string, string>][] = [
      ["google", "/feeds/google-fr.xml", {}],
      ["google.gz", "/feeds/google-fr.xml", { "accept-encoding": "gzip" }],
      ["meta", "/feeds/meta-fr.csv", { authorization: basic(SECRETS.FEED_USER, SECRETS.FEED_PASSWORD) }],
      ["idealo", `/feeds/${SECRETS.FEED_TOKEN}/idealo-fr.csv`, {}],
      ["ndjson", "/feeds/generic-ndjson-fr.ndjson", {}],
    ];
    for (const [key, path, headers] of paths) {
      const reply = await fetchRaw(server.url, path, headers);
      const gz = reply.headers["content-encoding"] === "gzip";
      const body = gz ? gunzipSync(reply.body) : reply.body;
      got.set(key, { status: reply.status, etag: reply.headers.etag as string | undefined, sha: sha256(body), gz });
    }
    return got;
  } finally {
    await server.close();
  }
}

describe("kill -9 while generate publishes", () => {
  it("leaves feeds that a restarted serve serves, each matching its ETag, at every step", async () => {
    const good = await fetchEvery(fx.config.outputDir);
    for (const [key, reply] of good) expect(reply.status, key).toBe(200);
    const files = ["google-fr.xml", "meta-fr.csv", "idealo-fr.csv", "generic-ndjson-fr.ndjson"];
    // Per channel: its exclusion and warnings reports' renames, then its journal entry, then its feed's
    // renames (google: the gzip twin, then the feed). So 13 renames and 4 journal writes, then
    // manifest.json: kill after each.
    const renames = Array.from({ length: 13 }, (_, i) => `rename:${i + 1}`);
    const points = [...[1, 2, 3, 4].map((k) => `journal:${k}`), ...renames, "manifest:1"];
    const killedSha = new Map<string, Set<string>>();
    const gzipped = new Map<string, boolean>();
    for (const point of points) {
      const outputDir = join(await tempDir(), "out");
      await cp(fx.config.outputDir, outputDir, { recursive: true });
      const run = await runCli(["generate", "--config", fx.tree.configFile, "--output", outputDir], { env: { ...sandboxEnv(other), PHARMAFEED_CRASH_AT: point } });
      expect(run.signal, `${point}: ${run.stderr}`).toBe("SIGKILL");
      const onDisk = new Map<string, string>();
      for (const file of files) onDisk.set(file, sha256(await readFile(join(outputDir, file))));
      const served = await fetchEvery(outputDir);
      for (const [key, reply] of served) {
        if (reply.status !== 200) console.log("REFUSED", point, key, reply.status);
        expect.soft(reply.status, `${point} ${key}`).toBe(200);
        // The ETag names the bytes sent (identity: "<sha256>"; gzip: "<sha256 of the identity>-gz").
        expect(reply.etag, `${point} ${key}`).toBe(reply.gz ? `"${reply.sha}-gz"` : `"${reply.sha}"`);
        if (!killedSha.has(key)) killedSha.set(key, new Set());
        if (reply.sha !== good.get(key)!.sha) killedSha.get(key)!.add(reply.sha);
      }
      // What is served is what is on disk: nothing stale held over from elsewhere.
      expect(served.get("meta")!.sha).toBe(onDisk.get("meta-fr.csv"));
      expect(served.get("ndjson")!.sha).toBe(onDisk.get("generic-ndjson-fr.ndjson"));
      if (point === "rename:13" || point === "manifest:1") expect(existsSync(join(outputDir, JOURNAL_FILE))).toBe(true);

      // The next run (in process, the good catalogue) rolls the journal forward first, then publishes normally.
      const config = await loadConfig(fx.tree.configFile, { env: { ...fx.env, FEED_PASSWORD: "", FEED_TOKEN: "", STATUS_PASSWORD: "" } });
      const next = await runGenerate({ config, outputDir, logger: silentLogger });
      expect(next.manifest.channels.every((c) => c.published === true), point).toBe(true);
      expect(existsSync(join(outputDir, JOURNAL_FILE))).toBe(false);
      const after = await fetchEvery(outputDir);
      for (const [key, reply] of after) expect([reply.status, reply.sha, reply.gz], `${point} then a good run: ${key}`).toEqual([200, good.get(key)!.sha, key.endsWith(".gz")]);
      gzipped.set(point, served.get("google.gz")!.gz);
    }
    // Not vacuous: the later kill points did serve the killed run's new files.
    for (const key of ["google", "meta", "idealo", "ndjson"]) expect(killedSha.get(key)!.size, key).toBeGreaterThan(0);
    // The gzip twin is served with its feed, except between its own rename and the feed's (then the feed goes uncompressed).
    expect([...gzipped].filter(([, gz]) => !gz).map(([k]) => k)).toEqual(["rename:3"]);
  });
});
