/**
 * Streams built by the worker pool (server/pool.ts) carry the very bytes of the
 * in-thread path, for every kind of selection; a pool that cannot start, or
 * whose worker dies mid-stream, falls back to in-thread building without the
 * client noticing; faults keep the per-line path.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { request } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { poolCounters, poolSettings } from "../../src/sandbox/server/pool.js";
import { BATCH_RECORDS } from "../../src/sandbox/server/stream.js";
import { ALL, open, type Api } from "./helpers.js";

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}

const defaults = { ...poolSettings };
let api: Api;

beforeAll(async () => {
  api = await open({ products: 400, seed: 9 });
});
afterAll(() => api.sandbox.close());
afterEach(() => Object.assign(poolSettings, defaults));

async function streamBytes(target: Api, path: string, body: unknown): Promise<{ status: number; bytes: Buffer }> {
  const res = await target.post(path, body);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The same request written by the pool, then in-thread. */
async function bothWays(target: Api, path: string, body: unknown): Promise<{ pooled: Buffer; inThread: Buffer; built: number }> {
  poolSettings.minRecords = 1;
  const before = poolCounters.built;
  const pooled = await streamBytes(target, path, body);
  const built = poolCounters.built - before;
  poolSettings.minRecords = Number.POSITIVE_INFINITY;
  const inThread = await streamBytes(target, path, body);
  expect(pooled.status).toBe(200);
  expect(inThread.status).toBe(200);
  return { pooled: pooled.bytes, inThread: inThread.bytes, built };
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describe("pooled streams", () => {
  const productCases: [string, unknown][] = [
    ["every product, id ASC (plain range)", ALL],
    ["every product, id DESC", { filter: {}, sorting: { id: "DESC" } }],
    ["a status filter, sorted by name", { filter: { status: ["active", "replaced"] }, sorting: { name: { direction: "ASC", locale: "fr" } } }],
    ["a combinator, sorted by touchedAt DESC", { filter: { or: [{ status: "inactive" }, { not: { status: "active" } }] }, sorting: { touchedAt: "DESC" } }],
  ];
  for (const [name, body] of productCases) {
    it(`products/stream, ${name}: same bytes as in-thread, built by workers`, async () => {
      const { pooled, inThread, built } = await bothWays(api, "/v4/products/stream", body);
      expect(built).toBeGreaterThan(0);
      expect(pooled.length).toBeGreaterThan(10_000);
      expect(sha(pooled)).toBe(sha(inThread));
    });
  }

  it("media/stream: same bytes as in-thread, built by workers", async () => {
    const { pooled, inThread, built } = await bothWays(api, "/v4/media/stream", { filter: { type: "photo" }, sorting: { id: "DESC" } });
    expect(built).toBeGreaterThan(0);
    expect(sha(pooled)).toBe(sha(inThread));
    const lines = pooled.toString("latin1").trimEnd().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as { meta: { index: number } }).meta.index)).toEqual(lines.map((_, k) => k));
  });

  it("a client that stops reading holds the stream back (drain), then gets every byte in order", async () => {
    // 3,000 products, ~28 MB: more than the stream's slots and the socket buffers hold.
    const big = await open({ products: 3000, seed: 4 });
    const batches = Math.ceil(3000 / BATCH_RECORDS.products);
    try {
      poolSettings.minRecords = 1;
      const before = poolCounters.built;
      const drains = poolCounters.drainWaits;
      let builtWhilePaused = 0;
      const paused = await new Promise<Buffer>((resolve, reject) => {
        const auth = "Basic " + Buffer.from(`${big.sandbox.keyId}:${big.sandbox.keySecret}`).toString("base64");
        const req = request(big.sandbox.url + "/v4/products/stream", { method: "POST", headers: { authorization: auth, "content-type": "application/json" } }, (res) => {
          const parts: Buffer[] = [];
          res.once("data", (first: Buffer) => {
            parts.push(first);
            res.pause();
            // The stream stops on the full socket ('drain' awaited) with every batch it asked for back:
            // from then on nothing more is built while the reader is paused. A writer that ignored
            // 'drain' never gets there and the test times out; one that got there late built them all.
            void until(() => poolCounters.built > before && poolCounters.drainWaits > drains && poolCounters.inFlight === 0).then(() => {
              builtWhilePaused = poolCounters.built - before;
              res.on("data", (b: Buffer) => parts.push(b));
              res.resume();
            });
          });
          res.on("end", () => resolve(Buffer.concat(parts)));
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end(JSON.stringify(ALL));
      });
      expect(builtWhilePaused).toBeGreaterThan(0);
      expect(builtWhilePaused).toBeLessThan(batches);
      expect(poolCounters.built - before).toBe(batches);
      poolSettings.minRecords = Number.POSITIVE_INFINITY;
      const inThread = await streamBytes(big, "/v4/products/stream", ALL);
      expect(paused.length).toBeGreaterThan(20_000_000);
      expect(sha(paused)).toBe(sha(inThread.bytes));
    } finally {
      await big.sandbox.close();
    }
  });

  it("batches too big for their slot still arrive whole", async () => {
    poolSettings.slotBytes = 4096;
    const { pooled, inThread, built } = await bothWays(api, "/v4/products/stream", { filter: { status: "active" }, sorting: { createdAt: "ASC" } });
    expect(built).toBeGreaterThan(0);
    expect(sha(pooled)).toBe(sha(inThread));
  });

  it("faults keep the per-line path (no worker batches)", async () => {
    const faulty = await open({ products: 60, seed: 9, faults: { corruptLine: 3 } });
    try {
      poolSettings.minRecords = 1;
      const before = poolCounters.built;
      const { status, bytes } = await streamBytes(faulty, "/v4/products/stream", ALL);
      expect(status).toBe(200);
      expect(poolCounters.built).toBe(before);
      const lines = bytes.toString("latin1").trimEnd().split("\n");
      expect(lines).toHaveLength(60);
      expect(() => JSON.parse(lines[3] as string)).toThrow();
    } finally {
      await faulty.sandbox.close();
    }
  });
});

describe("fallback to in-thread building", () => {
  it("a pool whose worker cannot start: the stream completes with the same bytes", async () => {
    const other = await open({ products: 120, seed: 5 });
    try {
      poolSettings.workerUrl = new URL("./no-such-worker.js", import.meta.url);
      const { pooled, inThread, built } = await bothWays(other, "/v4/products/stream", ALL);
      expect(built).toBe(0);
      expect(sha(pooled)).toBe(sha(inThread));
    } finally {
      await other.sandbox.close();
    }
  });

  it("a worker that fails a batch, then dies: the stream completes with the same bytes", async () => {
    const other = await open({ products: 150, seed: 6 });
    try {
      poolSettings.workerUrl = new URL("./fixtures/dying-worker.mjs", import.meta.url);
      poolSettings.size = 1;
      const { pooled, inThread, built } = await bothWays(other, "/v4/products/stream", ALL);
      expect(built).toBe(0);
      expect(sha(pooled)).toBe(sha(inThread));
      // The pool is off for good: the next stream is built in-thread, still whole.
      poolSettings.minRecords = 1;
      const again = await streamBytes(other, "/v4/products/stream", ALL);
      expect(sha(again.bytes)).toBe(sha(inThread));
    } finally {
      await other.sandbox.close();
    }
  });
});
