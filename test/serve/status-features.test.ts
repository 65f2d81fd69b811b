/**
 * What the status page gives a shop manager, over real HTTP after a real run:
 * the feed URLs from output.publicBaseUrl, the reports to download (behind the
 * page's credentials), reasons in words with their codes, warnings and
 * fallbacks, the offers file, the three languages, the search (explain index)
 * and the script allowed by the CSP.
 */
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FeedServer } from "../../src/serve/server.js";
import { ExplainIndex, explainFile } from "../../src/explain/store.js";
import { unpackOutcome } from "../../src/explain/entry.js";
import { basic, fetchRaw, makeFixture, SECRETS, serve, type Fixture } from "./helpers.js";

let fx: Fixture;
let server: FeedServer;
const AUTH = { Authorization: basic(SECRETS.STATUS_USER, SECRETS.STATUS_PASSWORD) };
const BASE = "https://feeds.pharmacie.example";

beforeAll(async () => {
  fx = await makeFixture({ products: 120 });
  server = await serve(fx.config, { publicBaseUrl: BASE });
});
afterAll(async () => {
  await server?.close(1000);
  await fx?.close();
});

async function page(path: string, headers: Record<string, string> = {}): Promise<string> {
  const r = await fetchRaw(server.url, path, { ...AUTH, ...headers });
  expect(r.status).toBe(200);
  return r.body.toString("utf8");
}

describe("the status page", () => {
  it("shows each feed's full public URL with a copy button; a token feed's with a placeholder, never the token", async () => {
    const html = await page("/");
    expect(html).toContain(`<code class="url" id="url-google-fr">${BASE}/feeds/google-fr.xml</code> <button type="button" class="copy" data-copy="url-google-fr">Copy</button>`);
    expect(html).toContain(`${BASE}/feeds/&lt;token&gt;/idealo-fr.csv`);
    expect(html).not.toContain(SECRETS.FEED_TOKEN);
  });

  it("links each channel's reports, served only with the page's credentials, as CSV a parser reads", async () => {
    const html = await page("/");
    expect(html).toContain(`href="/status/reports/google-fr.csv" download`);
    expect(html).toContain(`href="/status/reports/google-fr.warnings.csv" download`);
    expect((await fetchRaw(server.url, "/status/reports/google-fr.csv")).status).toBe(401);
    const r = await fetchRaw(server.url, "/status/reports/google-fr.csv", AUTH);
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(r.headers["content-disposition"]).toBe('attachment; filename="google-fr.csv"');
    const rows = parse(r.body) as string[][];
    expect(rows[0]).toEqual(["id", "gtin", "name", "brand", "reason", "detail", "other_reasons"]);
    expect(rows.length).toBeGreaterThan(1);
    const warnings = parse((await fetchRaw(server.url, "/status/reports/google-fr.warnings.csv", AUTH)).body) as string[][];
    expect(warnings[0]).toEqual(["id", "gtin", "name", "brand", "kind", "code", "detail"]);
    for (const path of ["/status/reports/manifest.json", "/status/reports/nope.csv", "/status/reports/..%2Fmanifest.json", "/status/reports/.google-fr.csv.tmp-1"]) {
      expect((await fetchRaw(server.url, path, AUTH)).status, path).toBe(404);
    }
  });

  it("says the reasons in words with the code beside, and the warnings and fallbacks", async () => {
    const html = await page("/");
    expect(html).toMatch(/<li>not allowed by the health rules <code>POLICY_DENIED<\/code> <span class="n">\d+<\/span><\/li>/);
    expect(html).toMatch(/<dt>Warnings<\/dt><dd>/);
    expect(html).toMatch(/<dt>Fallbacks<\/dt><dd>/);
    expect(html).toMatch(/data-state="(ok|degraded)"/);
    expect(html).toMatch(/<time datetime="[^"]+">[^<]+<\/time> <span class="abs">\(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)<\/span>/);
  });

  it("speaks French or Dutch from Accept-Language, with a switch that wins", async () => {
    const fr = await page("/", { "Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5" });
    expect(fr).toContain('<html lang="fr">');
    expect(fr).toMatch(/<li>interdit par les règles de santé <code>POLICY_DENIED<\/code>/);
    expect(fr).toContain(">Copier</button>");
    const nl = await page("/?lang=nl", { "Accept-Language": "fr" });
    expect(nl).toContain('<html lang="nl">');
    expect(nl).toMatch(/<li>niet toegestaan door de gezondheidsregels <code>POLICY_DENIED<\/code>/);
    expect(nl).toContain('<a href="/?lang=nl" lang="nl" aria-current="true">NL</a>');
  });

  it("finds a product from the search box and says why each channel left it out", async () => {
    const index = ExplainIndex.open(explainFile(fx.config.outputDir))!;
    const at = index.meta.channels.findIndex((c) => c.name === "google-fr");
    const names = [...new Set((parse(await (await fetchRaw(server.url, "/status/reports/google-fr.csv", AUTH)).body) as string[][]).slice(1).map((r) => r[0]!))];
    const id = names.find((i) => unpackOutcome(index.byId(i)!.outcomes[at] ?? null)?.kind === "excluded")!;
    const reasons = (unpackOutcome(index.byId(id)!.outcomes[at] ?? null) as { reasons: readonly { code: string }[] }).reasons;
    index.close();
    const html = await page(`/?q=${encodeURIComponent(id)}`);
    expect(html).toContain(`<h3>${id}`);
    const google = /<li><strong>google-fr<\/strong>: <span class="bad">left out<\/span><ul>([^]*?)<\/ul><\/li>/.exec(html)?.[1];
    expect(google).toBeDefined();
    for (const r of reasons) expect(google).toContain(`<code>${r.code}</code>: `);
    expect(html).toContain('data-refresh="off"');
  });

  it("takes a query of 200 characters as explain does, counted alike, and says so of a longer one instead of cutting it (a review found them apart)", async () => {
    const emoji = "💊".repeat(101);
    // 101 characters (202 UTF-16 units): searched, as explain takes it.
    expect(await page(`/?q=${encodeURIComponent(emoji)}`)).toContain("No product of the last run matches");
    const long = "x".repeat(201);
    const html = await page(`/?q=${encodeURIComponent(long)}`);
    expect(html).toContain("The search takes at most 200 characters (an id, a code or a few words of a name); this one has 201.");
    expect(html).not.toContain("No product of the last run matches");
  });

  it("serves its one script under CSP script-src 'self'", async () => {
    const r = await fetchRaw(server.url, "/", AUTH);
    expect(r.headers["content-security-policy"]).toContain("script-src 'self'");
    const js = await fetchRaw(server.url, "/status.js", AUTH);
    expect(js.status).toBe(200);
    expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(js.body.toString("utf8")).toContain("navigator.clipboard");
    expect((await fetchRaw(server.url, "/status.js")).status).toBe(401);
  });
});
