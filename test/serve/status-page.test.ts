/**
 * The status page and the fetch state: behind its own credentials, every
 * channel with its numbers, gate state, last fetch per marketplace (kept
 * across a restart) and chart; hostile text escaped; rendered in headless
 * Chromium (skipped with a message when /usr/bin/chromium is missing).
 */
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { startSandbox } from "../../src/sandbox/index.js";
import type { FeedServer } from "../../src/serve/server.js";
import { dumpDom, hasChromium, screenshot } from "./chromium.js";
import { basic, CHANNELS, fetchRaw, makeFixture, SECRETS, serve, type Fixture } from "./helpers.js";
import { SERVE_STATE_FILE } from "../../src/core/layout.js";

let fx: Fixture;
let server: FeedServer;
const AUTH = { Authorization: basic(SECRETS.STATUS_USER, SECRETS.STATUS_PASSWORD) };
const HOSTILE_UA = `Googlebot/2.1 "><script>alert(1)</script><img src=x onerror=alert(2)>`;
export const SCREENSHOT = join(tmpdir(), "pharmafeed-status-page.png");

/** A DNS stub: 127.0.0.1 is one of Google's crawlers (reverse and forward agree), so Googlebot from here is verified. */
const GOOGLE_DNS = {
  reverse: async (ip: string) => (ip.endsWith("127.0.0.1") ? ["crawl-127-0-0-1.googlebot.com"] : []),
  forward: async (host: string) => (host === "crawl-127-0-0-1.googlebot.com" ? ["127.0.0.1"] : []),
};

beforeAll(async () => {
  // google-fr has a tight drop gate (5%), so the third run (a smaller catalogue) is not published there.
  const channels = CHANNELS.map((c) => (c.name === "google-fr" ? { ...c, gate: { maxRejectedPercent: 100, maxDropPercent: 5 } } : c));
  fx = await makeFixture({ products: 150, channels });
  await fx.generate();
  const smaller = await startSandbox({ products: 100, seed: 3, rateLimit: 100_000 });
  try {
    const env = { ...fx.env, CATALOGUE_API_BASE_URL: smaller.url, CATALOGUE_API_KEY_ID: smaller.keyId, CATALOGUE_API_KEY_SECRET: smaller.keySecret };
    await runGenerate({ config: await loadConfig(fx.tree.configFile, { env }), logger: silentLogger });
  } finally {
    await smaller.close();
  }
  server = await serve(fx.config, { resolver: GOOGLE_DNS });
  // Marketplace fetches, one with a hostile user agent.
  await fetchRaw(server.url, "/feeds/google-fr.xml", { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });
  await fetchRaw(server.url, "/feeds/meta-fr.csv", { "User-Agent": "facebookexternalhit/1.1", ...{ Authorization: basic(SECRETS.FEED_USER, SECRETS.FEED_PASSWORD) } });
  await fetchRaw(server.url, "/feeds/meta-fr.csv", { "User-Agent": "bingbot/2.0" });
  await fetchRaw(server.url, `/feeds/${SECRETS.FEED_TOKEN}/idealo-fr.csv`, { "User-Agent": "idealo-bot" });
  await fetchRaw(server.url, "/feeds/generic-ndjson-fr.ndjson", { "User-Agent": HOSTILE_UA });
  await fetchRaw(server.url, "/feeds/generic-ndjson-fr.ndjson", { "User-Agent": "curl/8.0" });
});
afterAll(async () => {
  await server?.close(1000);
  await fx?.close();
});

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("access to the status page", () => {
  it("asks for its own credentials", async () => {
    const none = await fetchRaw(server.url, "/");
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe('Basic realm="status", charset="UTF-8"');
    expect((await fetchRaw(server.url, "/", { Authorization: basic(SECRETS.STATUS_USER, "wrong") })).status).toBe(401);
    expect(none.body.toString("utf8")).not.toContain("google-fr");
  });
  it("is not served at all without serve.status in the config", async () => {
    const { status: _omit, ...serveSection } = fx.config.serve;
    const bare = await serve({ ...fx.config, serve: serveSection });
    try {
      expect((await fetchRaw(bare.url, "/", AUTH)).status).toBe(404);
    } finally {
      await bare.close(1000);
    }
  });
});

describe("what it shows", () => {
  let html = "";
  beforeAll(async () => {
    const r = await fetchRaw(server.url, "/", AUTH);
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(r.headers["content-security-policy"]).toContain("default-src 'none'");
    html = r.body.toString("utf8");
  });

  it("every channel, with the gate state of the last run", () => {
    for (const name of ["google-fr", "meta-fr", "idealo-fr", "generic-ndjson-fr"]) expect(html).toContain(`<h2>${name} `);
    expect(html).toMatch(/Not published<\/span> <span class="reason">\d+ → \d+ items \(−[\d.]+ %\), a bigger drop than the \d+ % allowed<\/span><details class="tech"><summary>Technical detail<\/summary><code>gate: items dropped/);
    expect(html.match(/class="ok">Published/g)?.length).toBe(3);
  });

  it("the last fetch per marketplace, not the other agents; credited only when verified (Google's DNS check)", () => {
    expect(html).toMatch(/Google: <time/);
    const unverified = '<span class="muted">(unverified)</span>';
    expect(html).toMatch(new RegExp(`Meta ${escapeRe(unverified)}: <time[^]*?<span class="ok">downloaded</span> <span class="muted">\\(200\\)`));
    expect(html).toMatch(new RegExp(`Microsoft ${escapeRe(unverified)}: <time[^]*?<span class="bad">refused: wrong or missing password</span> <span class="muted">\\(401\\)`));
    expect(html).toContain(`idealo ${unverified}: <time`);
    expect(html).not.toContain("curl/8.0");
  });

  it("escapes everything: the shop name, a hostile user agent; no secret on the page", () => {
    expect(html).toContain("Pharmacie &lt;Test&gt; &amp; Fils");
    // The one script is /status.js (CSP script-src 'self'): nothing inline, nothing from a text.
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="/status.js" defer>']);
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    for (const secret of Object.values(SECRETS).filter((s) => s.length > 10)) expect(html).not.toContain(secret);
  });

  it("a chart of the item counts of the 3 runs per channel", () => {
    const charts = html.match(/<polyline[^>]*points="([^"]+)"/g) ?? [];
    expect(charts.length).toBe(4);
    for (const chart of charts) expect(/points="([^"]+)"/.exec(chart)![1]!.split(" ").length).toBe(3);
    expect(html).toContain("Items in the last 3 runs");
  });
});

describe("fetch state", () => {
  it("is saved to serve-state.json and read back after a restart", async () => {
    await server.close(1000);
    const saved = JSON.parse(await readFile(join(fx.config.outputDir, SERVE_STATE_FILE), "utf8")) as { fetches: Record<string, Record<string, { status: number }>> };
    expect(saved.fetches["google-fr"]?.["google"]?.status).toBe(200);
    expect(saved.fetches["meta-fr"]?.["microsoft:unverified"]?.status).toBe(401);
    server = await serve(fx.config);
    const html = (await fetchRaw(server.url, "/", AUTH)).body.toString("utf8");
    expect(html).toMatch(/Google: <time/);
    expect(html).toContain('idealo <span class="muted">(unverified)</span>: <time');
  });
});

describe.skipIf(!hasChromium())("in headless Chromium", () => {
  it("renders the page (DOM and a screenshot that is not blank)", async () => {
    const url = new URL(server.url);
    const withCredentials = `http://${SECRETS.STATUS_USER}:${encodeURIComponent(SECRETS.STATUS_PASSWORD)}@${url.host}/`;
    const dom = await dumpDom(withCredentials);
    expect(dom).toContain("google-fr");
    expect(dom).toContain("Pharmacie &lt;Test&gt; &amp; Fils: product feeds");
    expect(dom.match(/<script[^>]*>/gi)).toEqual(['<script src="/status.js" defer="">']);
    await screenshot(withCredentials, SCREENSHOT);
    const { width, height } = await sharp(SCREENSHOT).metadata();
    expect([width, height]).toEqual([1280, 1000]);
    const stats = await sharp(SCREENSHOT).stats();
    // A blank or error page is one colour; the page has text, cards and charts.
    expect(stats.channels[0]!.stdev).toBeGreaterThan(10);
  });
});

if (!hasChromium()) {
  describe("in headless Chromium", () => {
    it.skip("skipped: /usr/bin/chromium is missing (apt-get install chromium; .ci/run installs it)", () => {});
  });
}
