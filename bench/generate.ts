/**
 * Benchmark of the nightly job: 100,000 generated products, every preset in two
 * locales (28 outputs since the German presets; 22 before), through the sandbox, beside a baseline measured in the
 * same run: the same stream read with split and JSON.parse only, and the "simple code" baseline
 * (received, parsed, the same rows written by a plain renderer, hashed, the google ones gzipped:
 * the least any implementation must do; bench/generate-child.ts).
 *
 *   npx tsx bench/generate.ts [--products 100000] [--runs 3] [--memory 10000,100000,1000000 | none]
 *
 * Prints products/s (median of the runs) of both sides and their ratio, then
 * the peak RSS of a generate run at each --memory size (flat is the goal).
 * Each side runs in its own process; the sandbox in a third. The generate side
 * is the built CLI (`node dist/cli.js generate`, built first), as cron runs it:
 * wall time from spawn to exit, products and peak RSS from its JSON log.
 *
 *   --workers N          passed to generate (default: its own, one per core up to 4)
 *   --outputs 1,6,22     also time generate with only the first K of the channels (google-fr,
 *                        google-nl, google-tsv-fr, ...), each beside the same baseline: what one
 *                        more output costs (default all of them; --memory runs always use all)
 *   --node-flags "..."   node flags of the generate process only, e.g. "--max-semi-space-size=4"
 *                        (README, Memory); the baseline and the sandbox keep node's defaults
 *   --alloc              also run generate once with --trace-gc-nvp and sum what every isolate (main
 *                        thread and workers) allocated between its collections: bytes allocated per
 *                        product (what is allocated after an isolate's last collection is not counted:
 *                        at most its young generation, a few MB against GBs)
 *   --fsync-cost         also time generate with PHARMAFEED_FSYNC=0 (no fsync of files and folders
 *                        before and after their renames, core/atomic-file.ts), alternated with the
 *                        durable runs: what a power-cut-safe publish costs on this disk
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { once } from "node:events";
import { PRESET_NAMES } from "../src/presets/index.js";
import { DEMO_KEY } from "../src/sandbox/index.js";
import { flag, hasFlag, message, startChild } from "./common.js";

const PRODUCTS = Number(flag("products", "100000"));
const RUNS = Number(flag("runs", "3"));
const MEMORY = flag("memory", "10000,100000").split(",").map(Number).filter((n) => n > 0); // "--memory none": no memory runs
const WORKERS = flag("workers", "");
const OUTPUTS = flag("outputs", String(PRESET_NAMES.length * 2)).split(",").map(Number);
const NODE_FLAGS = flag("node-flags", "").split(" ").filter((f) => f !== "");
const FSYNC_COST = hasFlag("fsync-cost");
const ALLOC = hasFlag("alloc");
const SEED = 1;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

async function withSandbox<T>(products: number, body: (url: string) => Promise<T>): Promise<T> {
  const sandbox = startChild("./sandbox-child.ts", ["sandbox", String(products), String(SEED)]);
  try {
    const { url } = await message<{ url: string }>(sandbox);
    return await body(url);
  } finally {
    sandbox.send("exit");
  }
}

interface Sample {
  seconds: number;
  products: number;
  rssMb: number;
  workers?: number;
}

const root = here("../");
execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });

/** The config's channel names in its order, as generate-child.ts writes them. */
const CHANNELS = PRESET_NAMES.flatMap((preset) => [`${preset}-fr`, `${preset}-nl`]);

/** The built CLI over a config written by the child script (every preset in fr and nl), on its first `outputs` channels. */
async function generateCli(url: string, dir: string, outputs: number, durable = true, traceGc = false): Promise<Sample & { allocated?: number }> {
  await message(startChild("./generate-child.ts", ["config", url, dir]));
  const only = outputs < CHANNELS.length ? CHANNELS.slice(0, outputs).flatMap((name) => ["--channel", name]) : [];
  const args = [...NODE_FLAGS, ...(traceGc ? ["--trace-gc-nvp"] : []), join(root, "dist/cli.js"), "generate", "--config", join(dir, "pharmafeed.json"), "--force", "--log-format", "json", ...only, ...(WORKERS ? ["--workers", WORKERS] : [])];
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, BENCH_KEY_ID: DEMO_KEY.id, BENCH_KEY_SECRET: DEMO_KEY.secret, ...(durable ? {} : { PHARMAFEED_FSYNC: "0" }) } });
  let log = "";
  child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  // With --trace-gc-nvp, V8 prints a line per collection of each isolate to stdout: "allocated=" is what it allocated since its previous one.
  let allocated = 0;
  let partial = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) allocated += Number(/ allocated=(\d+)/.exec(line)?.[1] ?? 0);
  });
  const [code] = (await once(child, "exit")) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`generate exited with ${code}:\n${log.slice(-2000)}`);
  const done = log
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string; products?: number; peakRssMb?: number; workers?: number })
    .find((entry) => entry.msg === "products mapped");
  if (!done) throw new Error("no 'products mapped' line in generate's log");
  return { seconds, products: done.products ?? 0, rssMb: done.peakRssMb ?? 0, workers: done.workers ?? 0, ...(traceGc ? { allocated } : {}) };
}

async function measure(mode: "generate" | "baseline" | "simple" | "no-fsync" | "alloc", url: string, outputs = CHANNELS.length): Promise<Sample & { allocated?: number }> {
  const dir = await mkdtemp(join(tmpdir(), "pharmafeed-bench-"));
  try {
    if (mode !== "baseline" && mode !== "simple") return await generateCli(url, dir, outputs, mode !== "no-fsync", mode === "alloc");
    return await message<Sample>(startChild("./generate-child.ts", [mode, url, dir]));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString("en");

await withSandbox(PRODUCTS, async (url) => {
  const gen = new Map<number, Sample[]>(OUTPUTS.map((k) => [k, []]));
  const base: Sample[] = [];
  const simple: Sample[] = [];
  const noFsync: Sample[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Alternated so that machine noise falls on both sides alike.
    base.push(await measure("baseline", url));
    simple.push(await measure("simple", url));
    for (const k of OUTPUTS) gen.get(k)!.push(await measure("generate", url, k));
    if (FSYNC_COST) noFsync.push(await measure("no-fsync", url));
  }
  const b = median(base.map((s) => s.products / s.seconds));
  const plain = median(simple.map((s) => s.products / s.seconds));
  const first = gen.get(OUTPUTS[0]!)![0]!;
  const flags = NODE_FLAGS.length > 0 ? `, node ${NODE_FLAGS.join(" ")}` : "";
  console.log(`generate bench: ${fmt(first.products)} active products of ${fmt(PRODUCTS)} generated, ${CHANNELS.length} outputs (${PRESET_NAMES.length} presets x fr, nl), ${first.workers} worker threads${flags}, median of ${RUNS} runs`);
  for (const [k, samples] of gen) {
    const g = median(samples.map((s) => s.products / s.seconds));
    const label = k === CHANNELS.length ? "generate" : `generate, ${k} output${k === 1 ? "" : "s"}`;
    const ofSimple = k === CHANNELS.length ? `, ${(g / plain).toFixed(2)}x of simple code` : "";
    console.log(`  ${label.padEnd(20)} ${fmt(g).padStart(8)} products/s   peak RSS ${fmt(median(samples.map((s) => s.rssMb)))} MB   ratio ${(g / b).toFixed(2)}x${ofSimple}`);
  }
  console.log(`  baseline split+parse ${fmt(b).padStart(8)} products/s   peak RSS ${fmt(median(base.map((s) => s.rssMb)))} MB`);
  console.log(`  simple code, ${CHANNELS.length} rows ${fmt(plain).padStart(8)} products/s   peak RSS ${fmt(median(simple.map((s) => s.rssMb)))} MB   ratio ${(plain / b).toFixed(2)}x of split+parse`);
  if (FSYNC_COST) {
    const wall = (samples: Sample[]) => median(samples.map((x) => x.seconds));
    const durable = wall(gen.get(CHANNELS.length) ?? gen.get(OUTPUTS[0]!)!);
    console.log(`  no fsync             ${fmt(median(noFsync.map((x) => x.products / x.seconds))).padStart(8)} products/s   wall ${wall(noFsync).toFixed(1)} s against ${durable.toFixed(1)} s with fsync: the syncs cost ${(((durable - wall(noFsync)) / wall(noFsync)) * 100).toFixed(1)} %`);
  }
  if (ALLOC) {
    const traced = await measure("alloc", url);
    console.log(`  allocated            ${fmt((traced.allocated ?? 0) / traced.products / 1024).padStart(8)} KB per product (${((traced.allocated ?? 0) / 2 ** 30).toFixed(1)} GB in all isolates, one traced run of ${CHANNELS.length} outputs)`);
  }
  console.log(`  goals                ${CHANNELS.length} outputs >= 0.5x of simple code; 1 output >= 0.45x of split+parse; < 60 KB allocated per product; peak RSS < 200 MB`);
  if (OUTPUTS.length > 1) {
    // Wall time per product against the number of outputs: a straight line's slope is what one output costs.
    const points = [...gen].map(([k, samples]) => [k, 1e6 / median(samples.map((s) => s.products / s.seconds))] as const);
    const [k0, t0] = points[0]!;
    const [k1, t1] = points[points.length - 1]!;
    if (k1 !== k0) console.log(`  per product: ${t0.toFixed(0)} us wall with ${k0} output${k0 === 1 ? "" : "s"}, +${((t1 - t0) / (k1 - k0)).toFixed(1)} us per further output; the baseline ${(1e6 / b).toFixed(0)} us`);
  }
});

for (const size of MEMORY) {
  await withSandbox(size, async (url) => {
    const s = await measure("generate", url);
    console.log(`  memory at ${fmt(size).padStart(9)} products: peak RSS ${fmt(s.rssMb)} MB (${fmt(s.products / s.seconds)} products/s, ${s.workers} worker threads)`);
  });
}
