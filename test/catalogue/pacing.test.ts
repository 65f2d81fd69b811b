import { describe, expect, it } from "vitest";
import { backoffDelay, parseRetryAfter, sleep } from "../../src/core/retry.js";
import { limiterFor, RollingWindowLimiter } from "../../src/catalogue/http/limiter.js";

describe("RollingWindowLimiter", () => {
  it("lets `limit` requests through at once, then waits for the window", async () => {
    const limiter = new RollingWindowLimiter(3, 150);
    const started = performance.now();
    const stamps: number[] = [];
    const all = Promise.all(
      Array.from({ length: 7 }, async () => {
        const permit = await limiter.acquire();
        stamps.push(performance.now() - started);
        permit.done();
      }),
    );
    // "At once": granted while acquire() is called, before any timer could run (a time bound here
    // would fail on a loaded machine). The lower bounds below hold however slow the machine is.
    expect(limiter.used).toBe(3);
    await all;
    stamps.sort((a, b) => a - b);
    // 7 requests at 3 per 150 ms: the 4th waits one window, the 7th two.
    expect(stamps[3]).toBeGreaterThanOrEqual(145);
    expect(stamps[6]).toBeGreaterThanOrEqual(295);
  });

  it("never has more than `limit` requests in any window, counting from completion", async () => {
    const limiter = new RollingWindowLimiter(2, 100);
    const windows: [number, number][] = [];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        const permit = await limiter.acquire();
        const start = performance.now();
        await sleep(20);
        permit.done();
        windows.push([start, performance.now()]);
      }),
    );
    const starts = windows.map(([start]) => start).sort((a, b) => a - b);
    const ends = windows.map(([, end]) => end).sort((a, b) => a - b);
    // The (i+2)-th request starts at least a window after the i-th completed.
    for (let i = 0; i + 2 < starts.length; i++) expect((starts[i + 2] as number) - (ends[i] as number)).toBeGreaterThanOrEqual(98);
  });

  it("rejects a waiter whose signal aborts, and serves the others", async () => {
    const limiter = new RollingWindowLimiter(1, 10_000);
    const first = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    first.done();
    expect(limiter.used).toBe(1);
  });

  it("is shared per key across the process and takes the stricter pacing", () => {
    const a = limiterFor("http://x|key-shared", 100, 60_000);
    const b = limiterFor("http://x|key-shared", 5, 300);
    expect(b).toBe(a);
    expect(a.limit).toBe(5);
    expect(a.windowMs).toBe(60_000);
    expect(limiterFor("http://x|other-key", 100, 60_000)).not.toBe(a);
  });
});

describe("backoff", () => {
  const policy = { maxRetries: 5, baseMs: 100, maxMs: 1000, jitter: "none" as const };
  it("doubles up to the ceiling without jitter", () => {
    expect([0, 1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, policy))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it("picks uniformly below the ceiling with full jitter", () => {
    expect(backoffDelay(3, { ...policy, jitter: "full" }, () => 0.5)).toBe(400);
    expect(backoffDelay(3, { ...policy, jitter: "full" }, () => 0)).toBe(0);
  });

  it("reads Retry-After as seconds or a date", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });
});
