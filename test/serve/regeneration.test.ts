/**
 * Serving while generate publishes: every answer is a complete file whose
 * bytes match its ETag, a download begun before the rename completes with the
 * old bytes, and the window between a file's rename and the new manifest
 * serves the old file (what the manifest still describes).
 */
import { readdir, readlink, rm } from "node:fs/promises";
import { join } from "node:path";
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { writeManifest } from "../../src/publish/manifest.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import type { FeedServer } from "../../src/serve/server.js";
import { startServer } from "../../src/serve/server.js";
import { tempDir } from "../e2e/config.js";
import { parseFeed } from "../e2e/feeds.js";
import { fetchRaw, makeFixture, memoryLogger, serve, type Fixture } from "./helpers.js";
import { manifestFor, ndjson, publishAll, publishFile, publishManifest, sha256 } from "./hand-made.js";

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function open(feed: string) {
  return { name: feed, preset: "generic-ndjson", access: { mode: "open" as const } };
}

describe("a reader in a loop while generate runs again and again", () => {
  it("gets only complete files whose bytes match their ETag, and sees them change", async () => {
    const fx: Fixture = await makeFixture({ products: 120 });
    cleanups.push(() => fx.close());
    const other: SandboxHandle = await startSandbox({ products: 90, seed: 99, rateLimit: 100_000 });
    cleanups.push(() => other.close());
    const otherConfig = await loadConfig(fx.tree.configFile, { env: { ...fx.env, CATALOGUE_API_BASE_URL: other.url, CATALOGUE_API_KEY_ID: other.keyId, CATALOGUE_API_KEY_SECRET: other.keySecret } });
    const server: FeedServer = await serve(fx.config);
    cleanups.push(() => server.close(1000));

    let running = true;
    const seen = new Set<string>();
    let answers = 0;
    const reader = (async () => {
      const targets: { path: string; format: string; headers: Record<string, string> }[] = [
        { path: "/feeds/google-fr.xml", format: "xml", headers: {} },
        { path: "/feeds/google-fr.xml", format: "xml", headers: { "Accept-Encoding": "gzip" } },
        { path: "/feeds/generic-ndjson-fr.ndjson", format: "ndjson", headers: {} },
      ];
      while (running) {
        for (const t of targets) {
          const r = await fetchRaw(server.url, t.path, t.headers);
          expect(r.status).toBe(200);
          const etag = String(r.headers["etag"]).replace(/"/g, "");
          const body = r.headers["content-encoding"] === "gzip" ? gunzipSync(r.body) : r.body;
          expect(sha256(body)).toBe(etag.replace(/-gz$/, ""));
          expect(Number(r.headers["content-length"])).toBe(r.body.length);
          expect(parseFeed(body.toString("utf8"), t.format).length).toBeGreaterThan(0);
          seen.add(etag);
          answers++;
        }
      }
    })();
    try {
      for (let run = 0; run < 4; run++) {
        if (run % 2 === 0) await runGenerate({ config: otherConfig, logger: silentLogger });
        else await fx.generate();
      }
    } finally {
      running = false;
      await reader;
    }
    expect(answers).toBeGreaterThan(10);
    // Two catalogues, three representations each: the reader saw the feeds change under it.
    expect(seen.size).toBeGreaterThanOrEqual(4);
  });
});

describe("the rename window and downloads in progress", () => {
  it("a download begun before the rename completes with the old bytes; then the new file is served", async () => {
    const dir = await tempDir();
    // 16 MB: more than loopback's socket buffers, so most of it is read after the rename.
    const old = ndjson(160_000, "old");
    const manifest = await publishAll(dir, [{ name: "big", file: "big.ndjson", content: old }]);
    const server = await startServer({ outputDir: dir, channels: [open("big")], shopName: "t", host: "127.0.0.1", port: 0 });
    cleanups.push(() => server.close(1000));

    const url = new URL(server.url);
    const download = new Promise<{ etag: string; body: Buffer }>((resolve, reject) => {
      request({ host: url.hostname, port: url.port, path: "/feeds/big.ndjson", agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.once("data", (first: Buffer) => {
          chunks.push(first);
          res.pause();
          // The next run publishes while this download waits.
          void (async () => {
            const fresh = ndjson(150_000, "new");
            await publishAll(dir, [{ name: "big", file: "big.ndjson", content: fresh }]);
            const now = await fetchRaw(server.url, "/feeds/big.ndjson", {}, "HEAD");
            expect(now.headers["etag"]).toBe(`"${sha256(fresh)}"`);
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ etag: String(res.headers["etag"]), body: Buffer.concat(chunks) }));
            res.resume();
          })().catch(reject);
        });
        res.on("error", reject);
      })
        .on("error", reject)
        .end();
    });
    const { etag, body } = await download;
    expect(etag).toBe(`"${manifest.channels[0]!.sha256}"`);
    expect(body.length).toBe(old.length);
    expect(body.equals(old)).toBe(true);
  });

  it("between a file's rename and the new manifest, the file the manifest describes is served", async () => {
    const dir = await tempDir();
    const v1 = ndjson(50, "one");
    const m1 = await publishAll(dir, [{ name: "f", file: "f.ndjson", content: v1, gzip: true }]);
    const server = await startServer({ outputDir: dir, channels: [open("f")], shopName: "t", host: "127.0.0.1", port: 0 });
    cleanups.push(() => server.close(1000));

    // Same size, other bytes: a size check alone would not notice.
    const v2 = ndjson(50, "two");
    expect(v2.length).toBe(v1.length);
    await publishFile(dir, "f.ndjson", v2);
    let r = await fetchRaw(server.url, "/feeds/f.ndjson");
    expect(r.headers["etag"]).toBe(`"${m1.channels[0]!.sha256}"`);
    expect(r.body.equals(v1)).toBe(true);

    // A manifest rewritten without this file's new entry (as if another channel was published):
    // the file on disk no longer matches, so the previous one is still served.
    await publishManifest(dir, { ...m1, endedAt: new Date().toISOString() });
    r = await fetchRaw(server.url, "/feeds/f.ndjson");
    expect(r.body.equals(v1)).toBe(true);
    expect(r.headers["etag"]).toBe(`"${m1.channels[0]!.sha256}"`);

    // The manifest that describes v2: v2 from now on.
    await publishManifest(dir, manifestFor([{ name: "f", file: "f.ndjson", content: v2 }], new Date()));
    r = await fetchRaw(server.url, "/feeds/f.ndjson");
    expect(r.headers["etag"]).toBe(`"${sha256(v2)}"`);
    expect(r.body.equals(v2)).toBe(true);
  });
});

describe("a lost manifest.json", () => {
  it("a restarted serve serves what the last run's copy in history/ lists, and healthz says so", async () => {
    const dir = await tempDir();
    const content = ndjson(40, "one");
    await publishFile(dir, "f.ndjson", content);
    await writeManifest(dir, manifestFor([{ name: "f", file: "f.ndjson", content }], new Date(Date.now() - 60_000)));
    await rm(join(dir, "manifest.json"));
    const { logger, lines } = memoryLogger();
    const server = await startServer({ outputDir: dir, channels: [open("f")], shopName: "t", host: "127.0.0.1", port: 0, logger });
    cleanups.push(() => server.close(1000));

    const r = await fetchRaw(server.url, "/feeds/f.ndjson");
    expect(r.status).toBe(200);
    expect(r.body.equals(content)).toBe(true);
    expect(r.headers["etag"]).toBe(`"${sha256(content)}"`);
    let health = JSON.parse((await fetchRaw(server.url, "/healthz")).body.toString("utf8")) as Record<string, unknown>;
    expect(health).toMatchObject({ status: "ok", feedsServed: 1 });
    expect(health["manifestFrom"]).toMatch(/^history\/manifest-[^/]+\.json$/);
    expect(lines().find((l) => l["msg"] === "manifest.json is missing or unreadable; serving what the last run's copy lists")?.["from"]).toBe(health["manifestFrom"]);

    // The next run writes manifest.json again: served from it, and healthz no longer mentions a copy.
    const v2 = ndjson(41, "two");
    await publishFile(dir, "f.ndjson", v2);
    await writeManifest(dir, manifestFor([{ name: "f", file: "f.ndjson", content: v2 }], new Date()));
    expect((await fetchRaw(server.url, "/feeds/f.ndjson")).body.equals(v2)).toBe(true);
    health = JSON.parse((await fetchRaw(server.url, "/healthz")).body.toString("utf8")) as Record<string, unknown>;
    expect(health["manifestFrom"]).toBeUndefined();
  });
});

describe("file handles", () => {
  /** Open descriptors of this process on files of `dir` (replaced ones show as "(deleted)"). */
  async function openIn(dir: string): Promise<number> {
    const fds = await readdir("/proc/self/fd");
    const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => "")));
    return targets.filter((t) => t.startsWith(dir)).length;
  }

  it.skipIf(process.platform !== "linux")("are closed once their file is replaced and its downloads ended", async () => {
    const dir = await tempDir();
    await publishAll(dir, [{ name: "f", file: "f.ndjson", content: ndjson(100, "v0"), gzip: true }]);
    const access = memoryLogger();
    const server = await startServer({ outputDir: dir, channels: [open("f")], shopName: "t", host: "127.0.0.1", port: 0, accessLog: access.logger });
    cleanups.push(() => server.close(1000));
    for (let v = 1; v <= 5; v++) {
      await Promise.all(Array.from({ length: 10 }, () => fetchRaw(server.url, "/feeds/f.ndjson", { "Accept-Encoding": v % 2 ? "gzip" : "identity" })));
      await publishAll(dir, [{ name: "f", file: "f.ndjson", content: ndjson(100 + v, `v${v}`), gzip: true }]);
    }
    // A download cut by its client, then one more version: the cut one's handle goes too.
    await publishAll(dir, [{ name: "f", file: "f.ndjson", content: ndjson(160_000, "big"), gzip: false }]);
    const url = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: "/feeds/f.ndjson", agent: false }, (res) => {
        res.on("error", () => {}); // "aborted": that is the point
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      }).on("error", (e: NodeJS.ErrnoException) => (e.code === "ECONNRESET" || e.message === "socket hang up" ? resolve() : reject(e)));
      req.end();
    });
    // The server has seen the cut once it logs the download as aborted (an event, not a delay).
    while (!access.lines().some((line) => line["aborted"] === true)) await new Promise((r) => setTimeout(r, 10));
    await publishAll(dir, [{ name: "f", file: "f.ndjson", content: ndjson(105, "v5"), gzip: true }]);
    const last = await fetchRaw(server.url, "/feeds/f.ndjson");
    expect(last.body.toString("utf8")).toContain('"v5"');
    // The feed and its twin of the current manifest, nothing of the five replaced versions.
    expect(await openIn(dir)).toBe(2);
    await server.close(1000);
    expect(await openIn(dir)).toBe(0);
  });
});
