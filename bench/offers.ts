/**
 * Memory of the offers file: the peak RSS a `generate` run adds when its config
 * names an offers file of 200,000 and of 2,000,000 rows, against the same run
 * without offers (the baseline), measured in the same bench run.
 *
 *   npx tsx bench/offers.ts [--rows 200000,2000000] [--runs 3] [--products 2000] [--workers 2] [--limit-mb 512 | 0]
 *
 * Each run is the built CLI (`node dist/cli.js generate`, built first) in its own
 * process, over a sandbox in another; its peak RSS is the process's own
 * (getrusage at exit: every thread, shared memory once). Rows: a chain's export,
 * `gtin;price;sale_price;quantity;availability;link`, every GTIN distinct and
 * valid, a sale on one row in 5, a link on one row in 10. The largest size is
 * also run inside a memory cgroup of `--limit-mb` when this process may create
 * one (root on cgroup v1 or v2, as on the CI machine); the goals are printed
 * beside the figures: +60 MB at 200,000 rows, finishing under 512 MB at 2,000,000.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, existsSync, mkdirSync, rmdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_KEY } from "../src/sandbox/index.js";
import { makeMemoryCgroup } from "../test/e2e/cgroup.js";
import { flag, startChild } from "./common.js";

const ROWS = flag("rows", "200000,2000000").split(",").map(Number);
const RUNS = Number(flag("runs", "3"));
const PRODUCTS = Number(flag("products", "2000"));
const WORKERS = flag("workers", "2");
const LIMIT_MB = Number(flag("limit-mb", "512"));
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const root = here("../");

/** GS1 check digit of the 12 digits before it. */
function gtin13(body: number): string {
  const digits = String(body).padStart(12, "0");
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return digits + String((10 - (sum % 10)) % 10);
}

async function writeOffers(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write("gtin;price;sale_price;quantity;availability;link\n");
  for (let i = 0; i < rows; i++) {
    const price = 100 + (i % 9000);
    const line = `${gtin13(340093000000 + i)};${Math.floor(price / 100)},${String(price % 100).padStart(2, "0")};${i % 5 === 0 ? "0,99" : ""};${i % 37};${i % 37 === 0 ? "out_of_stock" : "in_stock"};${i % 10 === 0 ? `https://pharmacie.example/p/${i}` : ""}\n`;
    if (!out.write(line)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

async function writeConfig(dir: string, url: string, offers: string | undefined): Promise<string> {
  const channels = ["google", "generic-csv"].map((preset) => ({ name: `${preset}-fr`, preset, locale: "fr", link: { template: "https://shop.example/p/{{id}}" }, gate: { maxDropPercent: 100, maxRejectedPercent: 100 } }));
  for (const c of channels) await writeFile(join(dir, `${c.name}.json`), JSON.stringify(c));
  const main = {
    source: { baseUrl: url, keyId: "${BENCH_KEY_ID}", keySecret: "${BENCH_KEY_SECRET}", contact: "bench@pharmafeed.example", rateLimit: 1000 },
    shop: { name: "Bench", url: "https://shop.example" },
    output: { dir: "out" },
    ...(offers ? { offers: { file: offers } } : {}),
    channels: channels.map((c) => `${c.name}.json`),
  };
  const file = join(dir, "pharmafeed.json");
  await writeFile(file, JSON.stringify(main));
  return file;
}

interface Sample {
  rssMb: number;
  seconds: number;
  code: number | null;
  /** The run's error line when it failed. */
  error?: string;
}

/** The built CLI; its peak RSS written at exit by a module preloaded with --import. */
async function generate(config: string, cgroup?: { procs: string }): Promise<Sample> {
  const dir = await mkdtemp(join(tmpdir(), "pharmafeed-bench-rss-"));
  const rssFile = join(dir, "rss");
  const hook = `data:text/javascript,import{writeFileSync}from"node:fs";process.on("exit",()=>writeFileSync(${JSON.stringify(rssFile)},String(process.resourceUsage().maxRSS)))`;
  const argv = ["--import", hook, join(root, "dist/cli.js"), "generate", "--config", config, "--workers", WORKERS, "--log-format", "json"];
  // Under a cgroup: a shell joins it first, then becomes node (exec), so node's whole life is limited.
  const child: ChildProcess = cgroup
    ? spawn("/bin/sh", ["-c", `echo $$ > ${cgroup.procs} && exec "$0" "$@"`, process.execPath, ...argv], { stdio: ["ignore", "ignore", "pipe"], env: benchEnv() })
    : spawn(process.execPath, argv, { stdio: ["ignore", "ignore", "pipe"], env: benchEnv() });
  let log = "";
  child.stderr!.on("data", (chunk: Buffer) => (log = (log + chunk.toString("utf8")).slice(-4000)));
  const started = performance.now();
  const [code] = (await once(child, "exit")) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  const kb = existsSync(rssFile) ? Number(await readFile(rssFile, "utf8")) : NaN;
  await rm(dir, { recursive: true, force: true });
  const error = code === 0 ? undefined : (/"msg":"([^"]*)"[^\n]*"level":"error"|"level":"error","msg":"([^"]*)"/.exec(log)?.slice(1).find(Boolean) ?? log.trim().split("\n").at(-1) ?? "");
  return { rssMb: kb / 1024, seconds, code, ...(error === undefined ? {} : { error }) };
}

function benchEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_KEY_ID: DEMO_KEY.id, BENCH_KEY_SECRET: DEMO_KEY.secret };
  delete env["NODE_OPTIONS"];
  return env;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString("en");

execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
const work = await mkdtemp(join(tmpdir(), "pharmafeed-bench-offers-"));
const sandbox = startChild("./sandbox-child.ts", ["sandbox", String(PRODUCTS), "1"]);
try {
  const { url } = await new Promise<{ url: string }>((resolve) => sandbox.once("message", (m) => resolve(m as { url: string })));
  const configs = new Map<number, string>();
  for (const rows of [0, ...ROWS]) {
    const dir = join(work, String(rows));
    mkdirSync(dir);
    if (rows > 0) await writeOffers(join(dir, "offers.csv"), rows);
    configs.set(rows, await writeConfig(dir, url, rows > 0 ? "offers.csv" : undefined));
  }
  const samples = new Map<number, Sample[]>([...configs.keys()].map((k) => [k, []]));
  for (let run = 0; run < RUNS; run++) {
    // Alternated so that machine noise falls on every size alike.
    for (const [rows, config] of configs) samples.get(rows)!.push(await generate(config));
  }
  const base = median(samples.get(0)!.map((s) => s.rssMb));
  console.log(`offers bench: generate over ${fmt(PRODUCTS)} generated products, 2 channels, --workers ${WORKERS}, peak RSS median of ${RUNS} runs`);
  console.log(`  baseline (no offers file)   peak RSS ${fmt(base).padStart(5)} MB   ${median(samples.get(0)!.map((s) => s.seconds)).toFixed(1)} s`);
  for (const rows of ROWS) {
    const rss = median(samples.get(rows)!.map((s) => s.rssMb));
    const seconds = median(samples.get(rows)!.map((s) => s.seconds));
    const failed = samples.get(rows)!.find((s) => s.code !== 0);
    const verdict = failed ? `   FAILED (exit ${failed.code}: ${failed.error})` : "";
    console.log(`  ${fmt(rows).padStart(9)} offers rows       peak RSS ${fmt(rss).padStart(5)} MB   +${fmt(rss - base)} MB over the baseline   ${seconds.toFixed(1)} s${verdict}`);
  }
  console.log(`  goals                       +60 MB at most for 200,000 rows; 2,000,000 rows within a ${LIMIT_MB} MB memory limit`);
  const largest = Math.max(...ROWS);
  const cgroup = LIMIT_MB > 0 ? makeMemoryCgroup(LIMIT_MB, "bench", { noSwap: true }) : undefined;
  if (LIMIT_MB === 0) console.log("  (--limit-mb 0: no run under a memory limit)");
  else if (!cgroup) console.log(`  (no memory cgroup could be made here: the ${LIMIT_MB} MB run is skipped; its peak RSS above is the figure to compare)`);
  else {
    try {
      const limited = await generate(configs.get(largest)!, cgroup);
      const verdict = limited.code === 0 ? "finished (exit 0)" : `FAILED (exit ${limited.code}${Number.isNaN(limited.rssMb) ? ", killed" : ""})`;
      console.log(`  ${fmt(largest).padStart(9)} rows in a ${LIMIT_MB} MB cgroup: ${verdict}, peak RSS ${fmt(limited.rssMb)} MB, ${limited.seconds.toFixed(1)} s`);
    } finally {
      rmdirSync(cgroup.dir);
    }
  }
} finally {
  sandbox.send("exit");
  await rm(work, { recursive: true, force: true });
}
