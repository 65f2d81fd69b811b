/**
 * Feed-row rendering, the writers' share of a nightly run: every built-in preset in
 * two locales (22 channels, as bench/generate.ts), items mapped once from the seeded
 * sandbox catalogue with each preset's own defaults, then each channel's writer
 * (registry.ts: sanitize, template or columns, escaping, CSV/TSV/JSON) timed on its rows.
 * Beside it, in the same run and on the same items:
 * - the Handlebars runtime rendering the same templates (its own HTML escaping, no
 *   sanitizing, no CSV quoting): what a user would reach for;
 * - with `--baseline <git ref>`, the writers of that commit (its src/ extracted by
 *   `git archive` under node_modules/.cache/, removed at exit), checked to write the
 *   very same bytes.
 *
 *   npx tsx bench/render.ts [--products 3000] [--rounds 9] [--baseline main] [--no-handlebars] [--cold]
 *
 * Timed in CPU seconds of this process (robust to other work on the machine), sides
 * interleaved channel by channel; median of the rounds, in microseconds per row, per
 * channel, per format and for all rows. Each side renders its own copies of the items
 * (see freshItems): memory grows with --products times the sides (about 1.4 GB for
 * 3,000 products and three sides).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import Handlebars from "handlebars";
import { Product } from "../src/catalogue/schemas/product.js";
import { buildContext, ChannelMapping, compileChannel, mapProduct, type ChannelMappingInput, type CompiledChannel } from "../src/mapping/index.js";
import { mappingKey, sharedMapping } from "../src/mapping/locale-cache.js";
import type { FeedItem } from "../src/mapping/feed-item.js";
import { PRESET_NAMES, PRESETS } from "../src/presets/index.js";
import { createCatalogue } from "../src/sandbox/index.js";
import { cdata } from "../src/writers/escape.js";
import { layoutHelpers, Markup } from "../src/writers/helpers.js";
import type { LoadedLayout } from "../src/writers/layout.js";
import { BUILTIN_TEMPLATES, loadLayout } from "../src/writers/load-layout.js";
import { createWriter } from "../src/writers/registry.js";
import type { FeedMeta, FeedWriter } from "../src/writers/types.js";
import { flag, hasFlag } from "./common.js";

const PRODUCTS = Number(flag("products", "3000"));
const ROUNDS = Number(flag("rounds", "9"));
const BASELINE = flag("baseline", "");
const COLD = hasFlag("cold");
const NOW = Date.UTC(2026, 0, 15) / 1000;
const root = fileURLToPath(new URL("../", import.meta.url));

type Create = (layout: LoadedLayout, meta: FeedMeta) => FeedWriter;

/** The writers of another commit: its src/ in a folder node resolves packages from (this checkout's node_modules). */
async function baselineWriters(ref: string): Promise<{ create: Create; dispose: () => void }> {
  const dir = `${root}node_modules/.cache/pharmafeed-bench-render/${ref.replace(/[^\w.-]/g, "_")}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync("git", ["-C", root, "archive", ref, "src"], { maxBuffer: 1 << 28 });
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  writeFileSync(`${dir}/package.json`, JSON.stringify({ type: "module" })); // ES modules, as this package's
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  process.on("exit", dispose); // also when the bytes differ
  const registry = (await import(pathToFileURL(`${dir}/src/writers/registry.ts`).href)) as { createWriter: Create };
  return { create: registry.createWriter, dispose };
}

/** The Handlebars runtime on the same layout: its own escaping, cells joined by the delimiter as they are. */
function handlebarsWriter(layout: LoadedLayout, meta: FeedMeta): FeedWriter {
  const hb = Handlebars.create();
  for (const [name, fn] of Object.entries(layoutHelpers(cdata))) {
    hb.registerHelper(name, (...args: unknown[]) => {
      const result = fn(...args.slice(0, -1));
      return result instanceof Markup ? new hb.SafeString(result.value) : result;
    });
  }
  const spec = layout.spec;
  const base = { separator: "", header: () => "", footer: () => "" };
  if (layout.templates) {
    const item = hb.compile(layout.templates.item);
    return { ...base, header: () => hb.compile(layout.templates!.header)(meta), row: (i) => item(i) };
  }
  if (spec.format === "xml" || !spec.columns) return { ...base, row: (i) => JSON.stringify(i) + "\n" };
  const cells = spec.columns.map((c) => hb.compile(c.value, { noEscape: true }));
  const delimiter = spec.format === "csv" ? spec.delimiter : "\t";
  return { ...base, row: (i) => cells.map((cell) => cell(i)).join(delimiter) + "\n" };
}

// --- the items: each preset's defaults in two locales, as the nightly run's 22 channels ---------
const catalogue = createCatalogue({ seed: 1, products: PRODUCTS * 2, assetBaseUrl: "https://assets.sandbox.example" });
const products: Product[] = [];
for (let i = 0; i < catalogue.total && products.length < PRODUCTS; i++) {
  const parsed = Product.safeParse(catalogue.product(i));
  if (parsed.success && (parsed.data.status ?? "active") === "active") products.push(parsed.data);
}
const context = buildContext({ categories: catalogue.publicCategories as never, brands: catalogue.brands as never, now: NOW, priceUnit: "cents" });

interface Channel {
  name: string;
  format: string;
  mapping: CompiledChannel;
  /** locale-cache.ts's key of the mapping settings. */
  key: number;
  /** Mapped items, the same objects for channels of the same mapping settings, as a run shares them. */
  items: FeedItem[];
  writers: Record<string, FeedWriter>;
  times: Record<string, number[]>;
}

const sides: Record<string, Create> = { ours: createWriter };
if (!hasFlag("no-handlebars")) sides.handlebars = handlebarsWriter;
const baseline = BASELINE === "" ? undefined : await baselineWriters(BASELINE);
if (baseline) sides[`baseline ${BASELINE}`] = baseline.create;

const channels: Channel[] = [];
for (const presetName of PRESET_NAMES) {
  const preset = PRESETS[presetName]!;
  const layout = await loadLayout(`${BUILTIN_TEMPLATES}/${preset.layout}`);
  for (const locale of ["fr", "nl"]) {
    const input = { ...preset.mapping, locale, fallbackLocales: ["en"], link: { template: `https://shop.example/${locale}/{{seoName}}-{{id}}.html` } } as ChannelMappingInput;
    const settings = ChannelMapping.parse(input);
    const name = `${presetName}-${locale}`;
    const meta: FeedMeta = { channel: name, title: "Bench", link: "https://shop.example/", description: "Feed", generatedAt: "2026-01-15T02:00:00.000Z", locale, country: "FR" };
    const writers = Object.fromEntries(Object.entries(sides).map(([side, create]) => [side, create(layout, meta)]));
    const times = Object.fromEntries(Object.keys(sides).map((s) => [s, []]));
    channels.push({ name, format: layout.spec.format, items: [], writers, times, mapping: compileChannel(settings, name), key: mappingKey(settings) });
  }
}
// Product after product, every channel in turn, as a worker maps them (pipeline/channel-mapper.ts).
for (const p of products) {
  for (const c of channels) {
    const r = sharedMapping(context, p, c.key, () => mapProduct(p, c.mapping, context));
    if (r.ok) c.items.push(r.item);
  }
}
const distinct = new Set(channels.flatMap((c) => c.items)).size;

/**
 * Each round renders new items, as each run maps its own (a cache keyed by item, such as
 * sanitize.ts's, starts empty): structured clones, shared where the originals are.
 */
function freshItems(): Map<FeedItem, FeedItem> {
  const copies = new Map<FeedItem, FeedItem>();
  for (const c of channels) for (const item of c.items) if (!copies.has(item)) copies.set(item, structuredClone(item));
  return copies;
}

/** Every row of one channel by one writer, kept. */
function rowsOf(writer: FeedWriter, items: readonly FeedItem[]): string[] {
  return items.map((item) => {
    if (writer.filled) writer.filled.length = 0;
    return writer.row(item);
  });
}

const BATCH = 32;
let sink = 0;

/**
 * CPU seconds to write every row of one channel by one writer, as channel-mapper.ts drives it:
 * the fill marks emptied per row, each row dropped once written (a worker encodes it into a
 * reused buffer at once). A worker renders an item right after mapping it, when the item is
 * still in the cache: so every value of a batch of items is read (JSON.stringify) outside the
 * timed part. With --cold they are not: the first code to read an item pays its cache misses.
 */
function timeRows(writer: FeedWriter, items: readonly FeedItem[], copies: Map<FeedItem, FeedItem>): number {
  let seconds = 0;
  const marks = writer.filled;
  gc({ type: "minor" });
  for (let start = 0; start < items.length; start += BATCH) {
    const batch = items.slice(start, start + BATCH).map((item) => copies.get(item)!);
    if (!COLD) for (const item of batch) sink += JSON.stringify(item).length;
    const c0 = process.cpuUsage();
    for (const item of batch) {
      if (marks) marks.length = 0;
      sink += writer.row(item).length;
    }
    const c = process.cpuUsage(c0);
    seconds += (c.user + c.system) / 1e6;
  }
  return seconds;
}

// A young-generation collection before each timed run: one side's garbage is not collected in another's time.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as (options: { type: "minor" | "major" }) => void;

if (baseline) {
  for (const c of channels) {
    if (rowsOf(c.writers.ours!, c.items).join("") !== rowsOf(c.writers[`baseline ${BASELINE}`]!, c.items).join("")) {
      throw new Error(`${c.name}: rows differ from ${BASELINE}'s`);
    }
  }
}
for (const c of channels) for (const w of Object.values(c.writers)) rowsOf(w, c.items); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  // One copy of the round's items per side: no side finds another's work in a cache.
  const copies = Object.fromEntries(Object.keys(sides).map((side) => [side, freshItems()]));
  gc({ type: "major" });
  for (const c of channels) {
    for (const [side, writer] of Object.entries(c.writers)) c.times[side]!.push(timeRows(writer, c.items, copies[side]!));
  }
}
baseline?.dispose();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const us = (seconds: number, rows: number) => ((seconds * 1e6) / Math.max(1, rows)).toFixed(2).padStart(8);
const names = Object.keys(sides);
const rows = channels.reduce((n, c) => n + c.items.length, 0);
console.log(
  `render bench: ${products.length} active products, ${channels.length} channels, ${rows} rows of ${distinct} distinct items (${COLD ? "cold" : "in cache"}), median of ${ROUNDS} rounds, CPU us per row`,
);
console.log(`  ${"channel".padEnd(20)} ${"format".padEnd(7)} ${"rows".padStart(6)} ${names.map((n) => n.padStart(Math.max(8, n.length))).join(" ")}`);
const totals = names.map(() => 0);
for (const c of channels) {
  const cells = names.map((n, k) => {
    const t = median(c.times[n]!);
    totals[k]! += t;
    return us(t, c.items.length).padStart(Math.max(8, n.length));
  });
  console.log(`  ${c.name.padEnd(20)} ${c.format.padEnd(7)} ${String(c.items.length).padStart(6)} ${cells.join(" ")}`);
}
const width = (n: string) => Math.max(8, n.length);
for (const format of [...new Set(channels.map((c) => c.format))]) {
  const of = channels.filter((c) => c.format === format);
  const n = of.reduce((sum, c) => sum + c.items.length, 0);
  const cells = names.map((name) => us(of.reduce((sum, c) => sum + median(c.times[name]!), 0), n).padStart(width(name)));
  console.log(`  ${`all ${format} rows`.padEnd(20)} ${"".padEnd(7)} ${String(n).padStart(6)} ${cells.join(" ")}`);
}
console.log(`  ${"all rows".padEnd(20)} ${"".padEnd(7)} ${String(rows).padStart(6)} ${names.map((n, k) => us(totals[k]!, rows).padStart(Math.max(8, n.length))).join(" ")}`);
console.log(`  products/s through all ${channels.length} writers: ${names.map((n, k) => `${n} ${Math.round(products.length / totals[k]!).toLocaleString("en-US")}`).join(", ")}`);
if (sink === -1) console.log("");
console.log(`  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
