/**
 * Row reuse against offers-file changes: a refresh maps again exactly the
 * products whose offer changed (price, sale, stock, link, added, removed, found
 * by another key, shadowed by a duplicate row) and copies the others, with the
 * same bytes, counts and explain answers as a refresh that maps everything.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogue } from "../../src/sandbox/index.js";
import { removeTemporaries, tempDir } from "../e2e/config.js";
import { parseFeed } from "../e2e/feeds.js";
import {
  at,
  type Bench,
  CUSTOM_LAYOUT,
  customChannel,
  DAY,
  expectReused,
  copyOf,
  expectSameRuns,
  type Pair,
  pairOf,
  prepare,
  gtinOf,
  HOUR,
  type OfferRow,
  openBench,
  outcomeOf,
  readManifest,
  type ReuseReport,
  refreshPair,
  reuseOf,
  rowcacheChannels,
  T0,
} from "./harness.js";

const SEED = 21;
const PRODUCTS = 250;
const T1 = T0 + 10 * 60;
const catalogue = [...createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" }).products()];
const ids = catalogue
  .filter((p) => p["status"] === "active")
  .map((p) => p["id"] as string)
  .sort();
const publicCents = new Map(catalogue.map((p) => [p["id"] as string, p["publicPrice"] as number | undefined]));
/**
 * A new offer price for a product: `factor` times its catalogue price, so that it stays within
 * offers.maxPriceRatio (an implausible one is left out: IMPLAUSIBLE_PRICE); `fallback` without one.
 */
const near = (id: string, factor: number, fallback: string) => {
  const cents = publicCents.get(id);
  return typeof cents === "number" && cents > 0 ? ((cents / 100) * factor).toFixed(2) : fallback;
};
/** Products with an offer in the base run: the first two thirds. */
const OFFERED = Math.floor((ids.length * 2) / 3);
const priceOf = (i: number) => (10 + i * 0.37).toFixed(2);
/** ISO time of Unix seconds, as an offers file writes it. */
const iso = (t: number) => at(t).toISOString().replace(".000Z", "Z");

let bench: Bench;
let base: string;
/** Products in the feed of every channel at t0 (an offer, in stock, eligible everywhere). */
let everywhere: string[];
/** Products idealo (whenMissing: skip) leaves out for having no offer, published by generic-json-fr. */
let noOffer: string[];
/** The base run's offers file, one row per product. */
let v0: OfferRow[];
/** A refresh of base with nothing changed. */
let control: ReuseReport;

const row = (id: string) => v0.find((r) => r.id === id || (r.gtin !== undefined && r.gtin === gtinOf(base, id)))!;
const replaced = (changes: Record<string, OfferRow>) => v0.map((r) => Object.entries(changes).find(([id]) => r === row(id))?.[1] ?? r);

beforeAll(async () => {
  // A JSON array whose items are separated by commas, and that leaves out products without an offer.
  const jsonSkip = { ...customChannel("json-skip-fr"), preset: "generic-json", template: undefined, offers: { whenMissing: "skip" } };
  const channels = [...rowcacheChannels(), customChannel(), customChannel("customxml-fr", { template: "../layouts/customxml" }), jsonSkip];
  v0 = ids.slice(0, OFFERED).map((id, i) => ({ id, price: priceOf(i) }));
  bench = await openBench({ sandbox: { seed: SEED, products: PRODUCTS }, channels, files: CUSTOM_LAYOUT, offers: v0 });
  base = join(await tempDir(), "base");
  // A first run finds the products each role needs; the second, with the roles' offers, is the base.
  await bench.run(bench.config, base, T0 - 60);
  const outcomes = ids.map((id) => ({ id, o: outcomeOf(base, id), gtin: gtinOf(base, id) }));
  everywhere = outcomes.filter((p) => p.gtin !== undefined && Object.values(p.o).every((v) => v === "item")).map((p) => p.id);
  noOffer = outcomes.filter((p) => p.o["idealo-fr"] === "NO_OFFER" && p.o["generic-json-fr"] === "item").map((p) => p.id);
  expect(everywhere.length).toBeGreaterThan(14);
  expect(noOffer.length).toBeGreaterThan(2);
  const e = everywhere;
  v0 = v0.map((r) => {
    const id = r.id!;
    // Found by GTIN at t0.
    if (id === e[8]) return { gtin: gtinOf(base, id)!, price: r.price };
    // Out of stock at t0.
    if (id === e[9]) return { ...r, quantity: 0, availability: "out_of_stock" };
    // The one product on sale at t0 (the only row filling the sale columns).
    if (id === e[10]) return { ...r, sale_price: "1.99", sale_from: iso(T0 - DAY), sale_until: iso(T0 + 30 * DAY) };
    return r;
  });
  await bench.writeOffers(v0);
  const first = await bench.run(bench.config, base, T0);
  expect(first.manifest.offers).toMatchObject({ accepted: OFFERED, refused: 0 });
  expect(first.manifest.channels.find((c) => c.name === "custom-fr")?.emptyColumns ?? []).not.toContain("sale");
  expect(outcomeOf(base, e[9]!)["google-fr"]).toBe("OUT_OF_STOCK");

  const a = await prepare(bench, base, T0 + 1);
  await bench.run(bench.config, a, T1, { source: "snapshot" });
  control = (await reuseOf(a))!;
});

afterAll(async () => {
  await bench?.close();
  await removeTemporaries();
});

/**
 * Refreshes the state of `from` (base after a run with the base offers, or a
 * pair left by an earlier step) with `offers`: a/ with reuse, b/ without.
 */
async function refresh(offers: readonly OfferRow[], from?: Pair, t = T1): Promise<Pair> {
  if (!from) {
    await bench.writeOffers(v0);
    from = await pairOf(await prepare(bench, base, T0 + 1));
  }
  await bench.writeOffers(offers);
  return refreshPair(bench, from, t, ids);
}

/** A product's row of the generic JSON feed (every field as written). */
async function jsonItem(dir: string, id: string): Promise<Record<string, unknown> | undefined> {
  const rows = parseFeed(await readFile(join(dir, "generic-json-fr.json"), "utf8"), "json");
  return rows.find((r) => r["id"] === id) as Record<string, unknown> | undefined;
}

/** The price a product's row of the generic JSON feed shows. */
async function priceText(dir: string, id: string): Promise<string | undefined> {
  return ((await jsonItem(dir, id))?.["price"] as { text?: string } | undefined)?.text;
}

describe("a refresh with the offers file unchanged", () => {
  it("reuses rows and says how many", async () => {
    expect(control, "manifest.sync.reuse").toBeDefined();
    expect(control.reason).toBeUndefined();
    expect(control.reused).toBeGreaterThan(0);
    // Nothing changed and no time horizon was reached: nothing needs mapping.
    expect(control.mapped).toBe(0);
    await refresh(v0);
  });

  it("still reuses every row when the offer rows only moved to other lines (the file reversed)", async () => {
    const { a } = await refresh([...v0].reverse());
    await expectReused(a);
    expect(await reuseOf(a)).toEqual(control);
  });
});

describe("a refresh after offers changed for a few products", () => {
  it("maps those products again (price, sale, stock, link, added, removed, found by GTIN) and reuses the rest", async () => {
    const e = everywhere;
    const offers = replaced({
      [e[0]!]: { ...row(e[0]!), price: near(e[0]!, 1.7, "77.70") },
      [e[1]!]: { ...row(e[1]!), sale_price: "2.22", sale_from: iso(T0 - HOUR), sale_until: iso(T0 + DAY) },
      [e[2]!]: { ...row(e[2]!), quantity: 0, availability: "out_of_stock" },
      [e[3]!]: { ...row(e[3]!), link: "https://shop.example/elsewhere?a=1&b=2" },
      [e[5]!]: { gtin: gtinOf(base, e[5]!)!, price: near(e[5]!, 1.5, "55.50") },
      [e[11]!]: { gtin: gtinOf(base, e[11]!)!, price: row(e[11]!).price },
    }).filter((r) => r !== row(e[4]!));
    offers.push({ id: noOffer[0]!, price: near(noOffer[0]!, 1.3, "33.30") });
    const { a } = await refresh(offers);
    const reuse = await expectReused(a);
    expect(reuse.reused + reuse.mapped).toBe(control.reused + control.mapped);
    expect(reuse.reused).toBeLessThan(control.reused);
    expect(await priceText(a, e[0]!)).toBe(near(e[0]!, 1.7, "77.70"));
    expect(await priceText(a, e[5]!)).toBe(near(e[5]!, 1.5, "55.50"));
    expect(JSON.stringify(await jsonItem(a, e[1]!))).toContain("2.22");
    expect(JSON.stringify(await jsonItem(a, e[3]!))).toContain("elsewhere");
  });

  it("does the same on worker threads", async () => {
    const e = everywhere;
    await bench.writeOffers(v0);
    const a = await prepare(bench, base, T0 + 1);
    const b = await copyOf(a);
    await bench.writeOffers(replaced({ [e[0]!]: { ...row(e[0]!), price: near(e[0]!, 1.1, "71.10") } }).filter((r) => r !== row(e[4]!)));
    await bench.run(bench.config, a, T1, { source: "snapshot", workers: 2, shardMinProducts: 0 });
    await bench.run(bench.config, b, T1, { source: "snapshot", reuse: false });
    await expectSameRuns(a, b, bench.config, ids);
    await expectReused(a);
    expect(await priceText(a, e[0]!)).toBe(near(e[0]!, 1.1, "71.10"));
  });

  it("maps a third of the products again among the copies, every way round, with the same files", async () => {
    // Every third offered product changes price, and one in five of the others changes stock: copies
    // and products mapped again alternate, so each copy reads its lines at places reckoned past them.
    const changes = Object.fromEntries(
      v0.flatMap((r, i) => {
        const id = ids.find((x) => row(x) === r);
        if (id === undefined) return [];
        if (i % 3 === 0) return [[id, { ...r, price: (Number(r.price) + 1).toFixed(2) }]];
        if (i % 5 === 1) return [[id, { ...r, quantity: 0, availability: "out_of_stock" }]];
        return [];
      }),
    ) as Record<string, OfferRow>;
    const { a } = await refresh(replaced(changes));
    const reuse = await expectReused(a);
    expect(reuse.mapped).toBeGreaterThanOrEqual(Object.keys(changes).length);
    expect(reuse.reused).toBeGreaterThan(reuse.mapped);
  });

  it("switches products in and out of a channel by an offer change (excluded before, included now, and the reverse)", async () => {
    const e = everywhere;
    const offers = replaced({
      [e[2]!]: { ...row(e[2]!), quantity: 0, availability: "out_of_stock" },
      [e[9]!]: { ...row(e[9]!), quantity: 3, availability: "in_stock" },
    }).filter((r) => r !== row(e[4]!));
    offers.push({ id: noOffer[1]!, price: near(noOffer[1]!, 0.9, "44.40") });
    const { a } = await refresh(offers);
    await expectReused(a);
    expect(outcomeOf(base, e[2]!)["google-fr"]).toBe("item");
    expect(outcomeOf(a, e[2]!)["google-fr"]).toBe("OUT_OF_STOCK");
    expect(outcomeOf(a, e[9]!)["google-fr"]).toBe("item");
    expect(outcomeOf(base, e[4]!)["idealo-fr"]).toBe("item");
    expect(outcomeOf(a, e[4]!)["idealo-fr"]).toBe("NO_OFFER");
    expect(outcomeOf(base, noOffer[1]!)["idealo-fr"]).toBe("NO_OFFER");
    expect(outcomeOf(a, noOffer[1]!)["idealo-fr"]).toBe("item");
  });

  it("maps a product again when a duplicate row put before its own row changes its offer (the first row wins)", async () => {
    const e = everywhere;
    const { a } = await refresh([{ ...row(e[7]!), price: near(e[7]!, 0.6, "66.60") }, ...v0]);
    expect((await readManifest(a))["offers"]).toMatchObject({ accepted: OFFERED, refused: 1 });
    expect(await priceText(a, e[7]!)).toBe(near(e[7]!, 0.6, "66.60"));
    await expectReused(a);
  });

  it("maps a product again when an id row is added for a product whose offer was found by its GTIN (the id wins)", async () => {
    const e = everywhere;
    const { a } = await refresh([...v0, { id: e[8]!, price: near(e[8]!, 0.8, "88.80") }]);
    expect(await priceText(a, e[8]!)).toBe(near(e[8]!, 0.8, "88.80"));
    await expectReused(a);
  });

  it("maps a product again when a GTIN row for it appears while it had no offer", async () => {
    const { a } = await refresh([...v0, { gtin: gtinOf(base, noOffer[2]!)!, price: "12.12" }]);
    expect(outcomeOf(a, noOffer[2]!)["idealo-fr"]).toBe("item");
    await expectReused(a);
  });
});

describe("columns empty in every row (manifest emptyColumns)", () => {
  it("follow the only row that filled a column, both ways, over two reusing refreshes", async () => {
    const e = everywhere;
    const empty = async (dir: string, name: string) => ((await readManifest(dir))["channels"] as { name: string; emptyColumns?: string[] }[]).find((c) => c.name === name)?.emptyColumns ?? [];
    const custom = async (dir: string) => ({ emptyColumns: await empty(dir, "custom-fr") });
    const SALE_XML = "{{salePrice.text}} (line 1)";
    expect(await empty(base, "customxml-fr")).not.toContain(SALE_XML);
    // The only product on sale loses its sale: the sale columns are empty now.
    const first = await refresh(replaced({ [e[10]!]: { id: e[10]!, price: row(e[10]!).price } }));
    expect((await custom(first.a))?.emptyColumns).toContain("sale");
    expect(await empty(first.a, "customxml-fr")).toContain(SALE_XML);
    await expectReused(first.a);
    // Then another product goes on sale: filled again, by that one row alone.
    const offers = replaced({
      [e[10]!]: { id: e[10]!, price: row(e[10]!).price },
      [e[12]!]: { ...row(e[12]!), sale_price: "1.01", sale_from: iso(T0 - HOUR), sale_until: iso(T0 + DAY) },
    });
    const second = await refresh(offers, first, T1 + 60);
    expect((await custom(second.a))?.emptyColumns ?? []).not.toContain("sale");
    expect(await empty(second.a, "customxml-fr")).not.toContain(SALE_XML);
    await expectReused(second.a);
  });
});

describe("the first and last rows of a feed", () => {
  it("switch out and back in (a JSON array's separators around copied rows)", async () => {
    const items = async (dir: string) =>
      (JSON.parse(await readFile(join(dir, "json-skip-fr.json"), "utf8")) as { id: string }[]).map((r) => r.id);
    await bench.writeOffers(v0);
    const start = await prepare(bench, base, T0 + 1);
    const before = await items(start);
    const [first, second] = before as [string, string];
    const last = before.at(-1)!;
    const gone = v0.filter((r) => r !== row(first) && r !== row(second) && r !== row(last));
    const out = await refresh(gone, await pairOf(start));
    await expectReused(out.a);
    expect((await items(out.a))[0]).not.toBe(first);
    expect(await items(out.a)).not.toContain(last);
    // The first one comes back: first again, before rows copied from a file where it was not.
    const back = await refresh([...gone, row(first)], out, T1 + 60);
    await expectReused(back.a);
    expect((await items(back.a))[0]).toBe(first);
  });
});
