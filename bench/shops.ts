/**
 * Benchmark of many shops from one catalogue read (issue 36, docs/shops.md): 1, 10 and 50 shops,
 * each with the sample config's channels (config/channels/, links on the shop's own domain) and an
 * offers file of its own (every product, its own prices), over generated products served by the
 * sandbox (photos linked as served: images.process is left out, bench/images.ts measures it). Beside it, in the same run, the baseline: one shop as a config without `shops` (what
 * every user has today).
 *
 *   npx tsx bench/shops.ts [--products 100000] [--shops 1,10,50] [--runs 1] [--workers N] [--cpu-prof DIR] [--keep] [--cli FILE]
 *
 * Per size: wall time (spawn to exit, the built CLI as cron runs it), peak RSS of the process
 * (GNU time's maximum resident set: the main thread and its worker threads), the catalogue
 * requests the sandbox answered (products/stream and the reference lists), and per shop what one
 * more shop costs. Goals: 10 shops at most 3x one shop's wall time and one shop's catalogue
 * requests, peak RSS under 1.5x one shop's. Medians when --runs > 1.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCatalogue, DEMO_KEY } from "../src/sandbox/index.js";
import { flag, message, startChild } from "./common.js";

const PRODUCTS = Number(flag("products", "100000"));
const SIZES = flag("shops", "1,10,50").split(",").map(Number);
const RUNS = Number(flag("runs", "1"));
const WORKERS = flag("workers", "");
/** A folder: the generate runs write CPU profiles there (node --cpu-prof), for a look at where a shop's time goes. */
const PROFILE = flag("cpu-prof", "");
/** Leave each run's folder (config, output) in place and say where: to look at what a shop writes. */
const KEEP = process.argv.includes("--keep");
/** Another build's CLI (a copy of dist/ made before a change): to compare two builds on one machine, run after run. */
const CLI = flag("cli", "");
const SEED = 1;
const root = fileURLToPath(new URL("../", import.meta.url));
if (!CLI) execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });

const sample = JSON.parse(await readFile(join(root, "config/pharmafeed.json"), "utf8")) as { shop: { certifications: string[] }; channels: string[] };
const ids = (() => {
  const catalogue = createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://127.0.0.1:0" });
  return Array.from({ length: PRODUCTS }, (_, i) => catalogue.id(i));
})();

/** The sample channels, their links on `{{{shopUrl}}}` (the sample writes its own domain), the gate open (generated data). */
async function channels(dir: string): Promise<string[]> {
  await mkdir(join(dir, "channels"), { recursive: true });
  const names: string[] = [];
  for (const file of sample.channels) {
    const channel = JSON.parse(await readFile(join(root, "config", file), "utf8")) as Record<string, unknown> & { link?: { template: string } };
    if (channel.link) channel.link.template = channel.link.template.replace(/^https:\/\/[^/]+/, "{{{shopUrl}}}");
    channel["gate"] = { maxRejectedPercent: 100, maxDropPercent: 100 };
    // Photos are linked as the catalogue serves them: converting 100,000 photos is bench/images.ts's subject, not this one's.
    if (typeof channel["images"] === "object" && channel["images"] !== null) delete (channel["images"] as Record<string, unknown>)["process"];
    await writeFile(join(dir, file), JSON.stringify(channel));
    names.push(file);
  }
  return names;
}

function offers(shop: number): string {
  const lines = ["id;price;quantity"];
  for (let i = 0; i < ids.length; i++) lines.push(`${ids[i]};${((500 + ((i * 7 + shop * 13) % 5000)) / 100).toFixed(2)};${(i + shop) % 9}`);
  return `${lines.join("\n")}\n`;
}

const source = { baseUrl: "${BENCH_URL}", keyId: "${BENCH_KEY_ID}", keySecret: "${BENCH_KEY_SECRET}", contact: "bench@example.com" };

/** A config of `n` shops (n = 0: one shop as a config without `shops`, the baseline). */
async function writeConfig(dir: string, n: number): Promise<string> {
  const files = await channels(dir);
  const shop = (k: number) => ({ name: `Pharmacie ${k}`, url: `https://shop-${k}.example`, certifications: sample.shop.certifications });
  if (n === 0) {
    await writeFile(join(dir, "offers.csv"), offers(0));
    await writeFile(join(dir, "pharmafeed.json"), JSON.stringify({ source, shop: shop(0), output: { dir: "out" }, offers: { file: "offers.csv" }, channels: files }));
    return join(dir, "pharmafeed.json");
  }
  await mkdir(join(dir, "shops"));
  for (let k = 0; k < n; k++) {
    const name = `shop-${String(k).padStart(3, "0")}`;
    await writeFile(join(dir, "shops", `${name}.csv`), offers(k));
    await writeFile(join(dir, "shops", `${name}.json`), JSON.stringify({ shop: shop(k), offers: { file: `${name}.csv` } }));
  }
  await writeFile(join(dir, "pharmafeed.json"), JSON.stringify({ source, shop: shop(0), output: { dir: "out" }, channels: files, shops: "shops" }));
  return join(dir, "pharmafeed.json");
}

interface Sample {
  seconds: number;
  /** User + system CPU time of the process (all its threads): above the wall time, the cores were shared out. */
  cpuSeconds: number;
  rssMb: number;
  stream: number;
  reference: number;
  bytes: number;
}

async function du(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(xml|csv|tsv|json|ndjson|gz)$/.test(entry.name) && !entry.parentPath.includes("history")) total += (await import("node:fs")).statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

async function measure(sandbox: ReturnType<typeof startChild>, url: string, n: number): Promise<Sample> {
  const dir = await mkdtemp(join(tmpdir(), "pharmafeed-bench-shops-"));
  try {
    const config = await writeConfig(dir, n);
    const before = (await ask(sandbox)).byPath;
    const args = ["-f", "%M %U %S", process.execPath, ...(PROFILE ? ["--cpu-prof", "--cpu-prof-dir", join(PROFILE, String(n))] : []), CLI || join(root, "dist/cli.js"), "generate", "--config", config, "--log-format", "json", "--force", ...(WORKERS ? ["--workers", WORKERS] : [])];
    const started = performance.now();
    const child = spawn("/usr/bin/time", args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, BENCH_URL: url, BENCH_KEY_ID: DEMO_KEY.id, BENCH_KEY_SECRET: DEMO_KEY.secret } });
    let log = "";
    child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
    const [code] = (await once(child, "exit")) as [number | null];
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`generate (${n} shops) exited with ${code}:\n${log.slice(-3000)}`);
    const after = (await ask(sandbox)).byPath;
    const delta = (path: (p: string) => boolean) => Object.entries(after).reduce((sum, [p, count]) => sum + (path(p) ? count - (before[p] ?? 0) : 0), 0);
    const [rssKb, user, system] = log.trim().split("\n").at(-1)!.split(" ").map(Number) as [number, number, number];
    return { seconds, cpuSeconds: user + system, rssMb: rssKb / 1024, stream: delta((p) => p.endsWith("/products/stream")), reference: delta((p) => !p.endsWith("/products/stream")), bytes: await du(join(dir, "out")) };
  } finally {
    if (KEEP) console.log(`  kept ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

function ask(sandbox: ReturnType<typeof startChild>): Promise<{ byPath: Record<string, number> }> {
  const answer = message<{ byPath: Record<string, number> }>(sandbox);
  sandbox.send("stats");
  return answer;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const sandbox = startChild("./sandbox-child.ts", ["sandbox", String(PRODUCTS), String(SEED)]);
try {
  const { url } = await message<{ url: string }>(sandbox);
  const sizes = [0, ...SIZES];
  const samples = new Map<number, Sample[]>(sizes.map((n) => [n, []]));
  for (let run = 0; run < RUNS; run++) for (const n of sizes) samples.get(n)!.push(await measure(sandbox, url, n));
  const at = (n: number) => {
    const s = samples.get(n)!;
    return { seconds: median(s.map((x) => x.seconds)), cpuSeconds: median(s.map((x) => x.cpuSeconds)), rssMb: median(s.map((x) => x.rssMb)), stream: s[0]!.stream, reference: s[0]!.reference, bytes: s[0]!.bytes };
  };
  const one = at(0);
  console.log(`shops bench: ${PRODUCTS.toLocaleString("en")} products, ${sample.channels.length} channels per shop (the sample config's), an offers file per shop, ${RUNS === 1 ? "one run" : `median of ${RUNS} runs`}`);
  const line = (label: string, s: ReturnType<typeof at>, n: number) =>
    console.log(
      `  ${label.padEnd(24)} wall ${s.seconds.toFixed(1).padStart(6)} s (${(s.seconds / one.seconds).toFixed(2)}x)   CPU ${s.cpuSeconds.toFixed(1).padStart(6)} s   peak RSS ${Math.round(s.rssMb).toString().padStart(5)} MB (${(s.rssMb / one.rssMb).toFixed(2)}x)   requests: ${s.stream} stream + ${s.reference} reference   feeds ${(s.bytes / 2 ** 20).toFixed(0)} MB` +
        (n > 1 ? `   per further shop ${((s.seconds - at(SIZES.includes(1) ? 1 : 0).seconds) / (n - (SIZES.includes(1) ? 1 : 1))).toFixed(2)} s` : ""),
    );
  line("1 shop, no `shops` (baseline)", one, 0);
  for (const n of SIZES) line(`${n} shop${n === 1 ? "" : "s"}`, at(n), n);
  console.log("  goals: 10 shops <= 3x one shop's wall time, the same catalogue requests, peak RSS < 1.5x");
} finally {
  sandbox.send("exit");
}
