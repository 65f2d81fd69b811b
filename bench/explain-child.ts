/**
 * One size of bench/explain.ts, in its own process: writes an explain index of N
 * generated products through the run's hook (11 channels, as the sample config),
 * then times lookups by id, by GTIN and by words. Prints one JSON line
 * (BENCH_TRACE=1: RSS and V8 heap every 100,000 products on stderr).
 */
import { closeSync, createReadStream, openSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { mkdir } from "node:fs/promises";
import { silentLogger } from "../src/log.js";
import { ExplainHook, type ChannelSink } from "../src/explain/run-hook.js";
import { excludedOutcome, itemOutcome, type IndexProduct, type Outcome } from "../src/explain/entry.js";
import { entryText, RowsWriter, rowsPath } from "../src/rowcache/file.js";
import { ExplainIndex, explainFile } from "../src/explain/store.js";
import type { ChannelEntry } from "../src/publish/manifest.js";

const CHANNELS = ["google-fr", "google-tsv-nl", "meta-fr", "meta-xml-nl", "microsoft-fr", "idealo-fr", "kelkoo-fr", "beslist-nl", "generic-csv-nl", "generic-json-fr", "generic-ndjson-fr"];
const WORDS = ("doliprane paracetamol ibuprofene gel creme solaire spray nasal vitamine magnesium zinc serum shampooing baume levres comprimes gelules sirop toux " +
  "gorge pastilles collyre pansement hydratant nettoyant micellaire dentifrice brosse bain douche lait corps mains pieds huile essentielle lavande arnica").split(" ");
const BRANDS = ["Nutrilab", "Avène", "La Roche-Posay", "Vichy", "Uriage", "Bioderma", "Arkopharma", "Weleda"];

/** A small seeded generator: the same products every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}

function gtin13(n: number): string {
  const body = `540${String(n).padStart(9, "0")}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
  return body + String((10 - (sum % 10)) % 10);
}

const productId = (i: number): string => `M${i.toString(16).toUpperCase().padStart(9, "0")}`;

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => args[args.indexOf(`--${name}`) + 1] && args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1]! : fallback;
const products = Number(arg("products", "100000"));
const lookups = Number(arg("lookups", "300"));
const dir = arg("dir", "");
/** sqlite: the explain index; ndjson: the simplest alternative, one JSON line per product, scanned to answer. */
const mode = arg("mode", "sqlite");

const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const peakMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

await mkdir(dir, { recursive: true });
const random = rng(42);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const startRss = rssMb();
let line: { product: IndexProduct; outcomes: Outcome[] } | undefined;
const ndjsonFile = join(dir, "explain.ndjson");
const ndjson = mode === "ndjson" ? openSync(ndjsonFile, "w") : undefined;
let pendingLines: string[] = [];
const flushLines = () => {
  if (ndjson !== undefined && pendingLines.length > 0) writeSync(ndjson, pendingLines.join(""));
  pendingLines = [];
};
const hook =
  mode === "ndjson"
    ? {
        product: (product: IndexProduct) => {
          if (line) pendingLines.push(`${JSON.stringify(line)}\n`);
          if (pendingLines.length >= 1000) flushLines();
          line = { product, outcomes: [] };
        },
        channel: (i: number): ChannelSink => ({
          text: (outcome) => void (line!.outcomes[i] = JSON.parse(outcome) as Outcome),
          failed: () => undefined,
        }),
        commit: async () => {
          if (line) pendingLines.push(`${JSON.stringify(line)}\n`);
          flushLines();
          closeSync(ndjson!);
        },
      }
    : (await ExplainHook.open(dir, CHANNELS.length, silentLogger, false))!;
// The run's state log, which the index points into (a run's RowsRecorder, less the offers and the trailer's facts).
await mkdir(join(dir, "state"), { recursive: true });
const log = mode === "ndjson" ? undefined : new RowsWriter(rowsPath(dir));
if (log && hook instanceof ExplainHook) hook.listen({ add: (p, n, until, c) => log.addLine(entryText(p, n, "", until, c)) });
const sinks = CHANNELS.map((_, i) => hook.channel(i));
const offsets = CHANNELS.map(() => 1000);
const started = performance.now();
for (let i = 0; i < products; i++) {
  if (process.env["BENCH_TRACE"] && i % 100000 === 0) {
    const m = process.memoryUsage();
    console.error(i, "rss", Math.round(m.rss / 2 ** 20), "heap", Math.round(m.heapTotal / 2 ** 20), "ext", Math.round(m.external / 2 ** 20));
  }
  const name = `${pick(WORDS)} ${pick(WORDS)} ${Math.floor(random() * 1000)} mg ${pick(WORDS)}`;
  const gtin = gtin13(i);
  hook.product({ id: productId(i), codes: [gtin.padStart(14, "0")], gtin, cip13: undefined, names: { fr: name, nl: `${name} nl` }, brand: pick(BRANDS) }, i, Infinity);
  // Like the sample run: about a third of the products left out of a channel, with one or two reasons.
  const excluded = random() < 0.35;
  const reasons = random() < 0.3 ? [{ code: "PRESCRIPTION" }, { code: "NO_IMAGE" }] : [{ code: "MISSING_DESCRIPTION" }];
  for (const [c, sink] of sinks.entries()) {
    // As a channel gives them (pipeline/channel-run.ts emit): the outcome's text.
    if (excluded) sink.text(JSON.stringify(excludedOutcome(reasons, 80)));
    else {
      const bytes = 600 + Math.floor(random() * 900);
      sink.text(JSON.stringify(itemOutcome(offsets[c]!, bytes, random() < 0.05 ? [{ code: "TITLE_TRUNCATED" }] : [], c % 4 === 1 && random() < 0.2 ? { description: "fr" } : {}, { warningBytes: 0, mask: [] })));
      offsets[c]! += bytes + 1;
    }
  }
}
const loopPeakMb = peakMb();
const entries = CHANNELS.map((name, c) => ({ name, file: `${name}.xml`, locale: name.endsWith("nl") ? "nl" : "fr", format: "xml", published: true, bytes: offsets[c] })) as unknown as ChannelEntry[];
const trailer = { startedAt: new Date().toISOString(), code: "bench", now: 0, reference: "", offers: false, channels: [], rejections: [] };
await hook.commit(dir, trailer.startedAt, entries, async () => log?.commit(trailer));
const writeMs = performance.now() - started;
const writePeakMb = peakMb();
const file = mode === "ndjson" ? ndjsonFile : explainFile(dir);
const bytes = statSync(file).size;

if (mode === "ndjson") {
  // The alternative's lookup: read the file until the line of the id (a few, each a whole scan on average half the file).
  const ms: number[] = [];
  for (let n = 0; n < 5; n++) {
    const wanted = `{"product":{"id":"${productId(Math.floor(random() * products))}"`;
    const t = performance.now();
    let found = false;
    for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      if (text.startsWith(wanted)) {
        JSON.parse(text);
        found = true;
        break;
      }
    }
    if (!found) throw new Error("id not found in the ndjson");
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(JSON.stringify({ mode, products, writeMs, usPerProduct: (writeMs * 1000) / products, bytes, bytesPerProduct: bytes / products, startRssMb: startRss, writePeakMb, byIdMedian: ms[2] }));
  process.exit(0);
}

const index = ExplainIndex.open(file)!;
function time(fn: (i: number) => unknown): { median: number; p99: number } {
  const ms: number[] = [];
  for (let i = 0; i < lookups; i++) {
    const t = performance.now();
    fn(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)]!, p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))]! };
}
const byId = time(() => {
  if (!index.byId(productId(Math.floor(random() * products)))) throw new Error("id not found");
});
const byGtin = time(() => {
  if (index.byCode(gtin13(Math.floor(random() * products)).padStart(14, "0")).length !== 1) throw new Error("gtin not found");
});
let matched = 0;
const byWords = time(() => {
  matched += index.byWords(`${pick(WORDS)} ${pick(WORDS)}`, "fr", 20).total;
});
index.close();
console.log(JSON.stringify({ products, writeMs, usPerProduct: (writeMs * 1000) / products, bytes, bytesPerProduct: bytes / products, startRssMb: startRss, loopPeakMb, writePeakMb, byId, byGtin, byWords, wordsMatchedAvg: Math.round(matched / lookups), file }));
