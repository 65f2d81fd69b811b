/**
 * The feeds as a marketplace fetches them, over real HTTP against the output
 * of a real generate run: content types, ETag and Last-Modified from the
 * manifest, 304 both ways, HEAD, ranges with If-Range, gzip negotiation.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readManifest, type ChannelEntry } from "../../src/publish/manifest.js";
import type { FeedServer } from "../../src/serve/server.js";
import { fetchRaw, makeFixture, serve, type Fixture } from "./helpers.js";

let fx: Fixture;
let server: FeedServer;
let google: ChannelEntry;
let ndjson: ChannelEntry;
let googleBytes: Buffer;

beforeAll(async () => {
  fx = await makeFixture();
  server = await serve(fx.config);
  const manifest = (await readManifest(fx.config.outputDir))!;
  google = manifest.channels.find((c) => c.name === "google-fr")!;
  ndjson = manifest.channels.find((c) => c.name === "generic-ndjson-fr")!;
  googleBytes = await readFile(join(fx.config.outputDir, google.live!.file));
});
afterAll(async () => {
  await server?.close(1000);
  await fx?.close();
});

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describe("GET and HEAD", () => {
  it("sends the live file with its type, length, strong ETag and Last-Modified from the manifest", async () => {
    const r = await fetchRaw(server.url, `/feeds/${google.live!.file}`);
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(r.headers["etag"]).toBe(`"${google.live!.sha256}"`);
    expect(r.headers["last-modified"]).toBe(new Date(google.live!.publishedAt).toUTCString());
    expect(Number(r.headers["content-length"])).toBe(google.live!.bytes);
    expect(r.headers["accept-ranges"]).toBe("bytes");
    expect(r.headers["vary"]).toBe("Accept-Encoding");
    expect(r.headers["content-encoding"]).toBeUndefined();
    expect(sha(r.body)).toBe(google.live!.sha256);
    expect(r.body.toString("utf8")).toContain("<rss");
  });

  it("answers every format with its charset", async () => {
    const n = await fetchRaw(server.url, `/feeds/${ndjson.live!.file}`);
    expect(n.headers["content-type"]).toBe("application/x-ndjson; charset=utf-8");
    expect(n.headers["vary"]).toBeUndefined();
    for (const line of n.body.toString("utf8").trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("HEAD has the GET's headers and no body", async () => {
    const get = await fetchRaw(server.url, `/feeds/${google.live!.file}`);
    const head = await fetchRaw(server.url, `/feeds/${google.live!.file}`, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const h of ["content-type", "content-length", "etag", "last-modified", "accept-ranges"]) expect(head.headers[h], h).toBe(get.headers[h]);
  });

  it("refuses other methods with 405 and Allow", async () => {
    const r = await fetchRaw(server.url, `/feeds/${google.live!.file}`, {}, "POST");
    expect(r.status).toBe(405);
    expect(r.headers["allow"]).toBe("GET, HEAD");
  });
});

describe("conditional requests", () => {
  it("If-None-Match with the current ETag: 304 without body; another tag: 200", async () => {
    const etag = `"${google.live!.sha256}"`;
    const same = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { "If-None-Match": etag });
    expect(same.status).toBe(304);
    expect(same.body.length).toBe(0);
    expect(same.headers["etag"]).toBe(etag);
    expect((await fetchRaw(server.url, `/feeds/${google.live!.file}`, { "If-None-Match": `"other", W/${etag}` })).status).toBe(304);
    expect((await fetchRaw(server.url, `/feeds/${google.live!.file}`, { "If-None-Match": '"0000"' })).status).toBe(200);
  });

  it("If-Modified-Since at or after the publish time: 304; before: 200", async () => {
    const published = new Date(google.live!.publishedAt);
    const at = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { "If-Modified-Since": published.toUTCString() });
    expect(at.status).toBe(304);
    const before = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { "If-Modified-Since": new Date(published.getTime() - 60_000).toUTCString() });
    expect(before.status).toBe(200);
  });

  it("If-None-Match wins over If-Modified-Since (RFC 9110)", async () => {
    const published = new Date(google.live!.publishedAt).toUTCString();
    const stale = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { "If-None-Match": '"stale"', "If-Modified-Since": published });
    expect(stale.status).toBe(200);
    const old = new Date(0).toUTCString();
    const fresh = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { "If-None-Match": `"${google.live!.sha256}"`, "If-Modified-Since": old });
    expect(fresh.status).toBe(304);
  });
});

describe("ranges", () => {
  it("one range: 206 with Content-Range and exactly those bytes", async () => {
    const r = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { Range: "bytes=100-199" });
    expect(r.status).toBe(206);
    expect(r.headers["content-range"]).toBe(`bytes 100-199/${google.live!.bytes}`);
    expect(r.body.equals(googleBytes.subarray(100, 200))).toBe(true);
    const suffix = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { Range: "bytes=-50" });
    expect(suffix.body.equals(googleBytes.subarray(googleBytes.length - 50))).toBe(true);
    const open = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { Range: `bytes=${googleBytes.length - 10}-` });
    expect(open.body.equals(googleBytes.subarray(googleBytes.length - 10))).toBe(true);
  });

  it("a range past the end: 416 with bytes */size", async () => {
    const r = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { Range: `bytes=${google.live!.bytes}-` });
    expect(r.status).toBe(416);
    expect(r.headers["content-range"]).toBe(`bytes */${google.live!.bytes}`);
  });

  it("If-Range: the current ETag or date gives the range, an old one the whole file", async () => {
    const etag = `"${google.live!.sha256}"`;
    expect((await fetchRaw(server.url, `/feeds/${google.live!.file}`, { Range: "bytes=0-9", "If-Range": etag })).status).toBe(206);
    const date = new Date(google.live!.publishedAt).toUTCString();
    expect((await fetchRaw(server.url, `/feeds/${google.live!.file}`, { Range: "bytes=0-9", "If-Range": date })).status).toBe(206);
    const old = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { Range: "bytes=0-9", "If-Range": '"old"' });
    expect(old.status).toBe(200);
    expect(old.body.length).toBe(google.live!.bytes);
  });

  it("ranges apply to the identity bytes even when gzip is accepted", async () => {
    const r = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { Range: "bytes=0-99", "Accept-Encoding": "gzip" });
    expect(r.status).toBe(206);
    expect(r.headers["content-encoding"]).toBeUndefined();
    expect(r.body.equals(googleBytes.subarray(0, 100))).toBe(true);
  });
});

describe("gzip", () => {
  it("sends the published twin with Content-Encoding when gzip is accepted, with its own ETag", async () => {
    const r = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { "Accept-Encoding": "br, gzip;q=0.8" });
    expect(r.status).toBe(200);
    expect(r.headers["content-encoding"]).toBe("gzip");
    expect(r.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(r.headers["vary"]).toBe("Accept-Encoding");
    expect(r.headers["etag"]).toBe(`"${google.live!.sha256}-gz"`);
    expect(Number(r.headers["content-length"])).toBe(google.live!.gzip!.bytes);
    expect(gunzipSync(r.body).equals(googleBytes)).toBe(true);
    const again = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { "Accept-Encoding": "gzip", "If-None-Match": `"${google.live!.sha256}-gz"` });
    expect(again.status).toBe(304);
  });

  it("identity when gzip is refused (q=0) or absent, and for a feed without a twin", async () => {
    for (const accept of ["gzip;q=0", "identity", "*;q=0", "br"]) {
      const r = await fetchRaw(server.url, `/feeds/${google.live!.file}`, { "Accept-Encoding": accept });
      expect(r.headers["content-encoding"], accept).toBeUndefined();
      expect(r.body.length).toBe(google.live!.bytes);
    }
    const n = await fetchRaw(server.url, `/feeds/${ndjson.live!.file}`, { "Accept-Encoding": "gzip" });
    expect(n.headers["content-encoding"]).toBeUndefined();
    expect(sha(n.body)).toBe(ndjson.live!.sha256);
  });

  it("the twin by its own name is application/gzip, not an encoding", async () => {
    const r = await fetchRaw(server.url, `/feeds/${google.live!.gzip!.file}`, { "Accept-Encoding": "gzip" });
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/gzip");
    expect(r.headers["content-encoding"]).toBeUndefined();
    expect(gunzipSync(r.body).equals(googleBytes)).toBe(true);
  });
});

describe("healthz", () => {
  it("reports the run and the manifest's age", async () => {
    const r = await fetchRaw(server.url, "/healthz");
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body.toString("utf8")) as Record<string, unknown>;
    expect(body).toMatchObject({ status: "ok", run: "ok", feedsServed: 4 });
    expect(body["manifestAgeSeconds"]).toBeGreaterThanOrEqual(0);
  });
});
