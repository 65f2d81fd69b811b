/**
 * The status page as a shop manager uses it, in headless Chromium (Debian's,
 * driven by playwright-core): open the page, search a product that Google left
 * out and read why; screenshots at 1280 and 400 px into test-results/status-page/;
 * axe-core finds no serious or critical accessibility violation; no sideways
 * scrolling at 400 px. Skipped, saying why, when Chromium cannot run here.
 */
import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FeedServer } from "../../src/serve/server.js";
import { ROOT } from "../e2e/cli.js";
import { CHROMIUM, hasChromium, launchChromium } from "./chromium.js";
import { makeFixture, SECRETS, serve, type Fixture } from "./helpers.js";

const SHOTS = join(ROOT, "test-results", "status-page");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let fx: Fixture;
let server: FeedServer;
let browser: Browser | undefined;
let why = hasChromium() ? "" : `${CHROMIUM} is missing (apt-get install -y chromium)`;

beforeAll(async () => {
  if (why) return;
  const launched = await launchChromium();
  if ("why" in launched) {
    why = launched.why;
    return;
  }
  browser = launched.browser;
  fx = await makeFixture({ products: 150 });
  server = await serve(fx.config, { publicBaseUrl: "https://feeds.pharmacie.example" });
  await mkdir(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close(1000);
  await fx?.close();
});

async function openPage(width: number): Promise<Page> {
  const context = await browser!.newContext({
    viewport: { width, height: 900 },
    httpCredentials: { username: SECRETS.STATUS_USER, password: SECRETS.STATUS_PASSWORD },
    locale: "en-GB",
  });
  const page = await context.newPage();
  const response = await page.goto(`${server.url}/`);
  expect(response?.status()).toBe(200);
  return page;
}

async function seriousViolations(page: Page): Promise<{ id: string; impact: string; nodes: number }[]> {
  // Through the debugging protocol, not a <script> tag: the page's CSP stays as it is.
  await page.evaluate(await readFile(AXE, "utf8"));
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  return result.filter((v) => v.impact === "serious" || v.impact === "critical");
}

describe("the status page in headless Chromium", () => {
  it("finds a product Google left out and says why; accessible; screenshot at 1280 px", async (context) => {
    if (why) return context.skip(why);
    const report = parse(await readFile(join(fx.config.outputDir, "reports", "google-fr.csv"))) as string[][];
    const [id, , , , reason] = report[1]!;
    const page = await openPage(1280);
    const errors: string[] = [];
    page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
    await page.getByLabel("Find a product").fill(id!);
    await Promise.all([page.waitForURL(/\?q=/), page.getByRole("button", { name: "Search" }).click()]);
    const results = page.locator("section.results");
    await expect.poll(() => results.textContent()).toContain(id!);
    const google = results.locator("li", { hasText: "google-fr: left out" }).first();
    expect(await google.textContent()).toContain(reason!);
    expect(await google.textContent()).toMatch(new RegExp(`${reason}: \\w+`));
    await page.screenshot({ path: join(SHOTS, "status-search-1280.png"), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    // /status.js ran (the CSP let it): the copy button puts the full URL on the clipboard.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await page.locator("button.copy").first().click();
    await expect.poll(() => page.evaluate("navigator.clipboard.readText()")).toBe("https://feeds.pharmacie.example/feeds/google-fr.xml");
    expect(errors).toEqual([]);
    await page.goto(`${server.url}/`);
    await page.screenshot({ path: join(SHOTS, "status-1280.png"), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("needs no sideways scrolling at 400 px, in French too; screenshot at 400 px", async (context) => {
    if (why) return context.skip(why);
    const page = await openPage(400);
    const overflow = () => page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SHOTS, "status-400.png"), fullPage: true });
    await page.getByRole("link", { name: "FR" }).click();
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("fr");
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByLabel("Trouver un produit").fill("gel");
    await page.getByRole("button", { name: "Chercher" }).click();
    await page.waitForURL(/q=gel/);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SHOTS, "status-400-fr-search.png"), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  });
});
