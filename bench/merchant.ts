/**
 * Google Merchant Center read-back: wall time and Merchant API requests to read N
 * products' statuses from the local fake (products.list, pages of 1000; the fake runs
 * in this process, so its own work is included: an upper bound), then explain's
 * answer time for one product with Google's verdict at that size.
 *
 * Then the intraday push: a google-tsv file of N items sets the baseline, 1 % of the
 * prices change, and a refresh pushes: requests sent, products pushed.
 *
 * Then, with --hostile, each hostile reply of issue 35 (the fake's api.hostile, a 429 with
 * Retry-After 3600) against the default limits: how long until the read-back ends by
 * itself, and the requests and bytes it took, beside the normal read-back above (baseline).
 *
 *   npx tsx bench/merchant.ts --products 10000      (the full figures: --products 100000, 1000000)
 *   npx tsx bench/merchant.ts --products 10000 --hostile
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../src/log.js";
import { attachGoogle } from "../src/merchant/explain.js";
import { makeTestKey, writeTestKey } from "../src/merchant/fake/key.js";
import { FakeMerchantApi } from "../src/merchant/fake/server.js";
import { disapproval } from "../src/merchant/fake/state.js";
import { MerchantSettings } from "../src/merchant/settings.js";
import { syncMerchant } from "../src/merchant/sync.js";
import type { ExplainAnswer } from "../src/explain/explain.js";
import { flag, hasFlag } from "./common.js";
import type { Hostile } from "../src/merchant/fake/hostile.js";
import { writeFile } from "node:fs/promises";
import { pushMerchant } from "../src/merchant/push/push.js";

const products = Number(flag("products", "10000"));
const lookups = 2000;
const api = new FakeMerchantApi();
await api.start();
const key = makeTestKey(api.tokenUri);
const account = api.account("100200300", { clientEmail: key.key.client_email, publicKey: key.publicKey });
const gtin = disapproval("invalid_gtin", "gtins", "Invalid GTIN value", ["FR"]);
const ids = Array.from({ length: products }, (_, i) => `P${String(i).padStart(7, "0")}`);
// 5 % disapproved with an issue, 1 % pending: a feed with work to do.
account.add(ids, { status: (_, i) => (i % 20 === 0 ? { disapprovedCountries: ["FR"], issues: [gtin] } : i % 100 === 1 ? { pendingCountries: ["FR"] } : { approvedCountries: ["FR"] }) });
const dir = await mkdtemp(join(tmpdir(), "pf-bench-merchant-"));
const keyFile = join(dir, "key.json");
await writeTestKey(keyFile, key.key);
const settings = MerchantSettings.parse({ accountId: account.id, credentials: keyFile, apiUrl: api.url });
try {
  const started = performance.now();
  const result = await syncMerchant({ outputDir: dir, channels: [{ channel: "google-fr", settings, keyFile, feedLabel: "FR", contentLanguage: "fr" }], logger: createLogger({ write: () => {} }) });
  const seconds = (performance.now() - started) / 1000;
  const feed = result.feeds[0]!;
  console.log(`read-back of ${products} statuses: ${seconds.toFixed(2)} s, ${result.requests} Merchant API requests (+${api.tokens.grants} token grant), ${Math.round(products / seconds)} products/s; ${feed.approved} approved, ${feed.pending} pending, ${feed.disapproved} disapproved; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);

  const times: number[] = [];
  for (let i = 0; i < lookups; i++) {
    const id = ids[Math.floor(Math.random() * ids.length)]!;
    const answer = { query: id, matchedBy: "id", runStartedAt: "", total: 1, products: [{ id, channels: [{ channel: "google-fr", outcome: "in_feed" }] }] } as ExplainAnswer;
    const t = performance.now();
    attachGoogle(dir, answer);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`explain's Google verdict at ${products} products (open the store, look up, close): median ${times[lookups >> 1]!.toFixed(2)} ms, p99 ${times[Math.floor(lookups * 0.99)]!.toFixed(2)} ms`);

  // The push: one full run sets what Google has, a refresh with 1 % of the prices changed.
  const tsv = (changed: (i: number) => boolean) =>
    ["id\tprice\tsale_price\tavailability", ...ids.map((id, i) => `${id}\t${changed(i) ? "8.99" : "9.99"} EUR\t\tin_stock`)].join("\n") + "\n";
  const push = MerchantSettings.parse({ accountId: account.id, credentials: keyFile, apiUrl: api.url, push: { enabled: true } });
  const channel = { merchant: { channel: "google-fr", settings: push, keyFile, feedLabel: "FR", contentLanguage: "fr" }, file: "google-fr.tsv", layout: "google-tsv" as const };
  const silent = createLogger({ write: () => {} });
  await writeFile(join(dir, "google-fr.tsv"), tsv(() => false));
  await pushMerchant({ outputDir: dir, channels: [channel], fullRun: true, now: new Date(), logger: silent });
  await writeFile(join(dir, "google-fr.tsv"), tsv((i) => i % 100 === 7));
  const t = performance.now();
  const refresh = await pushMerchant({ outputDir: dir, channels: [channel], fullRun: false, now: new Date(), logger: silent });
  const f = refresh.figures[0]!;
  console.log(`refresh with 1 % of ${products} prices changed: ${f.pushed} products pushed, ${f.requests} Merchant API requests (data source + quota + inserts), ${((performance.now() - t) / 1000).toFixed(2)} s`);

  if (hasFlag("hostile")) {
    const cases: [string, () => void][] = [
      ["429 with Retry-After: 3600", () => api.faults.push({ status: 429, retryAfterSeconds: 3600 })],
      ...(
        [
          ["a nextPageToken that repeats", { kind: "repeat-page-token" }],
          ["a silent products.list", { kind: "silent-products" }],
          ["a silent token endpoint", { kind: "silent-token" }],
          ['{"products": {}}', { kind: "products-object" }],
          ["a page of 700 MB", { kind: "huge-page", bytes: 700 * 2 ** 20 }],
        ] as [string, Hostile][]
      ).map(([name, hostile]): [string, () => void] => [name, () => (api.hostile = hostile)]),
    ];
    console.log(`hostile replies, default limits (baseline: the read-back above, ${seconds.toFixed(2)} s):`);
    for (const [name, arrange] of cases) {
      arrange();
      const listed = api.log.length;
      const hugeBefore = api.hugeBytes;
      const t0 = performance.now();
      const hostile = await syncMerchant({ outputDir: dir, channels: [{ channel: "google-fr", settings, keyFile, feedLabel: "FR", contentLanguage: "fr" }], logger: createLogger({ write: () => {} }) });
      const took = (performance.now() - t0) / 1000;
      api.hostile = undefined;
      // The fake counts what it wrote of a huge page once the client hung up.
      if (api.hugeBytes === hugeBefore && name.includes("700")) await new Promise((resolve) => api.events.once("huge", resolve));
      const reason = hostile.problems[0]?.reason ?? "(no problem)";
      console.log(`  ${name}: ended in ${took.toFixed(2)} s, ${api.log.length - listed} API requests, ${Math.round((api.hugeBytes - hugeBefore) / 2 ** 20)} MB of huge page sent; reason (${reason.split("\n").length} line): ${reason.slice(0, 160)}`);
    }
  }
} finally {
  await api.close();
  await rm(dir, { recursive: true, force: true });
}
