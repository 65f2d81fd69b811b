/**
 * `serve` for a config of many shops (issue 36), through the command's own start (config loaded
 * as `pharmafeed serve` loads it) and real HTTP: every shop under /<shop>/ with its own feeds,
 * access rules and status page, the operator's overview at `/`, /healthz and /monitor of all, a
 * refused shop, per-shop reloads and stale alerts. The shops' output folders are hand-made
 * (hand-made.ts): what a one-shop run writes, with the ages and states each test needs.
 */
import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe } from "../../src/commands/serve.js";
import { loadConfig } from "../../src/config/load.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { warningsReportName } from "../../src/publish/exclusion-report.js";
import type { FeedServer } from "../../src/serve/server.js";
import { startShopsServer } from "../../src/serve/shops/server.js";
import { writeTree } from "../config/tree.js";
import { startReceiver, type HttpReceiver } from "../notify/receivers.js";
import { launchChromium } from "./chromium.js";
import { ndjson, publishAll, publishFile, type HandFeed } from "./hand-made.js";
import { askAndLog, basic, fetchRaw, memoryLogger } from "./helpers.js";

const ENV = {
  TEST_KEY_ID: "demo",
  TEST_KEY_SECRET: "not-used-by-serve",
  OPERATOR_USER: "operator",
  OPERATOR_PASSWORD: "operator-password-1",
  ALPHA_USER: "alpha-manager",
  ALPHA_PASSWORD: "alpha-page-password",
  BETA_USER: "beta-manager",
  BETA_PASSWORD: "beta-page-password",
  FEED_USER: "alpha-merchant",
  FEED_PASSWORD: "alpha-feed-password",
  ALPHA_TOKEN: "tok_alpha_3f9a1c7e5b2d4a6c8e0f1a2b",
  BETA_TOKEN: "tok_beta_9e8d7c6b5a4f3e2d1c0b9a8f7e",
};
const AUTH = {
  operator: { Authorization: basic(ENV.OPERATOR_USER, ENV.OPERATOR_PASSWORD) },
  alpha: { Authorization: basic(ENV.ALPHA_USER, ENV.ALPHA_PASSWORD) },
  beta: { Authorization: basic(ENV.BETA_USER, ENV.BETA_PASSWORD) },
  feed: { Authorization: basic(ENV.FEED_USER, ENV.FEED_PASSWORD) },
};
const HOUR = 3600_000;
const link = { template: "https://shop.example/p/{{id}}" };
const channel = (name: string, extra: Record<string, unknown> = {}) => ({ name, preset: "generic-ndjson", locale: "fr", link, ...extra });
const shopFile = (name: string, channels: unknown[], extra: Record<string, unknown> = {}) => ({ shop: { name, url: "https://shop.example/" }, channels, ...extra });
const feeds = (shop: string, names: readonly string[]): HandFeed[] => names.map((name) => ({ name, file: `${name}.ndjson`, content: ndjson(3, `${shop}:${name}`) }));

let root: string;
let out: string;
let hooks: Record<"alpha" | "gamma", HttpReceiver>;
let server: FeedServer;
const log = memoryLogger();

async function get(path: string, headers: Record<string, string> = {}) {
  const r = await fetchRaw(server.url, path, headers);
  return { status: r.status, headers: r.headers, text: r.body.toString("utf8") };
}
const json = async (path: string) => {
  const r = await get(path);
  return { status: r.status, body: JSON.parse(r.text) as Record<string, unknown> };
};
const shopsOf = (body: Record<string, unknown>) => Object.fromEntries((body["shops"] as Record<string, unknown>[]).map((s) => [s["shop"], s]));

beforeAll(async () => {
  hooks = { alpha: await startReceiver(), gamma: await startReceiver() };
  const webhook = (hook: HttpReceiver) => ({ notify: { webhooks: [{ url: hook.url, format: "slack" }] } });
  const alphaStatus = { serve: { status: { user: "${ALPHA_USER}", password: "${ALPHA_PASSWORD}" } } };
  root = await writeTree({
    "config/pharmafeed.json": {
      source: { baseUrl: "https://api.catalogue.example", keyId: "${TEST_KEY_ID}", keySecret: "${TEST_KEY_SECRET}", contact: "feeds@pharmacy.example" },
      shop: { name: "Groupe", url: "https://groupe.example" },
      output: { dir: "../out", publicBaseUrl: "https://feeds.example" },
      shops: ["shops/alpha.json", "shops/beta.json", "shops/gamma.json", "shops/delta.json", "shops/broken.json"],
      serve: { status: { user: "${OPERATOR_USER}", password: "${OPERATOR_PASSWORD}" }, maxFeedAgeHours: 36 },
    },
    "config/channels/open.json": channel("shop-open"),
    "config/channels/basic.json": channel("shop-basic", { access: { mode: "basic", user: "${FEED_USER}", password: "${FEED_PASSWORD}" } }),
    "config/channels/token.json": channel("shop-token", { access: { mode: "token", token: "${ALPHA_TOKEN}" } }),
    "config/channels/extra.json": channel("shop-extra"),
    "config/shops/alpha.json": shopFile("Alpha <Pharma> & Co", ["../channels/open.json", "../channels/basic.json", "../channels/token.json"], { ...alphaStatus, ...webhook(hooks.alpha) }),
    "config/shops/beta.json": shopFile("Beta", ["../channels/open.json", { file: "../channels/token.json", access: { mode: "token", token: "${BETA_TOKEN}" } }], {
      serve: { status: { user: "${BETA_USER}", password: "${BETA_PASSWORD}" } },
    }),
    // No status credentials of its own: only the operator sees its page.
    "config/shops/gamma.json": shopFile("Gamma", ["../channels/open.json"], webhook(hooks.gamma)),
    // Added to the config, never run: no folder yet.
    "config/shops/delta.json": shopFile("Delta", ["../channels/open.json"]),
    "config/shops/broken.json": shopFile("Broken", ["../channels/missing.json"]),
  });
  out = join(root, "out");
  await publishAll(join(out, "alpha"), feeds("alpha", ["shop-open", "shop-basic", "shop-token"]));
  for (const name of ["shop-open", "shop-basic", "shop-token"]) {
    await publishFile(join(out, "alpha", "reports"), `${name}.csv`, Buffer.from("id,reason\n"));
    await publishFile(join(out, "alpha", "reports"), warningsReportName(name), Buffer.from("id,warning\n"));
  }
  await publishAll(join(out, "beta"), feeds("beta", ["shop-open", "shop-token"]));
  await publishAll(join(out, "gamma"), feeds("gamma", ["shop-open"]), new Date(Date.now() - 50 * HOUR));
  await publishAll(join(out, "broken"), feeds("broken", ["shop-open"]));
  ({ server } = await startServe({ config: join(root, "config/pharmafeed.json"), host: "127.0.0.1", port: 0 }, { env: ENV, logger: log.logger }));
});

afterAll(async () => {
  await server?.close(1000);
  await hooks?.alpha.close();
  await hooks?.gamma.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("many shops on one port", () => {
  it("serves each shop's feeds under its prefix, with that shop's access rules only", async () => {
    expect((await get("/alpha/feeds/shop-open.ndjson")).text).toContain("alpha:shop-open");
    expect((await get("/beta/feeds/shop-open.ndjson")).text).toContain("beta:shop-open");
    expect((await get("/alpha/feeds/shop-basic.ndjson")).status).toBe(401);
    expect((await get("/alpha/feeds/shop-basic.ndjson", AUTH.feed)).text).toContain("alpha:shop-basic");
    expect((await get(`/alpha/feeds/${ENV.ALPHA_TOKEN}/shop-token.ndjson`)).text).toContain("alpha:shop-token");
    expect((await get(`/beta/feeds/${ENV.BETA_TOKEN}/shop-token.ndjson`)).text).toContain("beta:shop-token");
    // One shop's token opens nothing of another's.
    expect((await get(`/beta/feeds/${ENV.ALPHA_TOKEN}/shop-token.ndjson`)).status).toBe(404);
    expect((await get(`/alpha/feeds/${ENV.BETA_TOKEN}/shop-token.ndjson`)).status).toBe(404);
    // Nothing at the root, nothing under a shop that is not one.
    expect((await get("/feeds/shop-open.ndjson")).status).toBe(404);
    expect((await get("/nope/feeds/shop-open.ndjson")).status).toBe(404);
    expect((await get("/nope/")).status).toBe(404);
  });

  it("keeps every path inside its shop: dot segments, encodings and case do not cross", async () => {
    for (const path of [
      "/alpha/../beta/feeds/shop-open.ndjson",
      "/alpha/%2e%2e/beta/feeds/shop-open.ndjson",
      "/alpha%2F..%2Fbeta/feeds/shop-open.ndjson",
      "/alpha/feeds/..%2F..%2Fbeta%2Fshop-open.ndjson",
      "/alpha/feeds/../../beta/feeds/shop-open.ndjson",
      "/ALPHA/feeds/shop-open.ndjson",
      "/beta/feeds/manifest.json",
      "//beta/feeds/shop-open.ndjson",
    ]) {
      const r = await get(path, AUTH.operator);
      expect(r.status, path).toBe(404);
      expect(r.text, path).not.toContain("shop-open");
    }
    const bare = await get("/alpha?lang=fr");
    expect(bare.status).toBe(308);
    expect(bare.headers["location"]).toBe("/alpha/?lang=fr");
  });

  it("gives each shop's status page to its own manager and the operator, never to another shop's", async () => {
    const none = await get("/alpha/");
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe('Basic realm="status alpha", charset="UTF-8"');
    const own = await get("/alpha/", AUTH.alpha);
    expect(own.status).toBe(200);
    expect(own.text).toContain("Alpha &lt;Pharma&gt; &amp; Co");
    expect((await get("/alpha/", AUTH.operator)).status).toBe(200);
    for (const path of ["/alpha/", "/alpha/?q=p1", "/alpha/status.js", "/alpha/status/reports/shop-open.csv"]) {
      expect((await get(path, AUTH.beta)).status, path).toBe(401);
    }
    expect((await get("/beta/", AUTH.alpha)).status).toBe(401);
    // Gamma has no credentials of its own: the operator only.
    expect((await get("/gamma/", AUTH.alpha)).status).toBe(401);
    expect((await get("/gamma/", AUTH.operator)).text).toContain("Gamma");
  });

  it("writes the page's links under the shop's prefix, and each of them answers", async () => {
    const page = (await get("/alpha/?lang=en", AUTH.alpha)).text;
    const links = [...page.matchAll(/(?:href|src|action)="(\/[^"]*)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
    expect(links.length).toBeGreaterThan(8);
    for (const l of links) expect(l, l).toMatch(/^\/alpha\//);
    expect(links).toContain("/alpha/status.js");
    expect(links).toContain("/alpha/status/reports/shop-basic.csv");
    expect(links).toContain("/alpha/?lang=fr");
    expect(page).toContain('action="/alpha/"');
    for (const l of new Set(links)) expect((await get(l, AUTH.alpha)).status, l).toBe(200);
    // The search answers under the prefix too (no index yet: the page says so, 200).
    expect((await get("/alpha/?q=p1&lang=en", AUTH.alpha)).status).toBe(200);
    // The feeds' URLs: the shop's public base, which this server answers.
    expect(page).toContain("https://feeds.example/alpha/feeds/shop-open.ndjson");
    expect(page).toContain("https://feeds.example/alpha/feeds/&lt;token&gt;/shop-token.ndjson");
  });

  it("shows the operator an overview of every shop, those that need someone first", async () => {
    expect((await get("/")).status).toBe(401);
    expect((await get("/", AUTH.alpha)).status).toBe(401);
    const r = await get("/", AUTH.operator);
    expect(r.status).toBe(200);
    expect(r.headers["content-security-policy"]).toContain("default-src 'none'");
    const order = [...r.text.matchAll(/<tr data-shop="([^"]+)" data-attention="(\w+)"/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(order).toEqual(["broken:yes", "gamma:yes", "delta:yes", "alpha:no", "beta:no"]);
    const row = (id: string) => r.text.slice(r.text.indexOf(`<tr data-shop="${id}"`), r.text.indexOf("</tr>", r.text.indexOf(`<tr data-shop="${id}"`)));
    expect(row("broken")).toMatch(/config refused: \/\S+: .*missing\.json/);
    expect(row("broken")).not.toContain(`href="/broken/"`);
    expect(row("gamma")).toMatch(/stale feeds: the newest feed is 50\.\d h old \(more than 36 h\)/);
    expect(row("alpha")).toContain(`<a href="/alpha/">Alpha &lt;Pharma&gt; &amp; Co</a>`);
    expect(row("alpha")).toContain("3 feeds");
    expect(row("alpha")).toContain(`data-run="ok"`);
    expect(row("beta")).toContain("2 feeds");
    expect(row("delta")).toContain("no run yet");
    expect(r.text).toContain("3 of 5 shops need attention");
  });

  it("/healthz and /monitor: per shop, and of all with the shops that need someone named", async () => {
    const all = await json("/healthz");
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ status: "refused", feedsServed: 6, attention: ["gamma", "delta", "broken"] });
    const shops = shopsOf(all.body);
    expect(shops["alpha"]).toMatchObject({ status: "ok", alert: false, feedsServed: 3, run: "ok" });
    expect(shops["gamma"]).toMatchObject({ status: "stale", alert: true, feedsServed: 1 });
    expect(shops["delta"]).toMatchObject({ status: "no-manifest", alert: true, feedsServed: 0 });
    expect(shops["broken"]).toMatchObject({ status: "refused", alert: true, config: "refused", feedsServed: 0 });
    // The refusal's text names files: not said to anyone who asks.
    expect(JSON.stringify(all.body)).not.toContain("missing.json");

    const monitor = await json("/monitor");
    expect(monitor.status).toBe(503);
    expect((monitor.body["alerts"] as { shop: string }[]).map((a) => a.shop)).toEqual(["gamma", "delta", "broken"]);
    expect(await json("/delta/monitor")).toMatchObject({ status: 503, body: { status: "no-manifest" } });
    expect((await get("/delta/feeds/shop-open.ndjson")).status).toBe(404);

    expect(await json("/alpha/healthz")).toMatchObject({ status: 200, body: { status: "ok", feedsServed: 3 } });
    expect((await json("/alpha/monitor")).status).toBe(200);
    expect(await json("/gamma/monitor")).toMatchObject({ status: 503, body: { status: "stale" } });
    expect(await json("/broken/healthz")).toMatchObject({ status: 503, body: { status: "refused", feedsServed: 0 } });
  });

  it("a refused shop: listed, its page and feeds 503 (its access rules are unknown), never served openly", async () => {
    const feed = await get("/broken/feeds/shop-open.ndjson");
    expect(feed.status).toBe(503);
    expect(feed.text).not.toContain("broken:shop-open");
    expect((await get("/broken/", AUTH.operator)).status).toBe(503);
    expect(log.lines().some((l) => l["msg"] === "shop not served: its config was refused" && l["shop"] === "broken")).toBe(true);
  });

  it("alerts stale feeds to the stale shop's own notify only", async () => {
    await server.checkStale();
    expect(hooks.gamma.received).toHaveLength(1);
    expect((hooks.gamma.received[0]!.body as { text: string }).text).toMatch(/^\*Gamma: feeds are stale\*/);
    expect(hooks.alpha.received).toHaveLength(0);
  });

  it("logs each request with its shop, and no shop's token in clear", async () => {
    await get(`/beta/feeds/${ENV.ALPHA_TOKEN}/shop-token.ndjson`);
    await get(`/nope/feeds/${ENV.BETA_TOKEN}/x.ndjson`);
    const lines = log.lines().filter((l) => String(l["msg"]).startsWith("GET "));
    expect(lines.some((l) => l["shop"] === "beta" && l["msg"] === "GET /beta/feeds/<token>/shop-token.ndjson")).toBe(true);
    const text = JSON.stringify(lines);
    expect(text).not.toContain(ENV.ALPHA_TOKEN);
    expect(text).not.toContain(ENV.BETA_TOKEN);
  });

  it("logs the body bytes sent of every answer: pages, reports, the overview, health, refusals (none for HEAD)", async () => {
    const asked: [string, Record<string, string>][] = [
      ["/", AUTH.operator],
      ["/alpha/", AUTH.alpha],
      ["/alpha/status.js", AUTH.alpha],
      ["/alpha/status/reports/shop-open.csv", AUTH.alpha],
      ["/healthz", {}],
      ["/monitor", {}],
      ["/alpha/healthz", {}],
      ["/gamma/monitor", {}],
      ["/beta/", AUTH.alpha],
      ["/alpha/feeds/shop-open.ndjson", {}],
    ];
    for (const [path, headers] of asked) {
      const { reply, line } = await askAndLog(server.url, log.lines, path, headers);
      expect(reply.body.length, path).toBeGreaterThan(0);
      expect(line["bytes"], path).toBe(reply.body.length);
    }
    expect((await askAndLog(server.url, log.lines, "/", AUTH.operator, "HEAD")).line["bytes"]).toBe(0);
  });

  it("reads a shop's config again when a run of that shop writes a new manifest; a refusal then keeps the rules known", async () => {
    const betaFile = join(root, "config/shops/beta.json");
    const beta = JSON.parse(await readFile(betaFile, "utf8")) as { channels: unknown[] };
    await writeFile(betaFile, JSON.stringify({ ...beta, channels: [...beta.channels, "../channels/extra.json"] }));
    await publishAll(join(out, "beta"), feeds("beta", ["shop-open", "shop-token", "shop-extra"]));
    expect((await get("/beta/feeds/shop-extra.ndjson")).text).toContain("beta:shop-extra");
    expect((await get("/alpha/feeds/shop-extra.ndjson")).status).toBe(401);

    const alphaFile = join(root, "config/shops/alpha.json");
    const alpha = await readFile(alphaFile, "utf8");
    await writeFile(alphaFile, "{ not json");
    try {
      await publishAll(join(out, "alpha"), feeds("alpha", ["shop-open", "shop-basic", "shop-token"]));
      expect((await get("/alpha/feeds/shop-basic.ndjson")).status).toBe(401);
      expect((await get("/alpha/feeds/shop-basic.ndjson", AUTH.feed)).status).toBe(200);
      const overview = (await get("/", AUTH.operator)).text;
      expect(overview).toContain("config refused when read again after a run");
      expect(shopsOf((await json("/healthz")).body)["alpha"]).toMatchObject({ config: "refused-on-reload" });
    } finally {
      await writeFile(alphaFile, alpha);
    }
    await publishAll(join(out, "alpha"), feeds("alpha", ["shop-open", "shop-basic", "shop-token"]));
    expect((await get("/alpha/feeds/shop-open.ndjson")).status).toBe(200);
    expect(shopsOf((await json("/healthz")).body)["alpha"]).not.toHaveProperty("config");
  });
});

describe("in a browser", () => {
  it("a shop's page loads its script and everything else under its prefix; the overview links it", async (context) => {
    const launched = await launchChromium();
    if ("why" in launched) return context.skip(launched.why);
    const { browser } = launched;
    try {
      const page = await (await browser.newContext({ httpCredentials: { username: ENV.OPERATOR_USER, password: ENV.OPERATOR_PASSWORD } })).newPage();
      const asked: string[] = [];
      const problems: string[] = [];
      page.on("request", (r) => asked.push(new URL(r.url()).pathname));
      page.on("response", (r) => void (r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`)));
      page.on("console", (m) => void (m.type() === "error" && problems.push(m.text())));
      expect((await page.goto(`${server.url}/`))?.status()).toBe(200);
      await page.screenshot({ path: join(tmpdir(), "pharmafeed-shops-overview.png"), fullPage: true });
      await page.click('a[href="/alpha/"]');
      await page.waitForLoadState("load");
      expect(new URL(page.url()).pathname).toBe("/alpha/");
      await page.click('a[lang="fr"]');
      await page.waitForLoadState("load");
      await page.fill("#q", "p1");
      await page.press("#q", "Enter");
      await page.waitForLoadState("load");
      expect(new URL(page.url()).pathname).toBe("/alpha/");
      expect(new URL(page.url()).searchParams.get("q")).toBe("p1");
      expect(asked).toContain("/alpha/status.js");
      for (const path of asked) expect(path === "/" || path.startsWith("/alpha/"), path).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe("a shop whose folder real generate runs wrote", () => {
  it("answers every link of its page under the prefix: reports, changes, language, and the search from its index", async () => {
    const sandbox = await startSandbox({ products: 60, seed: 7, rateLimit: 100_000 });
    const env = { ...ENV, CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
    const main = JSON.parse(await readFile(join(root, "config/pharmafeed.json"), "utf8")) as Record<string, unknown>;
    const runFile = join(root, "config/real-run.json");
    const { shops: _, serve: __, ...one } = main;
    // What a one-shop config of this shop writes, twice: history, reports, the explain index, changes.
    await writeFile(runFile, JSON.stringify({ ...one, source: { ...(main["source"] as object), keyId: "${CATALOGUE_API_KEY_ID}", keySecret: "${CATALOGUE_API_KEY_SECRET}" }, output: { dir: "../out/real" }, channels: ["channels/open.json", "channels/basic.json", "channels/token.json"] }));
    // Its own secrets over the shared channel files: serve refuses two shops behind one secret (test/serve/shops-secrets.test.ts).
    const own = [
      "../channels/open.json",
      { file: "../channels/basic.json", access: { mode: "basic", user: "real-feeds", password: "real-feed-password-1" } },
      { file: "../channels/token.json", access: { mode: "token", token: "tok_real_0a1b2c3d4e5f6a7b8c9d0e1f" } },
    ];
    await writeFile(join(root, "config/shops/real.json"), JSON.stringify(shopFile("Réelle", own)));
    const file = join(root, "config/real-main.json");
    await writeFile(file, JSON.stringify({ ...main, shops: ["shops/real.json", "shops/alpha.json"] }));
    let real: FeedServer | undefined;
    try {
      // The first run's titles cut short, so that the second publishes another file: a card says what changed since a previous version only when there is one.
      for (let i = 0; i < 2; i++) {
        const config = await loadConfig(runFile, { env });
        if (i === 0) for (const channel of config.channels) channel.mapping.title.maxLength = 20;
        await runGenerate({ config, logger: memoryLogger().logger });
      }
      real = (await startServe({ config: file, host: "127.0.0.1", port: 0 }, { env, logger: memoryLogger().logger })).server;
      const at = (path: string) => fetchRaw(real!.url, path, AUTH.operator);
      const page = (await at("/real/?lang=en")).body.toString();
      const links = [...new Set([...page.matchAll(/(?:href|src|action)="(\/[^"]*)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&")))];
      expect(links.filter((l) => l.includes("/status/changes/"))).toHaveLength(3);
      for (const l of links) {
        expect(l, l).toMatch(/^\/real\//);
        expect((await at(l)).status, l).toBe(200);
      }
      expect((await at("/real/status/changes/shop-open")).body.toString()).toContain("shop-open");
      const first = JSON.parse((await fetchRaw(real.url, "/real/feeds/shop-open.ndjson")).body.toString().split("\n")[0]!) as { id: string };
      const found = (await at(`/real/?lang=en&q=${encodeURIComponent(first.id)}`)).body.toString();
      expect(found).toContain(`<strong>shop-open</strong>: <span class="ok">`);
      // Alpha's manager gets nothing of it.
      expect((await fetchRaw(real.url, `/real/?q=${encodeURIComponent(first.id)}`, AUTH.alpha)).status).toBe(401);
    } finally {
      await real?.close(1000);
      await sandbox.close();
    }
  });
});

describe("monitor of many shops", () => {
  it("answers 200 while every shop is fresh, 503 naming the one that goes stale", async () => {
    const main = JSON.parse(await readFile(join(root, "config/pharmafeed.json"), "utf8")) as Record<string, unknown>;
    const file = join(root, "config/fresh.json");
    await writeFile(file, JSON.stringify({ ...main, shops: ["shops/alpha.json", "shops/beta.json"] }));
    const { server: fresh } = await startServe({ config: file, host: "127.0.0.1", port: 0 }, { env: ENV, logger: memoryLogger().logger });
    try {
      expect((await fetchRaw(fresh.url, "/monitor")).status).toBe(200);
      await publishAll(join(out, "beta"), feeds("beta", ["shop-open", "shop-token", "shop-extra"]), new Date(Date.now() - 40 * HOUR));
      const r = await fetchRaw(fresh.url, "/monitor");
      expect(r.status).toBe(503);
      const body = JSON.parse(r.body.toString("utf8")) as { alerts: { shop: string; status: string }[] };
      expect(body.alerts).toEqual([expect.objectContaining({ shop: "beta", status: "stale" })]);
    } finally {
      await fresh.close(1000);
    }
  });
});

describe("a shop refused when serve started", () => {
  it("is served once its file is fixed and a run of it writes a new manifest; a fix that shares another shop's token stays refused", async () => {
    const tree = await writeTree({
      "config/pharmafeed.json": {
        source: { baseUrl: "https://api.catalogue.example", keyId: "${TEST_KEY_ID}", keySecret: "${TEST_KEY_SECRET}", contact: "feeds@pharmacy.example" },
        shop: { name: "Groupe", url: "https://groupe.example" },
        output: { dir: "../out", publicBaseUrl: "https://feeds.example" },
        shops: ["shops/alpha.json", "shops/late.json"],
        serve: { status: { user: "${OPERATOR_USER}", password: "${OPERATOR_PASSWORD}" } },
      },
      "config/channels/open.json": channel("shop-open"),
      "config/channels/token.json": channel("shop-token", { access: { mode: "token", token: "${ALPHA_TOKEN}" } }),
      "config/shops/alpha.json": shopFile("Alpha", ["../channels/open.json", "../channels/token.json"]),
      "config/shops/late.json": shopFile("Late", ["../channels/missing.json"]),
    });
    const dir = join(tree, "out");
    await publishAll(join(dir, "alpha"), feeds("alpha", ["shop-open", "shop-token"]));
    await publishAll(join(dir, "late"), feeds("late", ["shop-open"]));
    const logged = memoryLogger();
    const { server: served } = await startServe({ config: join(tree, "config/pharmafeed.json"), host: "127.0.0.1", port: 0 }, { env: ENV, logger: logged.logger });
    const at = async (path: string, headers: Record<string, string> = {}) => {
      const r = await fetchRaw(served.url, path, headers);
      return { status: r.status, text: r.body.toString("utf8") };
    };
    /** Asks until `ok` holds: the config is read again after the request that finds the new manifest. Gives up after 1,000 answers, not at a time. */
    const until = async (path: string, ok: (r: { status: number; text: string }) => boolean) => {
      for (let asked = 0; asked < 1000; asked++) {
        const r = await at(path, AUTH.operator);
        if (ok(r)) return r;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`${path}: never answered as expected`);
    };
    try {
      expect((await at("/late/healthz")).status).toBe(503);
      expect((await at("/late/feeds/shop-open.ndjson")).status).toBe(503);

      // Fixed, but with a channel whose token is alpha's: alpha's merchant would open late's feed. Still refused, saying why.
      await writeFile(join(tree, "config/shops/late.json"), JSON.stringify(shopFile("Late", ["../channels/open.json", "../channels/token.json"])));
      await publishAll(join(dir, "late"), feeds("late", ["shop-open", "shop-token"]));
      await at("/late/healthz");
      const overview = await until("/", (r) => !r.text.includes("missing.json"));
      expect(overview.text).toContain("channels (shop-token).access.token: the same secret as shop alpha&#39;s channel shop-token");
      expect(logged.lines().some((l) => l["msg"] === "shop still not served: its config is refused" && l["shop"] === "late")).toBe(true);
      expect((await at("/late/feeds/shop-open.ndjson")).status).toBe(503);
      expect((await at(`/late/feeds/shop-token.ndjson?token=${ENV.ALPHA_TOKEN}`)).status).toBe(503);

      // Fixed for good: its next run's manifest has it served, with its own rules.
      await writeFile(join(tree, "config/shops/late.json"), JSON.stringify(shopFile("Late", ["../channels/open.json"])));
      await publishAll(join(dir, "late"), feeds("late", ["shop-open"]));
      await until("/late/healthz", (r) => r.status === 200);
      const feed = await at("/late/feeds/shop-open.ndjson");
      expect(feed.status).toBe(200);
      expect(feed.text).toContain("late:shop-open");
      expect(logged.lines().some((l) => l["msg"] === "shop served: its config loads now" && l["shop"] === "late")).toBe(true);
      expect(JSON.parse((await at("/healthz")).text)).toMatchObject({ status: "ok" });
    } finally {
      await served.close(1000);
      await rm(tree, { recursive: true, force: true });
    }
  });
});

describe("a refused shop whose name is no shop key (the library, whatever the config allows)", () => {
  it("is listed as refused; no folder is made or read for it", async () => {
    const evil = await startShopsServer({ outputDir: out, shops: [], refused: [{ id: "../evil", error: "configuration refused (1 problem):\n  evil.json: name: bad" }], operator: { user: "op", password: ENV.OPERATOR_PASSWORD }, port: 0 });
    try {
      const overview = (await fetchRaw(evil.url, "/", { Authorization: basic("op", ENV.OPERATOR_PASSWORD) })).body.toString();
      expect(overview).toContain(`<tr data-shop="../evil" data-attention="yes">`);
      expect(overview).toContain("config refused: evil.json: name: bad");
      expect(existsSync(join(root, "evil"))).toBe(false);
      expect(shopsOf(JSON.parse((await fetchRaw(evil.url, "/healthz")).body.toString()) as Record<string, unknown>)["../evil"]).toMatchObject({ status: "refused" });
      expect((await fetchRaw(evil.url, "/../evil/feeds/shop-open.ndjson")).status).toBe(404);
    } finally {
      await evil.close(1000);
    }
  });
});

describe("a config without shops", () => {
  it("is served at the root as it always was", async () => {
    const file = join(root, "config/one.json");
    await writeFile(
      file,
      JSON.stringify({
        source: { baseUrl: "https://api.catalogue.example", keyId: "${TEST_KEY_ID}", keySecret: "${TEST_KEY_SECRET}", contact: "feeds@pharmacy.example" },
        shop: { name: "Solo", url: "https://solo.example" },
        output: { dir: "../out/alpha" },
        channels: ["channels/open.json"],
        serve: { status: { user: "${ALPHA_USER}", password: "${ALPHA_PASSWORD}" } },
      }),
    );
    const { server: one } = await startServe({ config: file, host: "127.0.0.1", port: 0 }, { env: ENV, logger: memoryLogger().logger });
    try {
      expect((await fetchRaw(one.url, "/feeds/shop-open.ndjson")).body.toString()).toContain("alpha:shop-open");
      const page = (await fetchRaw(one.url, "/", AUTH.alpha)).body.toString();
      expect(page).toContain('<script src="/status.js" defer>');
      expect((await fetchRaw(one.url, "/alpha/feeds/shop-open.ndjson")).status).toBe(404);
    } finally {
      await one.close(1000);
    }
  });
});
