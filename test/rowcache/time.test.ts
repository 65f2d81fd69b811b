/**
 * Row reuse as time passes with the offers file and snapshot unchanged: a row
 * is valid only until its product's next time horizon (a sale starts or ends,
 * an official deletion date). Refreshes one second before, at and after each
 * boundary, chained (each refresh starts from the previous one's output and
 * cache), must switch those products exactly when a refresh without reuse does.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogue } from "../../src/sandbox/index.js";
import { CATALOGUE_NOW } from "../../src/sandbox/generate/clock.js";
import { removeTemporaries, tempDir } from "../e2e/config.js";
import { parseFeed } from "../e2e/feeds.js";
import { at, type Bench, DAY, expectReused, HOUR, type OfferRow, openBench, outcomeOf, prepare, refreshPair, reuseOf, T0 } from "./harness.js";

const SEED = 1;
const PRODUCTS = 200;
const catalogue = [...createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()].filter((p) => p["status"] === "active");
const ids = catalogue.map((p) => p["id"] as string).sort();
/** The active product whose official deletion date comes first after the catalogue's moment (15 days later for this seed). */
const doomed = catalogue
  .filter((p) => typeof p["officialDeletionAt"] === "number" && (p["officialDeletionAt"] as number) > CATALOGUE_NOW)
  .sort((a, b) => (a["officialDeletionAt"] as number) - (b["officialDeletionAt"] as number))[0]!;
const DELETION = doomed["officialDeletionAt"] as number;
const iso = (t: number) => at(t).toISOString().replace(".000Z", "Z");

const START = T0 + 2 * HOUR;
const END = T0 + 2 * HOUR;
/** A date-only sale_until lasts to the end of that day (UTC): T0's day. */
const END_OF_DAY = Math.floor(T0 / DAY) * DAY + DAY - 1;

let bench: Bench;
let base: string;
/** Products every channel of the generic presets publishes at t0, with an offer. */
let roles: { starts: string; ends: string; endsOfDay: string; ignored: string };

beforeAll(async () => {
  // Every product with an offer at the catalogue price (so that rows only change with time).
  const offers: OfferRow[] = ids.map((id, i) => ({ id, price: (20 + i * 0.5).toFixed(2) }));
  bench = await openBench({ sandbox: { seed: SEED, products: PRODUCTS }, offers });
  base = join(await tempDir(), "base");
  await bench.run(bench.config, base, T0 - 60);
  const published = ids.filter((id) => outcomeOf(base, id)["generic-json-fr"] === "item" && outcomeOf(base, id)["google-fr"] === "item");
  const [starts, ends, endsOfDay, ignored] = published as [string, string, string, string];
  roles = { starts, ends, endsOfDay, ignored };
  const sale: Record<string, Partial<OfferRow>> = {
    [starts]: { sale_price: "1.50", sale_from: iso(START), sale_until: iso(T0 + 5 * DAY) },
    [ends]: { sale_price: "1.60", sale_from: iso(T0 - DAY), sale_until: iso(END) },
    [endsOfDay]: { sale_price: "1.70", sale_until: at(T0).toISOString().slice(0, 10) },
    // Not below the price: a SALE_IGNORED warning while it runs (warnings report, manifest warnings).
    [ignored]: { sale_price: "999.00", sale_from: iso(START) },
  };
  if (!offers.some((o) => o.id === doomed["id"])) offers.push({ id: doomed["id"] as string, price: "15.00" });
  await bench.writeOffers(offers.map((o) => ({ ...o, ...sale[o.id!] })));
  const first = await bench.run(bench.config, base, T0);
  expect(first.manifest.offers).toMatchObject({ refused: 0 });
  // The doomed product is published at t0 by the channels that publish it at all.
  expect(Object.values(outcomeOf(base, doomed["id"] as string))).toContain("item");
});

afterAll(async () => {
  await bench?.close();
  await removeTemporaries();
});

async function saleOf(dir: string, id: string): Promise<string | undefined> {
  const rows = parseFeed(await readFile(join(dir, "generic-json-fr.json"), "utf8"), "json");
  const row = rows.find((r) => r["id"] === id) as { salePrice?: { text: string } } | undefined;
  if (!row) throw new Error(`${id} is not in generic-json-fr`);
  return row.salePrice?.text;
}

const warnings = async (dir: string) =>
  (JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as { channels: { name: string; warnings: Record<string, number> }[] }).channels.map((c) => c.warnings["SALE_IGNORED"] ?? 0);

describe("a refresh as time passes", () => {
  it("starts and ends sales exactly at their boundaries, one refresh at a time, as a refresh without reuse does", async () => {
    const { starts, ends, endsOfDay, ignored } = roles;
    let pair = await refreshPair(bench, await prepare(bench, base, T0 + 1), START - 1, ids);
    await expectReused(pair.a);
    expect(await saleOf(pair.a, starts)).toBeUndefined();
    expect(await saleOf(pair.a, ends)).toBe("1.60");
    expect((await warnings(pair.a)).every((n) => n === 0)).toBe(true);

    // START === END: one product's sale starts and another's ends on the same second (until is inclusive).
    pair = await refreshPair(bench, pair, START, ids);
    await expectReused(pair.a);
    expect(await saleOf(pair.a, starts)).toBe("1.50");
    expect(await saleOf(pair.a, ends)).toBe("1.60");
    expect((await warnings(pair.a)).some((n) => n > 0)).toBe(true);

    pair = await refreshPair(bench, pair, END + 1, ids);
    await expectReused(pair.a);
    expect(await saleOf(pair.a, ends)).toBeUndefined();

    pair = await refreshPair(bench, pair, END_OF_DAY, ids);
    await expectReused(pair.a);
    expect(await saleOf(pair.a, endsOfDay)).toBe("1.70");
    pair = await refreshPair(bench, pair, END_OF_DAY + 1, ids);
    await expectReused(pair.a);
    expect(await saleOf(pair.a, endsOfDay)).toBeUndefined();
    expect(await saleOf(pair.a, starts)).toBe("1.50");
    expect(ignored).toBeDefined();
  });

  it("leaves a product out from the second of its official deletion on", async () => {
    const id = doomed["id"] as string;
    const before = await refreshPair(bench, await prepare(bench, base, T0 + 1), DELETION - 1, ids);
    await expectReused(before.a);
    const published = Object.entries(outcomeOf(before.a, id)).filter(([, o]) => o === "item").map(([c]) => c);
    expect(published.length).toBeGreaterThan(0);
    const after = await refreshPair(bench, before, DELETION, ids);
    await expectReused(after.a);
    for (const channel of published) expect(outcomeOf(after.a, id)[channel], channel).toBe("OFFICIALLY_DELETED");
  });

  it("crosses every horizon at once in one refresh from t0's cache", async () => {
    const { a } = await refreshPair(bench, await prepare(bench, base, T0 + 1), DELETION + DAY, ids);
    await expectReused(a);
    expect(await saleOf(a, roles.ends)).toBeUndefined();
    expect(await saleOf(a, roles.starts)).toBeUndefined();
  });

  it("maps again when the clock went back before the run that wrote the cache (a sale it saw running has not started)", async () => {
    const later = await prepare(bench, base, START + HOUR);
    expect(await saleOf(later, roles.starts)).toBe("1.50");
    const { a } = await refreshPair(bench, later, START - HOUR, ids);
    expect(await saleOf(a, roles.starts)).toBeUndefined();
    expect(await saleOf(a, roles.ends)).toBe("1.60");
    expect(await reuseOf(a)).toBeDefined();
  });
});
