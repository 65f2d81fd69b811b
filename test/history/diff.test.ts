/**
 * `pharmafeed diff` through the BUILT command line against the sandbox: two runs with an offers
 * file changed between them (prices up and down, sales ending and starting, stock going and
 * coming back, products leaving and joining), then what `diff --json` says of every channel is
 * checked against both published versions read back from history/feeds/ with the independent
 * readers of the e2e tests (never the item sheets the diff reads). A damaged item sheet costs
 * its channel's comparison only, and the exit code says so.
 */
import { readFile, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { imageUrls } from "../writers/read-back.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { channelsForEveryPreset, removeTemporaries, writeConfig, type ChannelFileJson, type E2eConfig } from "../e2e/config.js";
import { gunzip, itemId, parseFeed, readManifestJson, sha256, type Row } from "../e2e/feeds.js";
import { catalogueFacts } from "../e2e/oracle.js";

const SEED = 21;
const PRODUCTS = 120;
let sandbox: SandboxHandle;
/** Streamed ids no rule keeps out of every feed, in id order. */
let eligible: string[];

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  const facts = catalogueFacts({ seed: SEED, products: PRODUCTS, now: new Date() });
  eligible = facts.streamIds.filter((id) => !facts.ineligible.has(id));
});

afterAll(async () => {
  killAll();
  await sandbox.close();
  await removeTemporaries();
});

interface Offer {
  cents: number;
  sale?: { cents: number; from: string; until: string };
  quantity?: number;
  availability?: string;
}

const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const running = (cents: number) => ({ cents: Math.round(cents * 0.8), from: day(-1), until: day(30) });
const decimal = (cents: number) => (cents / 100).toFixed(2).replace(".", ",");

/**
 * Run 1 lists e[0..56), run 2 e[4..62): 4 leave, 6 join. Between them, by index: 4-9 up (by
 * distinct amounts), 10-15 down, 16-19 out of stock, 20-22 back in stock, 23-25 their sale ends
 * (the shopper pays more, the regular price unchanged), 26-28 a sale starts, 29-30 a sale that
 * has not started (no change), 31-32 up and out of stock at once.
 */
function offersPlan(e: string[]): [Map<string, Offer>, Map<string, Offer>] {
  const first = new Map<string, Offer>();
  const second = new Map<string, Offer>();
  e.slice(0, 62).forEach((id, i) => {
    const cents = 500 + i * 73;
    const before: Offer = { cents, quantity: 3 };
    let after: Offer = { cents, quantity: 3 };
    if (i >= 4 && i < 10) after = { cents: cents + 100 + (i - 4) * 50, quantity: 3 };
    else if (i >= 10 && i < 16) after = { cents: cents - 50 - (i - 10) * 30, quantity: 3 };
    else if (i >= 16 && i < 20) after = { cents, quantity: 0 };
    else if (i >= 20 && i < 23) [before.availability, before.quantity, after.quantity] = ["out_of_stock", undefined, 4];
    else if (i >= 23 && i < 26) before.sale = running(cents);
    else if (i >= 26 && i < 29) after.sale = running(cents);
    else if (i >= 29 && i < 31) before.sale = after.sale = { cents: cents - 100, from: day(10), until: day(20) };
    else if (i >= 31 && i < 33) after = { cents: cents + 222 + (i - 31) * 55, availability: "out of stock" };
    if (i < 56) first.set(id, before);
    if (i >= 4) second.set(id, after);
  });
  return [first, second];
}

function offersCsv(offers: Map<string, Offer>): string {
  const rows = [...offers].map(([id, o]) => [id, decimal(o.cents), o.sale ? decimal(o.sale.cents) : "", o.sale?.from ?? "", o.sale?.until ?? "", o.quantity ?? "", o.availability ?? ""].join(";"));
  return ["id;price;sale_price;sale_from;sale_until;quantity;availability", ...rows].join("\n") + "\n";
}

/** "12.99 EUR", "12,99", "12.99" to cents; anything else is a reader's mistake, said loudly. */
function cents(value: unknown, where: string): number {
  const m = typeof value === "string" ? /^(\d+)[.,](\d{2})(?: EUR)?$/.exec(value) : null;
  if (m === null) throw new Error(`no price in ${where}: ${JSON.stringify(value)}`);
  return Number(m[1]) * 100 + Number(m[2]);
}
const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

/** The price the shopper pays, from each layout's own fields (a sale field appears only while the sale runs). */
function shopperPrice(row: Row, preset: string): number {
  switch (preset) {
    case "google":
    case "microsoft":
    case "meta-xml":
      return cents(text(row["g:sale_price"]) ?? row["g:price"], preset);
    case "google-tsv":
    case "meta":
    case "generic-csv":
      return cents(text(row["sale_price"]) ?? row["price"], preset);
    case "generic-json":
    case "generic-ndjson":
      return cents(((row["salePrice"] ?? row["price"]) as { amount?: unknown } | undefined)?.amount, preset);
    case "medizinfuchs":
      return cents(row["preis"], preset);
    default: // idealo, idealo-de, billiger, kelkoo, beslist: `price` is what is paid (formerPrice, old_price, price_old the regular one).
      return cents(row["price"], preset);
  }
}

const KELKOO: Record<string, string> = { "1": "in_stock", "2": "backorder", "4": "preorder", "6": "out_of_stock" };
/** Layouts without an availability column. */
const NO_AVAILABILITY = ["idealo", "idealo-de", "billiger", "medizinfuchs"];

/** In the diff's words (in_stock, ...); undefined where the layout carries none (NO_AVAILABILITY). */
function availabilityOf(row: Row, preset: string): string | undefined {
  if (NO_AVAILABILITY.includes(preset)) return undefined;
  const raw = row[preset === "google" || preset === "microsoft" || preset === "meta-xml" ? "g:availability" : "availability"];
  if (typeof raw !== "string" || raw === "") throw new Error(`no availability in a ${preset} item: ${JSON.stringify(row).slice(0, 200)}`);
  if (preset === "kelkoo") return KELKOO[raw] ?? `kelkoo ${raw}`;
  return raw === "available for order" ? "backorder" : raw.replace(/ /g, "_");
}

const LINK: Record<string, string> = { idealo: "url", "idealo-de": "url", kelkoo: "product-url", beslist: "productlink", medizinfuchs: "produktlink" };
/** Where a layout's title is, when not `title` (medizinfuchs writes none). */
const TITLE: Record<string, string> = { billiger: "name" };

interface Item {
  price: number;
  availability: string | undefined;
  title: unknown;
  link: unknown;
  image: string;
}

async function readVersion(outputDir: string, sha: string, preset: string, format: string): Promise<Map<string, Item>> {
  const bytes = gunzip(await readFile(join(outputDir, "history", "feeds", `${sha}.gz`)));
  expect(sha256(bytes)).toBe(sha);
  const items = new Map<string, Item>();
  for (const row of parseFeed(bytes.toString("utf8"), format)) {
    const id = itemId(row, preset);
    if (items.has(id)) continue;
    items.set(id, { price: shopperPrice(row, preset), availability: availabilityOf(row, preset), title: row[TITLE[preset] ?? "title"], link: row[LINK[preset] ?? "link"], image: imageUrls(preset, row)[0] ?? "" });
  }
  return items;
}

/** What changed between two versions, worked out from the feeds themselves. */
function expectedDiff(from: Map<string, Item>, to: Map<string, Item>) {
  const both = [...to.keys()].filter((id) => from.has(id));
  const moves = both.map((id) => ({ id, from: from.get(id)!.price, to: to.get(id)!.price })).filter((m) => m.from !== m.to);
  const transitions: Record<string, number> = {};
  let titles = 0, links = 0, images = 0, unchanged = 0;
  for (const id of both) {
    const [a, b] = [from.get(id)!, to.get(id)!];
    const move = `${a.availability} -> ${b.availability}`;
    if (a.availability !== b.availability) transitions[move] = (transitions[move] ?? 0) + 1;
    titles += Number(a.title !== b.title);
    links += Number(a.link !== b.link);
    images += Number(a.image !== b.image);
    if (a.price === b.price && a.availability === b.availability && a.title === b.title && a.link === b.link && a.image === b.image) unchanged++;
  }
  const up = moves.filter((m) => m.to > m.from).sort((x, y) => y.to - y.from - (x.to - x.from));
  const down = moves.filter((m) => m.to < m.from).sort((x, y) => x.to - x.from - (y.to - y.from));
  return {
    added: [...to.keys()].filter((id) => !from.has(id)).sort(),
    removed: [...from.keys()].filter((id) => !to.has(id)).sort(),
    up,
    down,
    availability: { changed: Object.values(transitions).reduce((s, n) => s + n, 0), transitions },
    titles,
    links,
    images,
    unchanged,
  };
}

interface ChannelDiffJson {
  channel: string;
  ok: boolean;
  why?: string;
  from: { sha256: string; items: number };
  to: { sha256: string; items: number };
  diff: {
    from: { items: number };
    to: { items: number };
    added: { id: string; name: string }[];
    removed: { id: string; name: string }[];
    prices: { changed: number; up: number; down: number; largestUp?: { id: string; from: number; to: number }; largestDown?: { id: string; from: number; to: number } };
    availability: { changed: number; transitions: Record<string, number> };
    titles: number;
    links: number;
    images: number;
    unchanged: number;
  };
}

/** Two runs of `channels` with the offers plan; each channel's live digest after each. */
async function twoRuns(channels: ChannelFileJson[]): Promise<{ config: E2eConfig; runs: Map<string, string>[] }> {
  for (const c of channels) {
    Object.assign(c, { gate: { maxRejectedPercent: 100, maxDropPercent: 100, maxPriceChangedItemsPercent: 100 }, offers: { whenMissing: "skip", maxPriceRatio: 0 } });
  }
  const config = await writeConfig({ channels, main: { offers: { file: "offers.csv", maxDropPercent: 100 } } });
  const runs: Map<string, string>[] = [];
  for (const offers of offersPlan(eligible)) {
    await writeFile(join(config.root, "config", "offers.csv"), offersCsv(offers));
    const result = await runCli(["generate", "--config", config.configFile], { env: sandboxEnv(sandbox) });
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readManifestJson(config.outputDir);
    runs.push(new Map(manifest.channels.map((c) => [c.name, c.live!.sha256])));
  }
  return { config, runs };
}

const diff = (config: E2eConfig, ...args: string[]) => runCli(["diff", "--config", config.configFile, ...args]);

describe("pharmafeed diff", () => {
  it("says of every channel exactly what the two published feeds, read back, say changed", async () => {
    const channels = channelsForEveryPreset();
    const { config, runs } = await twoRuns(channels);
    const [first, second] = runs as [Map<string, string>, Map<string, string>];
    const manifest = await readManifestJson(config.outputDir);

    const result = await diff(config, "--json");
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as { from: string; to: string; channels: ChannelDiffJson[] };
    expect(json).toMatchObject({ from: "previous", to: "live" });
    expect(json.channels.map((c) => c.channel).sort()).toEqual(channels.map((c) => c.name).sort());

    const totals = { addedOrRemoved: 0, up: 0, down: 0, availability: 0 };
    const expectedOf = new Map<string, ReturnType<typeof expectedDiff>>();
    for (const c of json.channels) {
      const entry = manifest.channels.find((m) => m.name === c.channel)!;
      expect(c.ok, `${c.channel}: ${c.why ?? ""}`).toBe(true);
      expect([c.from.sha256, c.to.sha256], c.channel).toEqual([first.get(c.channel), second.get(c.channel)]);
      const before = await readVersion(config.outputDir, c.from.sha256, entry.preset, entry.format);
      const after = await readVersion(config.outputDir, c.to.sha256, entry.preset, entry.format);
      const want = expectedDiff(before, after);
      expectedOf.set(c.channel, want);
      const d = c.diff;
      expect({ from: d.from.items, to: d.to.items }, c.channel).toEqual({ from: before.size, to: after.size });
      expect(d.added.map((i) => i.id).sort(), `${c.channel} added`).toEqual(want.added);
      expect(d.removed.map((i) => i.id).sort(), `${c.channel} removed`).toEqual(want.removed);
      expect(d.prices, `${c.channel} prices`).toMatchObject({ changed: want.up.length + want.down.length, up: want.up.length, down: want.down.length });
      if (want.up[0]) expect(d.prices.largestUp, `${c.channel} largest rise`).toMatchObject(want.up[0]);
      if (want.down[0]) expect(d.prices.largestDown, `${c.channel} largest fall`).toMatchObject(want.down[0]);
      const showsAvailability = !NO_AVAILABILITY.includes(entry.preset);
      if (showsAvailability) expect(d.availability, `${c.channel} availability`).toEqual(want.availability);
      expect({ titles: d.titles, links: d.links, images: d.images }, c.channel).toEqual({ titles: want.titles, links: want.links, images: want.images });
      // idealo's feed (and the German comparators') does not show availability: an item whose stock alone changed is not unchanged to the diff.
      if (!showsAvailability) expect(d.unchanged, `${c.channel} unchanged`).toBeLessThanOrEqual(want.unchanged);
      else expect(d.unchanged, `${c.channel} unchanged`).toBe(want.unchanged);
      totals.addedOrRemoved += want.added.length + want.removed.length;
      totals.up += want.up.length;
      totals.down += want.down.length;
      totals.availability += want.availability.changed;
    }
    expect(totals.addedOrRemoved).toBeGreaterThan(0);
    expect(totals.up).toBeGreaterThan(0);
    expect(totals.down).toBeGreaterThan(0);
    expect(totals.availability).toBeGreaterThan(0);

    // The text report of one channel names its largest rise, in money.
    const rise = expectedOf.get("idealo-fr")!.up;
    expect(rise.length).toBeGreaterThan(1);
    expect(rise[0]!.to - rise[0]!.from).toBeGreaterThan(rise[1]!.to - rise[1]!.from);
    const one = await diff(config, "--channel", "idealo-fr");
    expect(one.code, one.stderr).toBe(0);
    const eur = (n: number) => `${(n / 100).toFixed(2)} EUR`;
    expect(one.stdout).toMatch(new RegExp(`largest rise: ${rise[0]!.id} .*${eur(rise[0]!.from)} -> ${eur(rise[0]!.to)}`));
    expect(one.stdout).not.toContain("google-fr");
  });

  it("does not compare a channel whose kept item sheet is damaged, says why, exits non-zero, and compares the others", async () => {
    const channels = channelsForEveryPreset().filter((c) => ["google", "idealo", "generic-csv"].includes(c.preset));
    const { config, runs } = await twoRuns(channels);
    const live = runs[1]!;
    expect(new Set(live.values()).size).toBe(channels.length);
    // Half its bytes: gzip's stream ends early.
    const sheet = join(config.outputDir, "history", "feeds", `${live.get("idealo-fr")!}.items.gz`);
    await truncate(sheet, Math.floor((await readFile(sheet)).length / 2));

    const result = await diff(config);
    expect(result.code, result.stderr).not.toBe(0);
    expect(result.stdout).toMatch(/^idealo-fr: not compared: the newer version: its item sheet is damaged/m);
    for (const other of ["google-fr", "generic-csv-nl"]) expect(result.stdout).toMatch(new RegExp(`^${other}: .* -> .*\\n  \\d+ -> \\d+ items: `, "m"));
    const json = await diff(config, "--json");
    expect(json.code).not.toBe(0);
    const ok = (JSON.parse(json.stdout) as { channels: ChannelDiffJson[] }).channels.map((c) => [c.channel, c.ok]);
    expect(Object.fromEntries(ok)).toEqual({ "google-fr": true, "idealo-fr": false, "generic-csv-nl": true });
  });
});
