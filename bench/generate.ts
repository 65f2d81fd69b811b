/**
 * Benchmark of the nightly job: 100,000 generated products, every preset in two
 * locales (22 outputs), through the sandbox, beside a baseline measured in the
 * same run: the same stream read with split and JSON.parse only.
 *
 *   npx tsx bench/generate.ts [--products 100000] [--runs 3] [--memory 10000,100000,1000000]
 *
 * Prints products/s (median of the runs) of both sides and their ratio, then
 * the peak RSS of a generate run at each --memory size (flat is the goal).
 * Each side runs in its own process; the sandbox in a third. The generate side
 * is the built CLI (`node dist/cli.js generate`, built first), as cron runs it:
 * wall time from spawn to exit, products and peak RSS from its JSON log.
 *
 *   --workers N          passed to generate (default: its own, one per core up to 4)
 *   --node-flags "..."   node flags of the generate process only, e.g. "--max-semi-space-size=4"
 *                        (README, Memory); the baseline and the sandbox keep node's defaults
 */
import { execFileSync, fork, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { once } from "node:events";
import { DEMO_KEY } from "../src/sandbox/index.js";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const PRODUCTS = Number(flag("products", "100000"));
const RUNS = Number(flag("runs", "3"));
const MEMORY = flag("memory", "10000,100000").split(",").map(Number);
const WORKERS = flag("workers", "");
const NODE_FLAGS = flag("node-flags", "").split(" ").filter((f) => f !== "");
const SEED = 1;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

function start(script: string, argv: string[]): ChildProcess {
  return fork(here(script), argv, { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
}

function message<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once("message", (m) => resolve(m as T));
    child.once("exit", (code) => reject(new Error(`child exited with ${code}`)));
  });
}

async function withSandbox<T>(products: number, body: (url: string) => Promise<T>): Promise<T> {
  const sandbox = start("./sandbox-child.ts", ["sandbox", String(products), String(SEED)]);
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

/** The built CLI over a config written by the child script (every preset in fr and nl). */
async function generateCli(url: string, dir: string): Promise<Sample> {
  await message(start("./generate-child.ts", ["config", url, dir]));
  const args = [...NODE_FLAGS, join(root, "dist/cli.js"), "generate", "--config", join(dir, "pharmafeed.json"), "--force", "--log-format", "json", ...(WORKERS ? ["--workers", WORKERS] : [])];
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, BENCH_KEY_ID: DEMO_KEY.id, BENCH_KEY_SECRET: DEMO_KEY.secret } });
  let log = "";
  child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  const [code] = (await once(child, "exit")) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`generate exited with ${code}:\n${log.slice(-2000)}`);
  const done = log
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string; products?: number; peakRssMb?: number; workers?: number })
    .find((entry) => entry.msg === "products mapped");
  if (!done) throw new Error("no 'products mapped' line in generate's log");
  return { seconds, products: done.products ?? 0, rssMb: done.peakRssMb ?? 0, workers: done.workers ?? 0 };
}

async function measure(mode: "generate" | "baseline", url: string): Promise<Sample> {
  const dir = await mkdtemp(join(tmpdir(), "pharmafeed-bench-"));
  try {
    if (mode === "generate") return await generateCli(url, dir);
    return await message<Sample>(start("./generate-child.ts", [mode, url, dir]));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString("en");

await withSandbox(PRODUCTS, async (url) => {
  const gen: Sample[] = [];
  const base: Sample[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Alternated so that machine noise falls on both sides alike.
    base.push(await measure("baseline", url));
    gen.push(await measure("generate", url));
  }
  const g = median(gen.map((s) => s.products / s.seconds));
  const b = median(base.map((s) => s.products / s.seconds));
  const flags = NODE_FLAGS.length > 0 ? `, node ${NODE_FLAGS.join(" ")}` : "";
  console.log(`generate bench: ${fmt(gen[0]!.products)} active products of ${fmt(PRODUCTS)} generated, 22 outputs (11 presets x fr, nl), ${gen[0]!.workers} worker threads${flags}, median of ${RUNS} runs`);
  console.log(`  generate             ${fmt(g).padStart(8)} products/s   peak RSS ${fmt(median(gen.map((s) => s.rssMb)))} MB`);
  console.log(`  baseline split+parse ${fmt(b).padStart(8)} products/s   peak RSS ${fmt(median(base.map((s) => s.rssMb)))} MB`);
  console.log(`  ratio                ${(g / b).toFixed(2)}x   (goal >= 0.5x)`);
});

for (const size of MEMORY) {
  await withSandbox(size, async (url) => {
    const s = await measure("generate", url);
    console.log(`  memory at ${fmt(size).padStart(9)} products: peak RSS ${fmt(s.rssMb)} MB (${fmt(s.products / s.seconds)} products/s, ${s.workers} worker threads)`);
  });
}
