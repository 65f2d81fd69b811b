/**
 * mapProduct throughput: products per second per core, each product mapped for
 * THREE channels (a Google-like fr channel, a Meta-like nl channel, an
 * idealo-like channel), on realistic products from the sandbox generator, with
 * an offers file for half of them. Beside it, in the same run, two baselines:
 * a JSON parse+stringify round trip of the same products, and the naive
 * mapping users would write by hand (fields read in one locale, a regex to
 * strip tags, no GTIN / VAT / locale / image rules).
 *
 *   npx tsx bench/mapping.ts            (BENCH_PRODUCTS=20000 BENCH_RUNS=7)
 *
 * Timed in CPU seconds of this process (products per CPU-second = per core),
 * robust to other processes on the machine. Median of BENCH_RUNS runs, each
 * with a fresh context (memos empty, as in a real run). Only active products
 * are mapped: the source filter of a real run asks for `status: active`.
 */
import { Product } from "../src/catalogue/schemas/product.js";
import { buildContext, compileChannel, ChannelMapping, mapProduct, parseOffers, type CompiledChannel, type MappingContext } from "../src/mapping/index.js";
import { createCatalogue } from "../src/sandbox/index.js";

const N = Number(process.env.BENCH_PRODUCTS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const NOW = Date.UTC(2026, 0, 15) / 1000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

// --- realistic input ----------------------------------------------------------
const catalogue = createCatalogue({ seed: 7, products: N * 3, assetBaseUrl: "https://assets.sandbox.example" });
const products: Product[] = [];
for (let i = 0; i < catalogue.total && products.length < N; i++) {
  const parsed = Product.safeParse(catalogue.product(i));
  if (parsed.success && (parsed.data.status ?? "active") === "active") products.push(parsed.data);
}
if (products.length < N) console.warn(`only ${products.length} active products in ${catalogue.total}`);

const offerLines = ["id;price;sale_price;sale_from;sale_until;quantity"];
products.forEach((p, i) => {
  if (i % 2 !== 0 || typeof p.publicPrice !== "number") return;
  const cents = Math.max(1, Math.round(p.publicPrice * 0.95));
  const sale = i % 10 === 0 ? `${((cents * 0.8) / 100).toFixed(2).replace(".", ",")};2026-01-01;2026-01-31` : ";;";
  offerLines.push(`${p.id};${(cents / 100).toFixed(2).replace(".", ",")};${sale};${i % 7}`);
});
const offers = parseOffers(offerLines.join("\n"), "csv");
if (offers.errors.length > 0) throw new Error(`offers: ${JSON.stringify(offers.errors.slice(0, 3))}`);

const roots = (catalogue.publicCategories as { id: number; parent?: number | null }[]).filter((c) => c.parent == null);
const googleCategoryMap = Object.fromEntries(roots.map((c, i) => [String(c.id), [491, 2915, 5663, 4551][i % 4] as number]));

const channels: CompiledChannel[] = [
  compileChannel(
    ChannelMapping.parse({
      locale: "fr",
      fallbackLocales: ["en"],
      gtin: { allowIdentifierExistsNo: true },
      images: { formats: { webp: true } },
      title: { template: "{{brand}} {{name}} {{packageContent}}" },
      categories: { googleCategoryMap },
      link: { template: "https://pharmacie.example/fr/{{seoName}}-{{id}}" },
    }),
    "google-fr",
  ),
  compileChannel(
    ChannelMapping.parse({
      locale: "nl",
      fallbackLocales: ["fr", "en"],
      country: "BE",
      eligibility: { allowMedicines: false },
      gtin: { required: false },
      brand: { required: true },
      title: { maxLength: 200 },
      description: { maxLength: 9999 },
      link: { template: "https://apotheek.example/nl/{{seoName}}-{{id}}" },
    }),
    "meta-nl",
  ),
  compileChannel(
    ChannelMapping.parse({
      locale: "fr",
      price: { currency: "none", decimalSeparator: "," },
      gtin: { output: "as-is", required: false },
      description: { maxLength: 1000, required: false },
      images: { required: false },
      eligibility: { exclude: [{ name: "cheap", field: "price", op: "lt", value: 1 }, { field: "categoryType", op: "eq", value: "veterinary_medicine" }] },
      link: { template: "https://pharmacie.example/fr/{{seoName}}-{{id}}" },
      custom: { deliveryTime: "1-3 jours" },
    }),
    "idealo",
  ),
];

function freshContext(): MappingContext {
  return buildContext({
    categories: catalogue.publicCategories as never,
    brands: catalogue.brands as never,
    offers: offers.offers,
    now: NOW,
    priceUnit: "cents",
  });
}

// --- the three contenders -----------------------------------------------------
let sink = 0;
function runMapping(tally?: Map<string, number>[], list: readonly Product[] = products): void {
  const context = freshContext();
  for (const p of list) {
    for (let c = 0; c < channels.length; c++) {
      const r = mapProduct(p, channels[c] as CompiledChannel, context);
      if (r.ok) sink += r.item.title.length;
      else if (tally) for (const reason of r.reasons.slice(0, 1)) tally[c]!.set(reason.code, (tally[c]!.get(reason.code) ?? 0) + 1);
    }
  }
}

function runJsonBaseline(): void {
  for (const p of products) sink += (JSON.parse(JSON.stringify(p)) as { id: string }).id.length;
}

function runNaive(): void {
  const locales = ["fr", "nl", "fr"];
  for (const p of products) {
    for (const locale of locales) {
      const brand = p.brands?.[0]?.name;
      const item = {
        id: p.id,
        title: `${typeof brand === "string" ? brand : (brand?.[locale] ?? "")} ${p.name?.[locale] ?? ""}`.trim(),
        description: (p.descriptions?.[0]?.content?.[locale] ?? "").replace(/<[^>]*>/g, ""),
        link: `https://pharmacie.example/${locale}/${p.seoName?.[locale] ?? ""}-${p.id}`,
        image: p.photos?.[0]?.formats?.huge ?? "",
        price: `${((p.publicPrice ?? 0) / 100).toFixed(2)} EUR`,
        gtin: String(p.eanGtin13 ?? ""),
      };
      sink += item.title.length;
    }
  }
}

/**
 * Seconds of CPU time (user + system) spent by fn: "per core" even when other
 * processes share the machine, where wall time would count their share too.
 * GC helper threads add to it, so it errs on the slow side.
 */
function time(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

// --- run ------------------------------------------------------------------------
const tally = channels.map(() => new Map<string, number>());
runMapping(tally); // warm-up, and the exclusion profile
runJsonBaseline();
runNaive();
// Worst case: products every channel publishes (no early exit on eligibility).
const probe = freshContext();
const publishable = products.filter((p) => channels.every((c) => mapProduct(p, c, probe).ok));
const results = { mapping: [] as number[], publishable: [] as number[], json: [] as number[], naive: [] as number[] };
for (let r = 0; r < RUNS; r++) {
  results.mapping.push(products.length / time(() => runMapping()));
  results.publishable.push(publishable.length / time(() => runMapping(undefined, publishable)));
  results.json.push(products.length / time(runJsonBaseline));
  results.naive.push(products.length / time(runNaive));
}

const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
console.log(`mapping bench: ${products.length} active products x ${channels.length} channels (${channels.map((c) => c.name).join(", ")}), ${offers.offers.size} offers, median of ${RUNS} runs, per CPU-second`);
console.log(`  mapProduct, 3 channels      ${fmt(median(results.mapping)).padStart(10)} products/s   (${fmt(median(results.mapping) * channels.length)} channel-mappings/s, ${(1e6 / (median(results.mapping) * channels.length)).toFixed(1)} us each)`);
console.log(`  same, only products all 3 publish ${fmt(median(results.publishable)).padStart(5)} products/s   (${publishable.length} products: the worst case, no early exits)`);
console.log(`  naive mapping, 3 channels   ${fmt(median(results.naive)).padStart(10)} products/s   (baseline: no GTIN/VAT/locale/image rules)`);
console.log(`  JSON parse+stringify, once  ${fmt(median(results.json)).padStart(10)} products/s   (baseline)`);
console.log(`  goal                        ${fmt(30_000).padStart(10)} products/s   ${median(results.mapping) >= 30_000 ? "met" : "NOT met"}`);
console.log(`  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (tsx loader + ${products.length} products in memory)`);
channels.forEach((c, i) => {
  const excluded = [...tally[i]!.values()].reduce((a, b) => a + b, 0);
  const top = [...tally[i]!.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${v}`).join(", ");
  console.log(`  ${c.name.padEnd(10)} published ${products.length - excluded}, excluded ${excluded}${top ? ` (${top})` : ""}`);
});
if (sink === -1) console.log("");
