/**
 * Sandbox streaming benchmark: products/stream of N products read by an undici
 * client (bytes counted, not parsed), beside a baseline in the same run: a plain
 * node:http server writing the same bytes from memory. Servers run in child
 * processes (peak RSS, workers included, comes back over IPC). At 100,000
 * products the sandbox also runs with its worker pool off ("in-thread"), to
 * show what the pool buys.
 *
 *   npx tsx bench/sandbox.ts [--runs 5]
 *
 * Goal: the sandbox streams at >= 50% of the baseline's MB/s, and its peak RSS
 * does not grow with N (10,000 vs 100,000 products). The machine's load
 * average is printed: every server shares the cores with the client.
 */
import { fork, type ChildProcess } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
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

type Mode = "baseline" | "sandbox" | "in-thread";

function start(mode: Mode, products: number): Promise<Server> {
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

/** Runs the servers alternately (all children up), so load from elsewhere hits them alike. */
async function measure(products: number, runs: number, modes: Mode[]): Promise<Row[]> {
  const servers = {} as Record<Mode, Server>;
  for (const mode of modes) servers[mode] = await start(mode, products);
  const results: Record<string, { seconds: number; bytes: number; lines: number }[]> = {};
  for (let r = 0; r < runs; r++) {
    for (const mode of modes) (results[mode] ??= []).push(await streamOnce(servers[mode].url));
  }
  const rows: Row[] = [];
  for (const mode of modes) {
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

const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");
const loadBefore = load();
const rows: Row[] = [...(await measure(100_000, RUNS, ["baseline", "sandbox", "in-thread"])), ...(await measure(10_000, 3, ["baseline", "sandbox"]))];
console.log(`products/stream, undici client, medians of ${RUNS} interleaved runs (3 at 10,000 products); ${availableParallelism()} cores, load average ${loadBefore} before, ${load()} after`);
console.log("server     products   MB sent   products/s       MB/s   peak RSS MB");
for (const r of rows) {
  console.log(`${r.mode.padEnd(10)} ${String(r.products).padStart(8)} ${r.mb.toFixed(0).padStart(9)} ${r.pps.toFixed(0).padStart(12)} ${r.mbps.toFixed(0).padStart(10)} ${r.rss.toFixed(0).padStart(13)}`);
}
const find = (mode: Mode, products: number) => rows.find((r) => r.mode === mode && r.products === products);
const [base100, sand100, sand10] = [find("baseline", 100_000), find("sandbox", 100_000), find("sandbox", 10_000)];
if (base100 && sand100 && sand10) {
  console.log(`sandbox / baseline MB/s at 100,000 products: ${((sand100.mbps / base100.mbps) * 100).toFixed(0)}% (goal >= 50%)`);
  console.log(`sandbox peak RSS 10,000 -> 100,000 products: ${sand10.rss.toFixed(0)} MB -> ${sand100.rss.toFixed(0)} MB`);
}
