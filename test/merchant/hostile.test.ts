/**
 * Google never holds a run (issue 35, point 7 and 12): against the fake's hostile replies
 * (real HTTP), each read-back ends by itself, with one line saying which cap ended it,
 * sends no request past that cap, and leaves no temporary file. Nothing here waits on a
 * clock: a run that waited an hour or looped forever would meet the test's own timeout.
 */
import { once } from "node:events";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import type { FakeRequest } from "../../src/merchant/fake/server.js";
import type { MerchantLimits } from "../../src/merchant/limits.js";
import { MerchantSettings, type MerchantChannel } from "../../src/merchant/settings.js";
import { MerchantStore } from "../../src/merchant/store.js";
import { syncMerchant } from "../../src/merchant/sync.js";
import { FAST_RETRY, startFake, type FakeSetup } from "./helpers.js";

let fake: FakeSetup;
let outputDir: string;
const logger = createLogger({ write: () => {} });

beforeEach(async () => {
  fake = await startFake();
  outputDir = join(fake.dir, "output");
  fake.account.add(["P1", "P2"]);
});
afterEach(async () => fake.close());

function channels(): MerchantChannel[] {
  const settings = MerchantSettings.parse({ accountId: fake.account.id, credentials: fake.keyFile, apiUrl: fake.api.url });
  return [{ channel: "google-fr", settings, keyFile: fake.keyFile, feedLabel: "FR", contentLanguage: "fr" }];
}

const sync = (limits: Partial<MerchantLimits> = {}, signal?: AbortSignal) =>
  syncMerchant({ outputDir, channels: channels(), logger, client: { retry: FAST_RETRY, limits }, ...(signal ? { signal } : {}) });

const listed = () => fake.api.log.filter((r) => r.path.endsWith("/products")).length;
const temporaries = async () => (await readdir(join(outputDir, "state")).catch(() => [] as string[])).filter((n) => n.includes(".tmp-"));
/** The next request the fake receives on `path` (an event, not a delay). */
const received = (path: string) =>
  new Promise<FakeRequest>((resolve) => {
    const on = (r: FakeRequest) => {
      if (!r.path.endsWith(path)) return;
      fake.api.events.off("request", on);
      resolve(r);
    };
    fake.api.events.on("request", on);
  });

async function oneProblem(limits: Partial<MerchantLimits> = {}) {
  const result = await sync(limits);
  expect(result.problems).toHaveLength(1);
  const [problem] = result.problems;
  // One line, whatever the cause (never zod's JSON, never a stack).
  expect(problem!.reason).not.toMatch(/\n/);
  expect(problem!.reason.length).toBeLessThan(1000);
  expect(await temporaries()).toEqual([]);
  return problem!;
}

describe("a hostile Merchant API never holds the read-back", () => {
  it("a 429 asking to wait an hour gives up at once, until the next run, and keeps the last statuses", async () => {
    await sync();
    fake.api.faults.push({ status: 429, retryAfterSeconds: 3600 });
    const before = listed();
    const problem = await oneProblem();
    expect(problem).toMatchObject({ code: "MERCHANT_QUOTA", reason: expect.stringMatching(/wait 3600 s \(Retry-After\), more than the 120 s a run waits: given up until the next run/) });
    expect(listed() - before).toBe(1);
    const store = MerchantStore.open(outputDir)!;
    expect(store.feeds()[0]).toMatchObject({ products: 2, error: expect.stringMatching(/Retry-After/) });
    store.close();
  });

  it("a Retry-After within the cap is waited, then the read-back goes on", async () => {
    fake.api.faults.push({ status: 429, retryAfterSeconds: 0 });
    const result = await sync();
    expect(result.problems).toEqual([]);
    expect(result.feeds[0]!.products).toBe(2);
  });

  it("a nextPageToken that repeats stops the list at the second page", async () => {
    fake.api.hostile = { kind: "repeat-page-token" };
    const problem = await oneProblem();
    expect(problem).toMatchObject({ code: "MERCHANT_HTTP", reason: expect.stringMatching(/nextPageToken already followed .*would never end/) });
    expect(listed()).toBe(2);
  });

  it("a list longer than maxPages stops there", async () => {
    fake.api.hostile = { kind: "repeat-page-token" };
    const problem = await oneProblem({ maxPages: 1 });
    expect(problem.reason).toMatch(/more than 1 pages: stopped there/);
    expect(listed()).toBe(1);
  });

  it("a silent products.list ends at the request timeout, tried twice, not hours later", async () => {
    fake.api.hostile = { kind: "silent-products" };
    const problem = await oneProblem({ requestTimeoutMs: 200 });
    expect(problem).toMatchObject({ code: "MERCHANT_HTTP", reason: expect.stringMatching(/products: no answer within 0\.2 s \(after 1 retries\)/) });
    expect(listed()).toBe(2);
  });

  it("a silent token endpoint ends at the grant's timeout", async () => {
    fake.api.hostile = { kind: "silent-token" };
    const problem = await oneProblem({ requestTimeoutMs: 200 });
    expect(problem.reason).toMatch(/token endpoint http:\/\/127\.0\.0\.1:\d+\/token unreachable: no answer within 0\.2 s/);
    expect(listed()).toBe(0);
  });

  it("the whole read-back stops at its deadline, with the cap in words", async () => {
    fake.api.hostile = { kind: "silent-products" };
    const problem = await oneProblem({ totalMs: 300 });
    expect(problem.reason).toMatch(/the read-back of Google's statuses took longer than 0\.3 s \(the cap of a run\)/);
  });

  it("a stop signal (SIGTERM) during a silent list ends it at once and removes the temporary store", async () => {
    fake.api.hostile = { kind: "silent-products" };
    const controller = new AbortController();
    const asked = received("/products");
    const run = sync({}, controller.signal);
    await asked;
    expect((await temporaries()).length).toBe(1);
    controller.abort();
    await expect(run).rejects.toThrow();
    expect(await temporaries()).toEqual([]);
  });

  it('a reply of the wrong type ({"products": {}}) is one line naming the field', async () => {
    fake.api.hostile = { kind: "products-object" };
    const problem = await oneProblem();
    expect(problem.reason).toMatch(/page 1\): the reply does not have the shape Google's reference gives: products: a list \(\[\.\.\.\]\) is needed, got \{\}/);
    expect(listed()).toBe(1);
  });

  it("a huge page is refused once at the byte cap, never read whole nor asked again", async () => {
    fake.api.hostile = { kind: "huge-page", bytes: 200 * 2 ** 20 };
    const ended = once(fake.api.events, "huge");
    const problem = await oneProblem({ maxReplyBytes: 2 ** 20 });
    expect(problem.reason).toMatch(/the reply is over 1 MB, more than the 1 MB a reply may have: refused, not asked again this run/);
    expect(listed()).toBe(1);
    const [written] = (await ended) as [number];
    // The server stopped writing when the client hung up: far less than the 200 MB it would send.
    expect(written).toBeLessThan(100 * 2 ** 20);
  });
});
