/**
 * The status page after a good run, a gated run, a refused offers file and a failed catalogue
 * read, in English, French and Dutch, at 1280 and 400 px, in headless Chromium (Debian's, driven
 * by playwright-core): it leads with what marketplaces get now, puts the served figures beside
 * the run's (labelled), draws a failed run as failed, shows no English word on a French or Dutch
 * page outside names and codes (the technical text is one click away, in a closed <details>),
 * needs no sideways scrolling on a phone and has no serious axe violation. Screenshots in
 * test-results/status-page/. Skipped, saying why, when Chromium cannot run here.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { readManifest } from "../../src/publish/manifest.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import type { FeedServer } from "../../src/serve/server.js";
import { WORDS } from "../../src/serve/status/i18n.js";
import { fill, RUN_WORDS } from "../../src/publish/run-words.js";
import { ROOT } from "../e2e/cli.js";
import { removeTemporaries, writeConfig, type E2eConfig } from "../e2e/config.js";
import { catalogueFacts } from "../e2e/oracle.js";
import { CHROMIUM, hasChromium, launchChromium } from "./chromium.js";
import { SECRETS, serve } from "./helpers.js";

const SHOTS = join(ROOT, "test-results", "status-page");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const SEED = 7;
const link = { template: "https://shop.example/p/{{id}}" };
const LANGS = ["en", "fr", "nl"] as const;

let sandbox: SandboxHandle;
let tree: E2eConfig;
let server: FeedServer;
let browser: Browser | undefined;
let why = hasChromium() ? "" : `${CHROMIUM} is missing (apt-get install -y chromium)`;
let offersFile: string;
let goodOffers: string;

/** Every fragment of a table of words (placeholders cut out), at least 5 characters long. */
function fragments(words: unknown): string[] {
  if (typeof words === "string") return words.split(/\{\w+\}|<token>/).map((f) => f.trim()).filter((f) => f.length >= 5);
  if (words && typeof words === "object") return Object.values(words).flatMap(fragments);
  return [];
}

/** English fragments that a French or Dutch page must not show (those its own table shares are allowed: "Online"). */
function englishFor(lang: "fr" | "nl"): string[] {
  const own = fragments([WORDS[lang], RUN_WORDS[lang]]);
  return [...new Set(fragments([WORDS.en, RUN_WORDS.en]))].filter((f) => !own.some((o) => o.includes(f)));
}

const COMMON_ENGLISH = { fr: /\b(the|was|were|and|with|from|items|feeds)\b/i, nl: /\b(the|were|and|with|from|items)\b/i };

async function env(s: SandboxHandle | { url: string; keyId: string; keySecret: string }) {
  return { CATALOGUE_API_BASE_URL: s.url, CATALOGUE_API_KEY_ID: s.keyId, CATALOGUE_API_KEY_SECRET: s.keySecret, ...SECRETS };
}

async function generate(s: SandboxHandle | { url: string; keyId: string; keySecret: string }): Promise<void> {
  const config = await loadConfig(tree.configFile, { env: await env(s) });
  const fast = { ...config, source: { ...config.source!, retry: { maxRetries: 0, baseMs: 1, maxMs: 1, jitter: "none" as const } } };
  await runGenerate({ config: fast, logger: silentLogger }).catch(() => undefined);
}

async function open(lang: string, width: number): Promise<Page> {
  const context = await browser!.newContext({ viewport: { width, height: 800 }, httpCredentials: { username: SECRETS.STATUS_USER, password: SECRETS.STATUS_PASSWORD } });
  const page = await context.newPage();
  expect((await page.goto(`${server.url}/?lang=${lang}`))?.status()).toBe(200);
  return page;
}

/** The words a shop manager reads: the page's visible text without codes, file names and the closed technical details. */
async function readable(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    const body = document.body.cloneNode(true);
    body.querySelectorAll("code, details.tech > code, h2 small, svg").forEach((n) => n.remove());
    body.querySelectorAll("h2, strong").forEach((n) => { if (/^[a-z0-9-]+$/.test(n.textContent.trim())) n.remove(); });
    document.body.after(body); const text = body.innerText; body.remove(); return text;
  })()`);
}

async function serious(page: Page): Promise<{ id: string; impact: string }[]> {
  await page.evaluate(await readFile(AXE, "utf8"));
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }).axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

type Lang = (typeof LANGS)[number];
/** Every language at both widths: the good run, where the page's whole layout and wording are first met. */
const GRID: [Lang, number][] = LANGS.flatMap((lang) => [1280, 400].map((width): [Lang, number] => [lang, width]));
/**
 * Each language once and each width once: enough for a scenario's own blocks (the words it adds in
 * every language, the phone layout of what it adds), as the grid of the good run already shows the
 * rest; half the pages (18 -> 9 over the three scenarios), axe still on every language.
 */
const EACH_ONCE: [Lang, number][] = [["en", 1280], ["fr", 400], ["nl", 1280]];

/** No English on FR/NL, no sideways scrolling, what is online on the phone's first screen, axe. */
async function everyLanguage(
  scenario: string,
  check: (text: string, lang: Lang, page: Page) => void | Promise<void>,
  pages: [Lang, number][] = EACH_ONCE,
): Promise<void> {
  for (const [lang, width] of pages) {
    const page = await open(lang, width);
    const text = await readable(page);
    expect(text).not.toContain("productsnone");
    if (lang !== "en") {
      expect(englishFor(lang).filter((f) => text.includes(f)), `${scenario} ${lang}`).toEqual([]);
      expect(text, `${scenario} ${lang}`).not.toMatch(COMMON_ENGLISH[lang]);
    }
    if (width === 400) {
      expect(await page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBeLessThanOrEqual(0);
      const online = await page.locator("#online-h").boundingBox();
      expect(online!.y).toBeLessThan(800);
    }
    await check(text, lang, page);
    await page.screenshot({ path: join(SHOTS, `${scenario}-${lang}-${width}.png`), fullPage: true });
    // axe once per language, the French page on the phone.
    if ((width === 1280) !== (lang === "fr")) expect(await serious(page), `${scenario} ${lang} ${width}`).toEqual([]);
    await page.context().close();
  }
}

beforeAll(async () => {
  if (why) return;
  const launched = await launchChromium();
  if ("why" in launched) {
    why = launched.why;
    return;
  }
  browser = launched.browser;
  sandbox = await startSandbox({ products: 150, seed: SEED, rateLimit: 100_000 });
  tree = await writeConfig({
    channels: [
      { name: "google-fr", preset: "google", locale: "fr", link, gate: { maxRejectedPercent: 100 } },
      { name: "generic-ndjson-fr", preset: "generic-ndjson", locale: "fr", link, gate: { maxRejectedPercent: 100, maxDropPercent: 100 } },
    ],
    main: { serve: { status: { user: "${STATUS_USER}", password: "${STATUS_PASSWORD}" } }, offers: { file: "offers.csv" } },
  });
  offersFile = join(tree.root, "config", "offers.csv");
  const ids = catalogueFacts({ seed: SEED, products: 150, now: new Date() }).streamIds;
  goodOffers = ["id;price;quantity", ...ids.map((id, i) => `${id};${(i % 40) + 1},99;3`)].join("\n") + "\n";
  await writeFile(offersFile, goodOffers);
  await generate(sandbox);
  server = await serve(await loadConfig(tree.configFile, { env: await env(sandbox), serve: true, checkCredentials: false }), { configFile: tree.configFile });
  await mkdir(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close(1000);
  await sandbox?.close();
  await removeTemporaries();
});

describe("the status page says what marketplaces get, in the reader's language", () => {
  it("after a good run", async (context) => {
    if (why) return context.skip(why);
    await everyLanguage(
      "good",
      (text, lang) => {
        expect(text).toContain(RUN_WORDS[lang].onlineCount.replace("{n}", "2").replace("{total}", "2"));
        expect(text).toContain(WORDS[lang].state.ok);
      },
      GRID,
    );
  }, 240_000);

  it("after a gated run: the online file's figures beside the run's, labelled not published", async (context) => {
    if (why) return context.skip(why);
    const smaller = await startSandbox({ products: 60, seed: SEED, rateLimit: 100_000 });
    try {
      await generate(smaller);
    } finally {
      await smaller.close();
    }
    const google = (await readManifest(tree.outputDir))!.channels.find((c) => c.name === "google-fr")!;
    expect(google.published).toMatch(/^gate: items dropped/);
    await everyLanguage("gated", async (text, lang, page) => {
      const w = WORDS[lang];
      const r = RUN_WORDS[lang];
      expect(text).toContain(`${google.live!.items} ${w.items}`);
      expect(text).toContain(`${google.items} ${w.items} · ${w.notPublished}`);
      expect(text).toContain(`${r.leftOutByRun} (${r.notPublishedShort})`);
      expect(text).toContain(`${google.live!.items} → ${google.items} ${w.items} (−`);
      expect(text).toContain(r.whySome);
      // The chart's "now" is what is online; the held run's count is said apart (34.3).
      expect(text).toContain(fill(r.chart.caption, { n: 2, now: google.live!.items, min: google.items, max: google.live!.items }) + ", " + fill(r.chart.lastRun, { last: google.items }));
      // What to do, where the manager looks, with the complete command (34.5).
      expect(text).toContain(r.whatToDo);
      expect(await page.locator("p.next code").allTextContents()).toContain(`pharmafeed generate --channel google-fr --force --config ${tree.configFile}`);
    });
  }, 240_000);

  it("after a refused offers file: the refused file's own figures and a link to its rows, the online feeds' offers apart", async (context) => {
    if (why) return context.skip(why);
    await writeFile(offersFile, ["EAN;Prix;Stock", ...Array.from({ length: 40 }, (_, i) => `3400930000014;${i + 1},50;${i}`)].join("\n") + "\n");
    await generate(sandbox);
    const m = (await readManifest(tree.outputDir))!;
    expect(m.error?.code).toBe("OFFERS_REFUSED");
    expect(m.offersRefused).toMatchObject({ rows: 40, accepted: 0 });
    await everyLanguage("offers-refused", (text, lang) => {
      const r = RUN_WORDS[lang];
      const w = WORDS[lang];
      expect(text).toContain(`${r.offersRun}: ${r.offersRefusedRun}`);
      // Rows counted as rows, problems apart (34.3): 40 rows, none accepted, 40 refused; the online feeds' file in full.
      expect(text).toContain(`${fill(w.offersRows, { rows: 40, accepted: 0, refused: 40 })} · ${fill(m.offersRefused!.refused === 1 ? w.offersProblems.one : w.offersProblems.other, { n: m.offersRefused!.refused })}`);
      const online = m.offers!;
      expect(text).toContain(`${r.offersOnline}: ${fill(w.offersRows, { rows: online.rows!, accepted: online.rowsAccepted!, refused: online.rows! - online.rowsAccepted! })}`);
      expect(text).toContain(r.error.OFFERS_REFUSED!);
    });
    const page = await open("en", 1280);
    expect(await page.locator('a[href="/status/reports/_offers.csv"]').count()).toBe(1);
    await page.context().close();
    await writeFile(offersFile, goodOffers);
  }, 240_000);

  it("after a failed catalogue read: failed, the feeds online still lead, the chart draws the run as failed", async (context) => {
    if (why) return context.skip(why);
    const dead = await startSandbox({ products: 10, seed: 1 });
    const gone = { url: dead.url, keyId: dead.keyId, keySecret: dead.keySecret };
    await dead.close();
    await generate(gone);
    expect((await readManifest(tree.outputDir))!.error?.code).toBe("SOURCE_NETWORK");
    await everyLanguage("failed", (text, lang) => {
      expect(text).toContain(WORDS[lang].state.failed);
      expect(text).toContain(RUN_WORDS[lang].runOnline);
      expect(text).toContain(RUN_WORDS[lang].error.SOURCE_NETWORK!);
    });
    const page = await open("fr", 400);
    // The parser's and the server's text is one click away, not the first screen.
    expect(await page.locator("details.tech code").first().isVisible()).toBe(false);
    expect(await page.locator("svg title", { hasText: RUN_WORDS.fr.chart.failed }).count()).toBeGreaterThan(0);
    await page.context().close();
  }, 240_000);
  it("recovered after the failed run: ok in every language, nothing to do", async (context) => {
    if (why) return context.skip(why);
    await generate(sandbox);
    expect((await readManifest(tree.outputDir))!.status).toBe("ok");
    await everyLanguage(
      "recovered",
      (text, lang) => {
        expect(text).toContain(WORDS[lang].state.ok);
        expect(text).not.toContain(RUN_WORDS[lang].whatToDo);
      },
    );
  }, 240_000);

  it("a feed held under its old name while every feed is published: no contradiction, and the exact --retire command", async (context) => {
    if (why) return context.skip(why);
    const file = join(tree.root, "config", "channels", "generic-ndjson-fr.json");
    const original = await readFile(file, "utf8");
    await writeFile(file, JSON.stringify({ ...(JSON.parse(original) as object), name: "generic-ndjson-be" }));
    try {
      await generate(sandbox);
      const m = (await readManifest(tree.outputDir))!;
      expect([m.status, m.problems?.map((p) => p.channel)]).toEqual(["degraded", ["generic-ndjson-fr"]]);
      await everyLanguage(
        "held-old-name",
        async (text, lang, page) => {
          const w = WORDS[lang];
          const r = RUN_WORDS[lang];
          expect(text).toContain(w.state.attention);
          expect(text).not.toContain(w.state.degraded);
          expect(text).toContain(r.attention);
          expect(text).not.toContain(r.whySome);
          expect(text).not.toContain(r.whyNot);
          expect(text).toContain(`2 ${w.of} 2 ${w.feedsPublished}`);
          expect(await page.locator("p.next code").allTextContents()).toEqual([`pharmafeed generate --retire generic-ndjson-fr --config ${tree.configFile}`]);
        },
      );
    } finally {
      await writeFile(file, original);
    }
  }, 240_000);
});
