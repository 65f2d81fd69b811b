/**
 * The explain index at catalogue scale:
 *
 *   npx tsx bench/explain.ts [--products 1000000] [--baseline 100000] [--lookups 300]
 *
 * For each size (the baseline, then --products), in a process of its own: the
 * index written through the run's hook (11 channels), write cost per product,
 * file size per product, peak RSS (flat memory: the large run should not need
 * more than the small one), then lookups by id, GTIN and words (median, p99). Then
 * the built CLI, `pharmafeed explain <id>` on the large index, spawn to exit
 * (median of 5), beside `pharmafeed --version` (node's start and the CLI's
 * loading, which every command pays). Beside it, the simplest alternative: the same
 * records as one NDJSON line per product, written, then scanned to find an id.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1]! : fallback);
const PRODUCTS = Number(arg("products", "1000000"));
const BASELINE = Number(arg("baseline", "100000"));
const LOOKUPS = arg("lookups", "300");
const root = fileURLToPath(new URL("../", import.meta.url));

interface Result {
  products: number;
  usPerProduct: number;
  bytes: number;
  bytesPerProduct: number;
  startRssMb: number;
  writePeakMb: number;
  byId: { median: number; p99: number };
  byGtin: { median: number; p99: number };
  byWords: { median: number; p99: number };
  wordsMatchedAvg: number;
}

function child<T = Result>(products: number, dir: string, mode = "sqlite"): T {
  const argv = ["--import", "tsx", join(root, "bench/explain-child.ts"), "--products", String(products), "--lookups", LOOKUPS, "--dir", dir, "--mode", mode];
  const run = spawnSync(process.execPath, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (run.status !== 0) throw new Error(`bench child failed (${run.status})`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as T;
}

interface NdjsonResult {
  usPerProduct: number;
  bytesPerProduct: number;
  bytes: number;
  writePeakMb: number;
  byIdMedian: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(2)} ms`;

execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
const dirs: string[] = [];
try {
  const results: Result[] = [];
  let largeDir = "";
  for (const n of [BASELINE, PRODUCTS]) {
    const dir = await mkdtemp(join(tmpdir(), "pharmafeed-bench-explain-"));
    dirs.push(dir);
    largeDir = dir;
    results.push(child(n, dir));
  }
  const ndDir = await mkdtemp(join(tmpdir(), "pharmafeed-bench-explain-"));
  dirs.push(ndDir);
  const nd = child<NdjsonResult>(PRODUCTS, ndDir, "ndjson");
  const spawnMs = (argv: string[]) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const run = spawnSync(process.execPath, [join(root, "dist/cli.js"), ...argv], { encoding: "utf8", cwd: root, env: { ...process.env, CATALOGUE_API_KEY_ID: "x", CATALOGUE_API_KEY_SECRET: "x" } });
      times.push(performance.now() - t);
      if (run.status !== 0) throw new Error(`${argv.join(" ")} failed: ${run.stderr}`);
    }
    return median(times);
  };
  // An id the index has (explain-child.ts names product i "M" + i in hex, 9 digits).
  const id = `M${Math.floor(PRODUCTS / 2).toString(16).toUpperCase().padStart(9, "0")}`;
  const explainMs = spawnMs(["explain", "--output", largeDir, id]);
  const versionMs = spawnMs(["--version"]);

  const rows: [string, (r: Result) => string][] = [
    ["write cost per product", (r) => `${r.usPerProduct.toFixed(1)} us`],
    ["index size", (r) => `${(r.bytes / 2 ** 20).toFixed(1)} MB (${Math.round(r.bytesPerProduct)} B/product)`],
    ["RSS before writing / peak", (r) => `${r.startRssMb} / ${r.writePeakMb} MB`],
    ["lookup by id, median / p99", (r) => `${ms(r.byId.median)} / ${ms(r.byId.p99)}`],
    ["lookup by GTIN, median / p99", (r) => `${ms(r.byGtin.median)} / ${ms(r.byGtin.p99)}`],
    ["two words (fr), median / p99", (r) => `${ms(r.byWords.median)} / ${ms(r.byWords.p99)} (~${r.wordsMatchedAvg} matches)`],
  ];
  console.log(`\n| explain index (11 channels) | ${results.map((r) => `${r.products.toLocaleString("en")} products`).join(" | ")} |`);
  console.log(`|---|${results.map(() => "---").join("|")}|`);
  for (const [label, f] of rows) console.log(`| ${label} | ${results.map(f).join(" | ")} |`);
  console.log(
    `\nThe simplest alternative, one NDJSON line per product, at ${PRODUCTS.toLocaleString("en")}: ${nd.usPerProduct.toFixed(1)} us/product, ` +
      `${(nd.bytes / 2 ** 20).toFixed(1)} MB (${Math.round(nd.bytesPerProduct)} B/product), peak RSS ${nd.writePeakMb} MB; a lookup by id scans it: ${ms(nd.byIdMedian)} (median of 5)`,
  );
  console.log(`\n\`pharmafeed explain <id>\` on ${PRODUCTS.toLocaleString("en")} products, spawn to exit (median of 5): ${versionMs.toFixed(0)} ms for \`--version\`, ${explainMs.toFixed(0)} ms for explain`);
} finally {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
