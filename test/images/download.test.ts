/**
 * The downloader against a local server that answers what each test scripts:
 * the User-Agent sent, which statuses are retried, both retry budgets, the
 * size cap, a refused connection.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { Downloader } from "../../src/images/download.js";
import { ImageRunOptions, type ImageRunOptionsInput } from "../../src/images/options.js";

const servers: Server[] = [];
const downloaders: Downloader[] = [];
afterAll(async () => {
  await Promise.all(downloaders.map((d) => d.close()));
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

type Answer = { status: number; body?: string; headers?: Record<string, string> };

/** Answers the i-th request with answers[i] (the last one repeats); records the headers. */
async function serve(answers: Answer[]) {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    const answer = answers[Math.min(seen.length, answers.length - 1)]!;
    seen.push(req.headers);
    res.writeHead(answer.status, answer.headers).end(answer.body ?? "");
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/media/a.jpeg`, seen };
}

function downloader(options: ImageRunOptionsInput = {}) {
  const d = new Downloader({ userAgent: "pharmafeed/0.1.0 (feeds@pharmacy.example)", options: ImageRunOptions.parse({ retry: { baseMs: 1, maxMs: 5 }, ...options }) });
  downloaders.push(d);
  return d;
}

describe("Downloader", () => {
  it("sends the API's User-Agent and returns the bytes", async () => {
    const { url, seen } = await serve([{ status: 200, body: "image bytes" }]);
    expect(await downloader().download(url)).toEqual({ ok: true, value: Buffer.from("image bytes") });
    expect(seen[0]!["user-agent"]).toBe("pharmafeed/0.1.0 (feeds@pharmacy.example)");
    expect(seen[0]!.accept).toContain("image/jpeg");
  });

  it("does not retry a 404", async () => {
    const { url, seen } = await serve([{ status: 404 }]);
    expect(await downloader().download(url)).toEqual({ ok: false, reason: "download: HTTP 404" });
    expect(seen).toHaveLength(1);
  });

  it("retries 5xx and 429 with backoff, within maxRetries", async () => {
    const flaky = await serve([{ status: 503 }, { status: 429, headers: { "retry-after": "0" } }, { status: 200, body: "ok" }]);
    expect((await downloader().download(flaky.url)).ok).toBe(true);
    expect(flaky.seen).toHaveLength(3);
    const dead = await serve([{ status: 500 }]);
    expect(await downloader().download(dead.url)).toEqual({ ok: false, reason: "download: HTTP 500 (after 2 retries)" });
    expect(dead.seen).toHaveLength(3);
  });

  it("stops retrying once the run's budget is spent", async () => {
    const dead = await serve([{ status: 500 }]);
    const d = downloader({ runRetries: 3 });
    await d.download(dead.url);
    await d.download(dead.url);
    expect(dead.seen).toHaveLength(3 + 2);
    expect(d.pool.used).toBe(3);
  });

  it("refuses a body larger than maxBytes", async () => {
    const { url } = await serve([{ status: 200, body: "x".repeat(2000) }]);
    expect(await downloader({ maxBytes: 1000 }).download(url)).toMatchObject({ ok: false, reason: expect.stringContaining("1000") });
  });

  it("treats a refused connection as transient, then says why", async () => {
    const { url } = await serve([{ status: 200 }]);
    await new Promise((r) => servers.pop()!.close(r));
    const result = await downloader({ retry: { maxRetries: 1, baseMs: 1, maxMs: 1 } }).download(url);
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/ECONNREFUSED.*\(after 1 retry\)/) });
  });
});
