/**
 * Paths that must never answer 200: traversal in every encoding, temporaries,
 * the run's own files, listings, symlinks pointing out (one even listed in the
 * manifest with the right size and sha256), unicode look-alikes, NUL bytes,
 * absolute-form targets, very long paths. And the images the image pipeline
 * writes, served open with long-lived cache headers.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readManifest } from "../../src/publish/manifest.js";
import type { FeedServer } from "../../src/serve/server.js";
import { fetchRaw, makeFixture, rawRequestLine, serveOptions, type Fixture } from "./helpers.js";
import { startServer } from "../../src/serve/server.js";
import { tempDir } from "../e2e/config.js";
import { MANIFEST_FILE } from "../../src/core/layout.js";

let fx: Fixture;
let server: FeedServer;
const IMAGE = `${"ab12".repeat(8)}.jpg`;
const IMAGE_BYTES = Buffer.from("\xff\xd8\xff\xe0 not really a jpeg, but bytes", "latin1");
/** A file outside the output directory with something recognisable in it. */
let secret: string;
const SECRET_TEXT = "TOP-SECRET-OUTSIDE-OUTPUT";

beforeAll(async () => {
  fx = await makeFixture({ products: 60 });
  const out = fx.config.outputDir;
  const outside = await tempDir();
  secret = join(outside, "secret.txt");
  await writeFile(secret, `${SECRET_TEXT}\n`);
  // A run's temporary beside the live file, and a symlink out listed in the manifest as a live feed.
  await writeFile(join(out, ".google-fr.xml.tmp-123"), "<rss>half written");
  await symlink(secret, join(out, "link-out.xml"));
  const manifest = (await readManifest(out))!;
  const text = await readFile(secret);
  const google = manifest.channels.find((c) => c.name === "google-fr")!;
  manifest.channels.push({
    ...google,
    name: "evil",
    file: "link-out.xml",
    live: { ...google.live!, file: "link-out.xml", bytes: text.length, sha256: createHash("sha256").update(text).digest("hex") },
  });
  delete manifest.channels.at(-1)!.live!.gzip;
  await writeFile(join(out, MANIFEST_FILE), JSON.stringify(manifest));
  // Images: one real, one symlink out.
  await mkdir(join(out, "images"), { recursive: true });
  await writeFile(join(out, "images", IMAGE), IMAGE_BYTES);
  await symlink(secret, join(out, "images", `${"cd34".repeat(8)}.jpg`));
  const options = serveOptions(fx.config);
  server = await startServer({ ...options, channels: [...options.channels, { name: "evil", preset: "google", access: { mode: "open" } }] });
});
afterAll(async () => {
  await server?.close(1000);
  await fx?.close();
});

const HOSTILE = [
  "/feeds/../manifest.json",
  "/feeds/%2e%2e/manifest.json",
  "/feeds/%2e%2e%2fmanifest.json",
  "/feeds/..%2fmanifest.json",
  "/feeds/..%5cmanifest.json",
  "/feeds/..%5c..%5cetc%5cpasswd",
  "/feeds/%252e%252e%252fmanifest.json",
  "/feeds/%252e%252e/manifest.json",
  "/feeds/%25%32%65%25%32%65%25%32%66manifest.json",
  "//etc/passwd",
  "/feeds//etc/passwd",
  "/feeds/%2fetc%2fpasswd",
  "/feeds/google-fr.xml%00",
  "/feeds/%00google-fr.xml",
  "/feeds/google-fr.xml%00.gz",
  "/feeds/.google-fr.xml.tmp-123",
  "/feeds/%2egoogle-fr.xml.tmp-123",
  "/manifest.json",
  "/feeds/manifest.json",
  "/feeds/history%2fmanifest.json",
  "/feeds/history/manifest.json",
  "/feeds/",
  "/feeds",
  "/images/",
  "/images",
  "/reports/google-fr.csv",
  "/feeds/reports%2fgoogle-fr.csv",
  "/feeds/serve-state.json",
  "/feeds/.pharmafeed.lock",
  "/feeds/link-out.xml",
  `/images/${"cd34".repeat(8)}.jpg`,
  "/images/..%2fmanifest.json",
  "/images/%2e%2e/manifest.json",
  "/images/..%2f..%2fetc%2fpasswd",
  "/feeds/%EF%BC%8E%EF%BC%8E%EF%BC%8Fmanifest.json",
  "/feeds/google-fr.xml%E2%80%8B",
  "/feeds/%C0%AE%C0%AE%2fmanifest.json",
  "/feeds/%E2%80%AEgoogle-fr.xml",
  "/feeds/google-fr.xml/",
  "/feeds/google-fr.xml/..",
  "/feeds/./google-fr.xml",
  "/feeds/C:%5cWindows%5cwin.ini",
  "/feeds/file:%2f%2f%2fetc%2fpasswd",
  `/feeds/${"a".repeat(5000)}.xml`,
  `/feeds/${"../".repeat(1000)}etc/passwd`,
  `/feeds/${"%2e%2e%2f".repeat(300)}etc%2fpasswd`,
];

describe("hostile paths", () => {
  it("the fixture really has the temporary, the symlinks and a real feed", async () => {
    expect((await fetchRaw(server.url, "/feeds/google-fr.xml")).status).toBe(200);
    expect((await readFile(join(fx.config.outputDir, "link-out.xml"), "utf8")).trim()).toBe(SECRET_TEXT);
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
  });

  it.each(HOSTILE)("%s never answers 200 nor leaks a byte", async (path) => {
    for (const method of ["GET", "HEAD"]) {
      const r = await fetchRaw(server.url, path, {}, method);
      expect(r.status, `${method} ${path}`).not.toBe(200);
      expect([400, 401, 404, 414, 431], `${method} ${path}`).toContain(r.status);
      const body = r.body.toString("utf8");
      expect(body).not.toContain(SECRET_TEXT);
      expect(body).not.toContain('"channels"');
      expect(body).not.toContain("<rss");
    }
  });

  it("targets node:http will not even send: raw NUL, raw backslash, absolute and authority forms", async () => {
    const lines: (string | Buffer)[] = [
      Buffer.from("/feeds/google-fr.xml\0.gz", "latin1"),
      "/feeds/..\\manifest.json",
      "/feeds\\..\\manifest.json",
      "http://127.0.0.1/feeds/../manifest.json",
      "file:///etc/passwd",
      "127.0.0.1:80",
      Buffer.from("/feeds/\xc0\xae\xc0\xae/manifest.json", "latin1"),
    ];
    for (const line of lines) {
      const status = await rawRequestLine(server.url, line);
      expect(status, String(line)).not.toBe(200);
      expect(status, String(line)).toBeGreaterThanOrEqual(400);
    }
  });

  it("a symlink listed as a live feed is not followed, even with the right size and sha256", async () => {
    const r = await fetchRaw(server.url, "/feeds/link-out.xml");
    expect(r.status).toBe(401); // the same answer as a name that does not exist (a Basic channel is configured)
    const health = JSON.parse((await fetchRaw(server.url, "/healthz")).body.toString("utf8")) as { feedsServed: number };
    expect(health.feedsServed).toBe(4);
  });
});

describe("images", () => {
  it("serves a stored image openly, immutable for a year, with validators", async () => {
    const r = await fetchRaw(server.url, `/images/${IMAGE}`);
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("image/jpeg");
    expect(r.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(r.body.equals(IMAGE_BYTES)).toBe(true);
    const again = await fetchRaw(server.url, `/images/${IMAGE}`, { "If-None-Match": r.headers["etag"] as string });
    expect(again.status).toBe(304);
    expect((await fetchRaw(server.url, `/images/${IMAGE}`, { Range: "bytes=0-3" })).body.equals(IMAGE_BYTES.subarray(0, 4))).toBe(true);
  });
  it("a missing image or a name not of the store's form: 404", async () => {
    expect((await fetchRaw(server.url, `/images/${"ef56".repeat(8)}.jpg`)).status).toBe(404);
    expect((await fetchRaw(server.url, "/images/photo.jpg")).status).toBe(404);
    expect((await fetchRaw(server.url, `/images/${"ab12".repeat(8)}.gif`)).status).toBe(404);
  });
});
