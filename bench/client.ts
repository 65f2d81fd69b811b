/**
 * Client throughput and memory: stream N products from the sandbox through the
 * catalogue client (parse + zod validation + resume bookkeeping) beside a
 * baseline reading the same bytes with undici and JSON.parse per line, no
 * validation. Each side runs in its own child process (bench/client-child.ts,
 * compiled to JS first so the TypeScript loader's memory is not counted), so
 * peak RSS is per side; runs alternate sides and medians are printed.
 *
 * The sandbox generates products on the fly at about the speed the client
 * reads them, so streaming live would measure the generator. By default the
 * sandbox's stream response is recorded once per size and replayed byte for
 * byte from memory to both sides; --live streams from the sandbox itself.
 *
 *   npx tsx bench/client.ts [--sizes 10000,100000] [--runs 5] [--live]
 *
 * Goals: client >= 70% of the baseline's products/s on the largest size; client
 * peak RSS < 150 MB and within +-20% between the smallest and the largest size.
 * Products per CPU-second are printed too: on a shared machine they vary much
 * less than wall-clock rates.
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { startSandbox, STREAM_CONTENT_TYPE, type SandboxHandle } from "../src/sandbox/index.js";
import type { Result, Side } from "./client-child.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "node_modules", ".cache", "bench-client");

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** Compiles the child and what it imports with the project's TypeScript. */
function compileChild(): string {
  mkdirSync(OUT, { recursive: true });
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const flags = ["--outDir", OUT, "--rootDir", ROOT, "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2023"];
  execFileSync(process.execPath, [tsc, ...flags, "--skipLibCheck", "--types", "node", "--strict", join(ROOT, "bench", "client-child.ts")], { stdio: "inherit" });
  // src/version.ts reads ../package.json; it also makes the output an ES module package.
  copyFileSync(join(ROOT, "package.json"), join(OUT, "package.json"));
  return join(OUT, "bench", "client-child.js");
}

interface Source {
  url: string;
  keyId: string;
  keySecret: string;
  close(): Promise<void>;
}

/** The sandbox's whole products/stream response for {} sorted by id. */
async function record(sandbox: SandboxHandle): Promise<Buffer[]> {
  const response = await request(`${sandbox.url}/v4/products/stream`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString("base64")}`,
      "content-type": "application/json",
      "user-agent": "pharmafeed-bench/1 (bench@pharmafeed.test)",
    },
    body: JSON.stringify({ filter: {}, sorting: { id: "ASC" } }),
  });
  const chunks: Buffer[] = [];
  for await (const chunk of response.body as AsyncIterable<Buffer>) chunks.push(chunk);
  return chunks;
}

/** Serves recorded bytes to any POST, in the sandbox's 64 KB writes, with backpressure. */
async function replay(chunks: Buffer[]): Promise<Source> {
  const body = Buffer.concat(chunks);
  chunks.length = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": STREAM_CONTENT_TYPE });
    let at = 0;
    const pump = () => {
      while (at < body.length) {
        const piece = body.subarray(at, at + 64 * 1024);
        at += piece.length;
        if (!res.write(piece)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    keyId: "replay",
    keySecret: "replay",
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function sourceFor(size: number, live: boolean): Promise<Source> {
  const sandbox = await startSandbox({ products: size, rateLimit: 1000 });
  if (live) return sandbox;
  try {
    return await replay(await record(sandbox));
  } finally {
    await sandbox.close();
  }
}

function runChild(script: string, side: Side, url: string, key: string, secret: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [script, side, url, key, secret], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.on("data", (data: Buffer) => (out += data.toString()));
    proc.on("error", reject);
    proc.on("close", (code) => (code === 0 ? resolve(JSON.parse(out) as Result) : reject(new Error(`${side} child exited with ${code}`))));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const rate = (results: Result[]) => median(results.map((result) => (result.products / result.ms) * 1000));
/** Products per CPU-second: what each side costs, whatever else the machine is doing. */
const cpuRate = (results: Result[]) => median(results.map((result) => (result.products / result.cpuMs) * 1000));
const rss = (results: Result[]) => median(results.map((result) => result.rssMb));

async function main(): Promise<void> {
  const sizes = (arg("sizes") ?? "10000,100000").split(",").map(Number);
  const runs = Number(arg("runs") ?? 5);
  const live = process.argv.includes("--live");
  const script = compileChild();
  console.log(
    `bench/client: ${live ? "live from the sandbox" : "sandbox stream recorded, replayed from memory"}, ${runs} runs per side and size, node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? "?"}`,
  );
  const rows: { size: number; client: Result[]; baseline: Result[] }[] = [];
  for (const size of sizes) {
    const source = await sourceFor(size, live);
    const row = { size, client: [] as Result[], baseline: [] as Result[] };
    try {
      for (let run = 0; run < runs; run++) {
        // Alternate which side goes first, so warm-up and noise fall on both.
        const order: Side[] = run % 2 === 0 ? ["baseline", "client"] : ["client", "baseline"];
        for (const side of order) {
          const result = await runChild(script, side, source.url, source.keyId, source.keySecret);
          if (result.products !== size) throw new Error(`${side} read ${result.products} of ${size} products`);
          row[side].push(result);
        }
      }
    } finally {
      await source.close();
    }
    rows.push(row);
  }
  console.log("products  side       products/s  per CPU-s  peak RSS MB   (medians)");
  for (const row of rows) {
    for (const side of ["baseline", "client"] as const) {
      const cells = [rate(row[side]).toFixed(0).padStart(10), cpuRate(row[side]).toFixed(0).padStart(10), rss(row[side]).toFixed(1).padStart(12)];
      console.log(`${String(row.size).padStart(8)}  ${side.padEnd(9)} ${cells.join(" ")}`);
    }
  }
  for (const row of rows) {
    const ratio = rate(row.client) / rate(row.baseline);
    const cpuRatio = cpuRate(row.client) / cpuRate(row.baseline);
    const peak = rss(row.client);
    console.log(
      `${row.size} products: client/baseline ${(ratio * 100).toFixed(1)}% wall, ${(cpuRatio * 100).toFixed(1)}% CPU${row === rows[rows.length - 1] ? ` (goal >= 70%: ${ratio >= 0.7 ? "met" : "MISSED"})` : ""}, client peak RSS ${peak.toFixed(1)} MB (goal < 150: ${peak < 150 ? "met" : "MISSED"})`,
    );
  }
  const [small, large] = [rows[0], rows[rows.length - 1]];
  if (small && large && small !== large) {
    const growth = rss(large.client) / rss(small.client) - 1;
    console.log(`client peak RSS at ${large.size} vs ${small.size}: ${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)}% (goal within +-20%: ${Math.abs(growth) <= 0.2 ? "met" : "MISSED"})`);
  }
}

await main();
