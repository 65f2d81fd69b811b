/**
 * Benchmark of fresh feeds: 100,000 generated products x 22 outputs (11 presets
 * x fr, nl) with an offers file, refreshed from the snapshot (`generate --source
 * snapshot`) after 1 % (and 10 %, see --changed) of the offers changed, beside
 * today's full run (`generate --source full`, which also writes the snapshot and
 * the rows a refresh copies) and beside the same refresh with every product
 * mapped (`--no-reuse`): the built CLI from spawn to exit, alternated, medians of
 * --runs. Each round: full read, then per --changed share: that share of the
 * offers' prices change, refresh; then refresh --no-reuse.
 * Then a delta of about 1 % changed products against a sandbox whose catalogue
 * changes over time: its bytes beside a full stream's bytes, and its time with the unchanged
 * products' rows copied beside the same delta mapping every product and a full read, each
 * from the same state, in one process.
 *
 *   npx tsx bench/refresh.ts [--products 100000] [--runs 3] [--changed 1,10] [--delta-products 20000] [--workers N] [--skip-delta] [--skip-refresh]
 *
 * Goals: a refresh after 1 % changed <= 0.25x of the full run's time, after 10 % <= 0.4x,
 * peak RSS < 200 MB; delta bytes <= 2 % of a full stream's.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { loadConfig } from "../src/config/load.js";
import { silentLogger } from "../src/log.js";
import { type GenerateResult, runGenerate } from "../src/pipeline/run.js";
import { CATALOGUE_NOW } from "../src/sandbox/generate/clock.js";
import { createCatalogue, DEMO_KEY, startSandbox } from "../src/sandbox/index.js";
import { rowsPath } from "../src/rowcache/file.js";
import { snapshotPath } from "../src/snapshot/store.js";
import { flag, hasFlag, message, startChild } from "./common.js";

const PRODUCTS = Number(flag("products", "100000"));
const RUNS = Number(flag("runs", "3"));
const DELTA_PRODUCTS = Number(flag("delta-products", "20000"));
const WORKERS = flag("workers", "");
/** Shares of the offers (percent) changed before each refresh, one refresh each, in this order. */
const CHANGED = flag("changed", "1,10").split(",").map(Number).filter((n) => n > 0 && n <= 100);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const root = here("../");
const env = { ...process.env, BENCH_KEY_ID: DEMO_KEY.id, BENCH_KEY_SECRET: DEMO_KEY.secret };

interface Sample {
  seconds: number;
  products: number;
  rssMb: number;
  reused: number;
}

/** The built CLI, as cron runs it: wall time from spawn to exit, peak RSS from its log. */
async function generate(dir: string, source: "full" | "snapshot", reuse = true): Promise<Sample> {
  const argv = [join(root, "dist/cli.js"), "generate", "--config", join(dir, "pharmafeed.json"), "--source", source, "--force", "--log-format", "json", ...(reuse ? [] : ["--no-reuse"]), ...(WORKERS ? ["--workers", WORKERS] : [])];
  const started = performance.now();
  const child = spawn(process.execPath, argv, { stdio: ["ignore", "ignore", "pipe"], env });
  let log = "";
  child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  const [code] = (await once(child, "exit")) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`generate --source ${source} exited with ${code}:\n${log.slice(-2000)}`);
  const entries = log
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string; products?: number; peakRssMb?: number; used?: string; reused?: number });
  const used = entries.find((e) => e.msg === "source")?.used;
  if (used !== source) throw new Error(`asked for --source ${source}, the run used ${used}`);
  const done = entries.find((e) => e.msg === "products mapped");
  if (!done) throw new Error("no 'products mapped' line in generate's log");
  return { seconds, products: done.products ?? 0, rssMb: done.peakRssMb ?? 0, reused: done.reused ?? 0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, digits = 0) => n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });

execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });

/** Cents added to each product's price so far: a refresh after p % changed adds one to the products with index % 100 < p. */
const bumps = new Int32Array(PRODUCTS);

/** An offer for every product of the catalogue, at today's bumps. */
async function writeOffers(file: string, changedPercent = 0): Promise<void> {
  const catalogue = createCatalogue({ seed: 1, products: PRODUCTS, assetBaseUrl: "http://127.0.0.1:0" });
  const lines = ["id,gtin,price,sale_price,sale_from,sale_until,quantity,availability,link"];
  for (let i = 0; i < PRODUCTS; i++) {
    if (i % 100 < changedPercent) bumps[i]!++;
    const cents = 500 + ((i * 37) % 4000) + bumps[i]!;
    lines.push(`${catalogue.id(i)},,${(cents / 100).toFixed(2)},,,,${i % 23},in_stock,`);
  }
  await writeFile(file, lines.join("\n") + "\n");
}

// 1. Refresh from the snapshot, after 1 % of the offers changed, beside today's full run and a refresh that maps every product.
if (!hasFlag("skip-refresh")) {
  const sandbox = startChild("./sandbox-child.ts", ["sandbox", String(PRODUCTS), "1"]);
  const dir = await mkdtemp(join(tmpdir(), "pharmafeed-refresh-"));
  try {
    const { url } = await message<{ url: string }>(sandbox);
    await message(startChild("./generate-child.ts", ["config", url, dir]));
    const configFile = join(dir, "pharmafeed.json");
    const config = JSON.parse(await readFile(configFile, "utf8")) as Record<string, unknown>;
    await writeFile(configFile, JSON.stringify({ ...config, offers: { file: "offers.csv" } }));
    const full: Sample[] = [];
    const refresh = CHANGED.map((): Sample[] => []);
    const mapped: Sample[] = [];
    for (let run = 0; run < RUNS; run++) {
      await writeOffers(join(dir, "offers.csv"));
      full.push(await generate(dir, "full"));
      for (const [k, percent] of CHANGED.entries()) {
        await writeOffers(join(dir, "offers.csv"), percent);
        refresh[k]!.push(await generate(dir, "snapshot"));
      }
      mapped.push(await generate(dir, "snapshot", false));
    }
    const snapshotBytes = (await stat(snapshotPath(join(dir, "out")))).size;
    const rowsBytes = (await stat(rowsPath(join(dir, "out")))).size;
    const f = median(full.map((s) => s.seconds));
    const m = median(mapped.map((s) => s.seconds));
    console.log(`refresh bench: ${fmt(PRODUCTS)} products generated (${fmt(full[0]!.products)} in the snapshot), 22 outputs (11 presets x fr, nl), offers for all, median of ${RUNS} runs`);
    console.log(`  generate --source full                  ${fmt(f, 1).padStart(6)} s   peak RSS ${fmt(median(full.map((s) => s.rssMb)))} MB   (today's run; writes the snapshot and the rows)`);
    for (const [k, percent] of CHANGED.entries()) {
      const samples = refresh[k]!;
      const r = median(samples.map((s) => s.seconds));
      const copied = median(samples.map((s) => (100 * s.reused) / Math.max(1, s.products)));
      const label = `--source snapshot, ${percent} % changed`;
      console.log(`  ${label.padEnd(38)}  ${fmt(r, 1).padStart(6)} s   peak RSS ${fmt(median(samples.map((s) => s.rssMb)))} MB   ${(r / f).toFixed(2)}x of the full run (${fmt(copied, 1)} % of the products copied)`);
    }
    console.log(`  generate --source snapshot --no-reuse   ${fmt(m, 1).padStart(6)} s   peak RSS ${fmt(median(mapped.map((s) => s.rssMb)))} MB   ${(m / f).toFixed(2)}x of the full run (every product mapped)`);
    console.log(`  snapshot file ${fmt(snapshotBytes / 2 ** 20, 1)} MB, rows file ${fmt(rowsBytes / 2 ** 20, 1)} MB`);
    console.log(`  goal                                    1 % changed <= 0.25x, 10 % <= 0.4x of the full run; peak RSS < 200 MB`);
  } finally {
    sandbox.send("exit");
    await rm(dir, { recursive: true, force: true });
  }
}

// 2. A delta of about 1 % changed products, beside a full stream's bytes.
if (!hasFlag("skip-delta")) {
  const HOUR = 3600;
  const t0 = CATALOGUE_NOW + HOUR;
  const hours = 4;
  // 1 - exp(-rate * (hours + margin)) ~ 1 %, new products included.
  const sandbox = await startSandbox({ products: DELTA_PRODUCTS, seed: 1, rateLimit: 1_000_000, changes: { perHour: 0.0018, newPerHour: DELTA_PRODUCTS / 100_000, since: CATALOGUE_NOW, at: t0 } });
  const dir = await mkdtemp(join(tmpdir(), "pharmafeed-delta-"));
  try {
    await message(startChild("./generate-child.ts", ["config", sandbox.url, dir]));
    const config = await loadConfig(join(dir, "pharmafeed.json"), { env });
    const at = (t: number) => new Date(t * 1000);
    await runGenerate({ config, logger: silentLogger, now: at(t0), force: true });
    sandbox.clock.set(t0 + hours * HOUR);
    const later = at(t0 + hours * HOUR);
    // The state after the full read at t0, to start every round's runs from.
    const base = join(dir, "out");
    const kept = `${dir}-t0`;
    await cp(base, kept, { recursive: true, preserveTimestamps: true });
    /** Output folder `out` of the config in the state of t0 (copies are other inodes: a refresh without reuse makes its rows its own). */
    const fresh = async () => {
      await rm(base, { recursive: true, force: true });
      await cp(kept, base, { recursive: true, preserveTimestamps: true });
      await runGenerate({ config, logger: silentLogger, now: at(t0 + 60), force: true, source: "snapshot", reuse: false });
    };
    const timed = async (run: () => Promise<GenerateResult>) => {
      const started = performance.now();
      const result = await run();
      return { seconds: (performance.now() - started) / 1000, result };
    };
    const samples = { full: [] as number[], mapped: [] as number[], copied: [] as number[], refresh: [] as number[] };
    let delta!: GenerateResult;
    let before = 0;
    let streams = 0;
    for (let round = 0; round < RUNS; round++) {
      await fresh();
      // The yardstick of "as cheap as a refresh": a refresh of the same state (nothing changed, all copied).
      samples.refresh.push((await timed(() => runGenerate({ config, logger: silentLogger, now: later, force: true, source: "snapshot" }))).seconds);
      await fresh();
      samples.full.push((await timed(() => runGenerate({ config, logger: silentLogger, now: later, force: true, source: "full" }))).seconds);
      await fresh();
      samples.mapped.push((await timed(() => runGenerate({ config, logger: silentLogger, now: later, force: true, source: "delta", reuse: false }))).seconds);
      await fresh();
      before = sandbox.stats.byPath.get("/v4/products/stream") ?? 0;
      const run = await timed(() => runGenerate({ config, logger: silentLogger, now: later, force: true, source: "delta" }));
      streams = (sandbox.stats.byPath.get("/v4/products/stream") ?? 0) - before;
      samples.copied.push(run.seconds);
      delta = run.result;
    }
    await rm(kept, { recursive: true, force: true });
    const counts = delta.manifest.sync?.delta;
    if (delta.manifest.sync?.used !== "delta" || !counts) throw new Error(`the delta fell back: ${delta.manifest.sync?.fallback}`);
    const reuse = delta.manifest.sync.reuse;
    // What each request transfers: the body bytes of the same requests, counted over HTTP.
    const bytesOf = async (filter: unknown) => {
      const auth = "Basic " + Buffer.from(`${DEMO_KEY.id}:${DEMO_KEY.secret}`).toString("base64");
      const res = await request(`${sandbox.url}/v4/products/stream`, { method: "POST", headers: { authorization: auth, "content-type": "application/json", "user-agent": "pharmafeed-bench/1 (bench@pharmafeed.example)" }, body: JSON.stringify({ filter, sorting: { id: "ASC" } }) });
      let bytes = 0;
      for await (const chunk of res.body) bytes += (chunk as Buffer).length;
      return bytes;
    };
    const fullBytes = await bytesOf(config.query.filter);
    const deltaBytes = await bytesOf({ updatedSince: t0 - config.sync.marginSeconds });
    const changed = counts.changed! + counts.added! + counts.removed!;
    console.log(`delta bench: ${fmt(DELTA_PRODUCTS)} products, ${hours} h of changes, ${streams} products/stream request`);
    console.log(`  delta: ${fmt(counts.received!)} lines (${fmt(counts.changed!)} changed, ${fmt(counts.added!)} new, ${fmt(counts.removed!)} removed; ${fmt((100 * changed) / delta.manifest.source.received, 2)} % of the feed's products)`);
    console.log(`  bytes: delta ${fmt(deltaBytes / 1024)} KB, full stream ${fmt(fullBytes / 1024)} KB: ${fmt((100 * deltaBytes) / fullBytes, 2)} %   (goal <= 2 % for 1 % changed)`);
    const f = median(samples.full);
    const line = (label: string, xs: number[]) => console.log(`  ${label.padEnd(44)} ${fmt(median(xs), 2).padStart(7)} s   ${(median(xs) / f).toFixed(2)}x of the full read (median of ${xs.length}, in-process)`);
    line("generate --source full", samples.full);
    line("generate --source delta --no-reuse", samples.mapped);
    line(`generate --source delta (${fmt(reuse?.reused ?? 0)} copied, ${fmt(reuse?.mapped ?? 0)} mapped)`, samples.copied);
    line("generate --source snapshot (a refresh, all copied)", samples.refresh);
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}
