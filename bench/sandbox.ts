/**
 * Sandbox streaming benchmark: products/stream of N products read by an undici
 * client (bytes counted, not parsed), beside a baseline in the same run: a plain
 * node:http server writing the same bytes from memory. Both servers run in
 * child processes; the sandbox's peak RSS comes back over IPC.
 *
 *   npx tsx bench/sandbox.ts [--runs 5]
 *
 * Goal: the sandbox streams at >= 50% of the baseline's MB/s, and its peak RSS
 * does not grow with N (10,000 vs 100,000 products).
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import { DEMO_KEY } from "../src/sandbox/index.js";

const RUNS = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5;
const SEED = 1;
const child = fileURLToPath(new URL("./sandbox-child.ts", import.meta.url));
const auth = "Basic " + Buffer.from(`${DEMO_KEY.id}:${DEMO_KEY.secret}`).toString("base64");
const body = JSON.stringify({ filter: {}, sorting: { id: "ASC" } });

interface Server {
  proc: ChildProcess;
  url: string;
}

function start(mode: "sandbox" | "baseline", products: number): Promise<Server> {
  const proc = fork(child, [mode, String(products), String(SEED)], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    proc.once("message", (m) => resolve({ proc, url: (m as { url: string }).url }));
    proc.once("exit", (code) => reject(new Error(`${mode} child exited with ${code}`)));
  });
}

function ask(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.proc.once("message", (m) => resolve((m as { rss: number }).rss));
    server.proc.send("rss");
  });
}

async function stop(server: Server): Promise<void> {
  server.proc.removeAllListeners("exit");
  const exited = new Promise((r) => server.proc.once("exit", r));
  server.proc.send("exit");
  await exited;
}

async function streamOnce(url: string): Promise<{ seconds: number; bytes: number; lines: number }> {
  const pool = new Pool(url, { connections: 1 });
  const started = performance.now();
  const res = await pool.request({ path: "/v4/products/stream", method: "POST", headers: { authorization: auth, "content-type": "application/json", "user-agent": "pharmafeed-bench/1 (bench)" }, body });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  return { seconds, bytes, lines };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

interface Row {
  mode: string;
  products: number;
  mbps: number;
  pps: number;
  rss: number;
  mb: number;
}

/** Runs baseline and sandbox alternately (both children up), so load from elsewhere hits both alike. */
async function measure(products: number, runs: number): Promise<Row[]> {
  const servers = { baseline: await start("baseline", products), sandbox: await start("sandbox", products) };
  const results: Record<string, { seconds: number; bytes: number; lines: number }[]> = { baseline: [], sandbox: [] };
  for (let r = 0; r < runs; r++) {
    for (const mode of ["baseline", "sandbox"] as const) results[mode]?.push(await streamOnce(servers[mode].url));
  }
  const rows: Row[] = [];
  for (const mode of ["baseline", "sandbox"] as const) {
    const list = results[mode] ?? [];
    const lines = list[0]?.lines ?? 0;
    if (lines !== products) throw new Error(`${mode}: expected ${products} lines, got ${lines}`);
    rows.push({
      mode,
      products,
      mbps: median(list.map((x) => x.bytes / 1e6 / x.seconds)),
      pps: median(list.map((x) => x.lines / x.seconds)),
      rss: await ask(servers[mode]),
      mb: (list[0]?.bytes ?? 0) / 1e6,
    });
    await stop(servers[mode]);
  }
  return rows;
}

const rows: Row[] = [];
for (const products of [100_000, 10_000]) rows.push(...(await measure(products, products === 100_000 ? RUNS : 3)));
console.log(`products/stream, undici client, medians of ${RUNS} interleaved runs (3 at 10,000 products)`);
console.log("server    products   MB sent   products/s       MB/s   peak RSS MB");
for (const r of rows) {
  console.log(`${r.mode.padEnd(9)} ${String(r.products).padStart(8)} ${r.mb.toFixed(0).padStart(9)} ${r.pps.toFixed(0).padStart(12)} ${r.mbps.toFixed(0).padStart(10)} ${r.rss.toFixed(0).padStart(13)}`);
}
const [base100, sand100, , sand10] = rows;
if (base100 && sand100 && sand10) {
  console.log(`sandbox / baseline MB/s at 100,000 products: ${((sand100.mbps / base100.mbps) * 100).toFixed(0)}% (goal >= 50%)`);
  console.log(`sandbox peak RSS 10,000 -> 100,000 products: ${sand10.rss.toFixed(0)} MB -> ${sand100.rss.toFixed(0)} MB`);
}
