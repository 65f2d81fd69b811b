import { describe, expect, it } from "vitest";
import { request } from "node:http";
import { RateLimiter } from "../../src/sandbox/server/rate-limit.js";
import { ALL, open } from "./helpers.js";

/** Reads a stream response with node:http, keeping the bytes received before any error. */
function rawStream(
  url: string,
  auth: string,
  body: unknown,
): Promise<{ status: number; text: string; error?: Error; chunks: number; headersAt: number; doneAt: number; headers?: Record<string, unknown> }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(url + "/v4/products/stream", { method: "POST", headers: { authorization: auth, "content-type": "application/json" } }, (res) => {
      const headersAt = performance.now() - started;
      const parts: Buffer[] = [];
      let chunks = 0;
      const finish = (error?: Error) =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString("utf8"), error, chunks, headersAt, doneAt: performance.now() - started, headers: res.headers });
      res.on("data", (b: Buffer) => {
        chunks++;
        parts.push(b);
      });
      res.on("end", () => finish());
      res.on("error", (e) => finish(e));
      res.on("aborted", () => finish(new Error("aborted")));
    });
    req.on("error", (e) => resolve({ status: 0, text: "", error: e, chunks: 0, headersAt: 0, doneAt: 0 }));
    req.end(JSON.stringify(body));
  });
}

/** Reads a stream response until `count` lines came, then closes the connection: the lines. */
function firstLinesThenClose(url: string, auth: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const req = request(url + "/v4/products/stream", { method: "POST", headers: { authorization: auth, "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
        const lines = text.split("\n").slice(0, -1);
        if (lines.length >= count) {
          req.destroy();
          resolve(lines);
        }
      });
      res.on("end", () => reject(new Error(`the stream ended after ${text.split("\n").length - 1} lines, without a stall`)));
    });
    req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
    req.end(JSON.stringify(ALL));
  });
}

const authOf = (api: Awaited<ReturnType<typeof open>>) => "Basic " + Buffer.from(`${api.sandbox.keyId}:${api.sandbox.keySecret}`).toString("base64");

describe("fault injection", () => {
  it("failFirst answers failStatus with the service body, then recovers; stats count them", async () => {
    const api = await open({ products: 20, faults: { failFirst: 2, failStatus: 502 } });
    try {
      const statuses: number[] = [];
      for (let k = 0; k < 3; k++) {
        const res = await api.post("/v4/products/query", { ...ALL, page: { no: 0, size: 10 } });
        statuses.push(res.status);
        if (k === 0) expect(((await res.json()) as { error: { status: number; code: string } }).error).toMatchObject({ status: 502, code: "server.bad_gateway" });
        else await res.arrayBuffer();
      }
      expect(statuses).toEqual([502, 502, 200]);
      expect(api.sandbox.stats.requests).toBe(3);
      expect(api.sandbox.stats.byPath.get("/v4/products/query")).toBe(3);
    } finally {
      await api.sandbox.close();
    }
  });

  it("tooManyFirst answers 429 too_many_requests without Retry-After, after the 5xx storm", async () => {
    const api = await open({ products: 20, faults: { failFirst: 1, tooManyFirst: 2 } });
    try {
      const got: [number, string | null][] = [];
      for (let k = 0; k < 4; k++) {
        const res = await api.post("/v4/products/query", { ...ALL, page: { no: 0, size: 10 } });
        got.push([res.status, res.headers.get("retry-after")]);
        const body = (await res.json()) as { error?: { code: string } };
        if (res.status === 429) expect(body.error?.code).toBe("too_many_requests");
      }
      expect(got).toEqual([[503, null], [429, null], [429, null], [200, null]]);
    } finally {
      await api.sandbox.close();
    }
  });

  it("dropAfterLines cuts the i-th stream after i*K lines, dropTimes times", async () => {
    const api = await open({ products: 40, faults: { dropAfterLines: 5, dropTimes: 2 } });
    try {
      const received: number[] = [];
      for (let k = 0; k < 3; k++) {
        const r = await rawStream(api.sandbox.url, authOf(api), ALL);
        const complete = r.text.split("\n").filter((l) => l !== "");
        received.push(complete.length);
        if (k < 2) expect(r.error).toBeDefined();
        else expect(r.error).toBeUndefined();
      }
      expect(received).toEqual([5, 10, 40]);
    } finally {
      await api.sandbox.close();
    }
  });

  it.each([
    ["mid-line-end", true, false, "chunked"],
    ["close-delimited", true, false, undefined],
    ["mid-line-reset", true, true, "chunked"],
    ["short-end", false, false, "chunked"],
  ] as const)("cutShape %s: the i-th stream stops after i*K lines, as that shape says", async (cutShape, halfLine, reset, encoding) => {
    const api = await open({ products: 40, faults: { cutAfterLines: 5, cutTimes: 2, cutShape } });
    try {
      const seen: { complete: number; tail: string }[] = [];
      for (let k = 0; k < 3; k++) {
        const r = await rawStream(api.sandbox.url, authOf(api), ALL);
        const parts = r.text.split("\n");
        seen.push({ complete: parts.length - 1, tail: parts.at(-1) ?? "" });
        if (k < 2) {
          expect(r.error !== undefined).toBe(reset);
          expect(r.headers?.["transfer-encoding"]).toBe(encoding);
          expect(r.headers?.["content-length"]).toBeUndefined();
        } else expect(r.error).toBeUndefined();
      }
      expect(seen.map((s) => s.complete)).toEqual([5, 10, 40]);
      for (const s of seen.slice(0, 2)) expect(s.tail.length > 0).toBe(halfLine);
      expect(seen[0]?.tail).toMatch(halfLine ? /^\{"meta":\{"total":40,"index":5\},"result":/ : /^$/);
    } finally {
      await api.sandbox.close();
    }
  });

  it("totalOffset writes a wrong meta.total; noFinalNewline leaves the last line unterminated", async () => {
    const api = await open({ products: 10, faults: { totalOffset: -3, noFinalNewline: true } });
    try {
      const r = await rawStream(api.sandbox.url, authOf(api), ALL);
      const lines = r.text.split("\n");
      expect(lines).toHaveLength(10);
      for (const line of lines) expect((JSON.parse(line) as { meta: { total: number } }).meta.total).toBe(7);
    } finally {
      await api.sandbox.close();
    }
  });

  it("corruptLine sends that meta.index as broken JSON on every stream", async () => {
    const api = await open({ products: 10, faults: { corruptLine: 3 } });
    try {
      for (let k = 0; k < 2; k++) {
        const r = await rawStream(api.sandbox.url, authOf(api), ALL);
        const lines = r.text.trimEnd().split("\n");
        expect(lines).toHaveLength(10);
        expect(() => JSON.parse(lines[3] as string)).toThrow();
        expect((JSON.parse(lines[4] as string) as { meta: { index: number } }).meta.index).toBe(4);
      }
    } finally {
      await api.sandbox.close();
    }
  });

  it("chunkBytes writes tiny chunks that still reassemble to the same bytes", async () => {
    const plain = await open({ products: 3, seed: 4 });
    const chunked = await open({ products: 3, seed: 4, faults: { chunkBytes: 1 } });
    try {
      const a = await rawStream(plain.sandbox.url, authOf(plain), ALL);
      const b = await rawStream(chunked.sandbox.url, authOf(chunked), ALL);
      expect(b.chunks).toBeGreaterThan(a.chunks * 20);
      const hostless = (text: string) => text.replace(/127\.0\.0\.1:\d+/g, "HOST");
      expect(hostless(b.text)).toBe(hostless(a.text));
    } finally {
      await plain.sandbox.close();
      await chunked.sandbox.close();
    }
  });

  it("stallAfterLines pauses the first stream only, until the client goes away; lineDelayMs delays each line", async () => {
    // Lower bounds only: a loaded machine makes everything slower, never faster.
    const api = await open({ products: 6, faults: { stallAfterLines: 2, stallMs: 300 } });
    try {
      const first = await rawStream(api.sandbox.url, authOf(api), ALL);
      const second = await rawStream(api.sandbox.url, authOf(api), ALL);
      expect(first.doneAt - first.headersAt).toBeGreaterThanOrEqual(280);
      expect(first.text).toBe(second.text);
    } finally {
      await api.sandbox.close();
    }
    // A stall longer than the test's timeout: the first stream gives its 2 lines and holds until the
    // client closes; the second is not stalled (it would never end otherwise), and close() returns.
    const held = await open({ products: 6, faults: { stallAfterLines: 2, stallMs: 2 ** 31 - 1 } });
    try {
      const lines = await firstLinesThenClose(held.sandbox.url, authOf(held), 2);
      expect(lines.map((line) => (JSON.parse(line) as { meta: { index: number } }).meta.index)).toEqual([0, 1]);
      const second = await rawStream(held.sandbox.url, authOf(held), ALL);
      expect(second.text.trimEnd().split("\n")).toHaveLength(6);
    } finally {
      await held.sandbox.close();
    }
    const slow = await open({ products: 5, faults: { lineDelayMs: 40 } });
    try {
      const r = await rawStream(slow.sandbox.url, authOf(slow), ALL);
      expect(r.text.trimEnd().split("\n")).toHaveLength(5);
      expect(r.doneAt).toBeGreaterThanOrEqual(190);
    } finally {
      await slow.sandbox.close();
    }
  });

  it("rate limit: N requests per rolling window per key, then 429; faulted requests count in stats", async () => {
    // A window no test outlives: however slow the requests, none leaves it (the window's roll is
    // tested on the limiter with its own clock, below).
    const api = await open({ products: 5, rateLimit: 3, rateWindowMs: 3_600_000 });
    try {
      const statuses: number[] = [];
      for (let k = 0; k < 5; k++) {
        const res = await api.post("/v4/products/query", { ...ALL, page: { no: 0, size: 10 } });
        statuses.push(res.status);
        const body = (await res.json()) as { error?: { code: string } };
        if (res.status === 429) expect(body.error?.code).toBe("too_many_requests");
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(api.sandbox.stats.requests).toBe(5);
    } finally {
      await api.sandbox.close();
    }
  });

  it("rate limit: the window rolls (a request is let in again once the oldest leaves it); refused ones do not count", () => {
    let now = 0;
    const limiter = new RateLimiter(2, 400, () => now);
    const at = (t: number, key = "demo") => ((now = t), limiter.take(key));
    expect([at(0), at(100), at(200), at(399)]).toEqual([true, true, false, false]);
    expect(at(399, "other"), "per key").toBe(true);
    expect([at(400), at(450)], "the request of 0 left the window at 400").toEqual([true, false]);
    // Had the refusals of 200, 399 and 450 counted, nothing would pass before 850.
    expect([at(500), at(501)]).toEqual([true, false]);
  });
});
