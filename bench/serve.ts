/**
 * Benchmark of `serve`: many concurrent downloads of one large feed, beside a
 * baseline measured in the same run: a bare node:http server piping the same
 * file with fs.createReadStream. Both servers run in child processes; the load
 * (an undici pool, one download per connection at a time) runs here.
 *
 *   npx tsx bench/serve.ts [--size-mb 100] [--connections 50] [--seconds 5] [--runs 3]
 *
 * Prints MB/s received (median of the runs) for both and their ratio (goal >= 0.9x),
 * and MB per CPU-second of each server process: on a machine shared with other
 * work the wall-clock figure swings by 2x between runs, the CPU cost much less.
 * Loopback only; every run stops after --seconds, whatever is in flight.
 */
import { fork, type ChildProcess } from "node:child_process";
import { setMaxListeners } from "node:events";
import { createHash } from "node:crypto";
import { mkdtemp, open, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import type { Manifest } from "../src/publish/manifest.js";
import { flag } from "./common.js";

const SIZE_MB = Number(flag("size-mb", "100"));
const CONNECTIONS = Number(flag("connections", "50"));
const SECONDS = Number(flag("seconds", "5"));
const RUNS = Number(flag("runs", "3"));
const FILE = "big.ndjson";
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** An NDJSON feed of SIZE_MB, and a manifest listing it as live, written as generate would. */
async function makeOutput(dir: string): Promise<void> {
  const line = (i: number) => `${JSON.stringify({ id: `p${i}`, title: `Produit de parapharmacie ${i}`, price: "12.99 EUR", link: `https://shop.example/p/${i}` })}\n`;
  const block = Buffer.from(Array.from({ length: 1000 }, (_, i) => line(i)).join(""));
  const hash = createHash("sha256");
  const handle = await open(join(dir, FILE), "w");
  let bytes = 0;
  while (bytes < SIZE_MB * 1024 * 1024) {
    await handle.write(block);
    hash.update(block);
    bytes += block.length;
  }
  await handle.close();
  const sha256 = hash.digest("hex");
  const at = new Date().toISOString();
  const manifest: Manifest = {
    version: 1,
    startedAt: at,
    endedAt: at,
    status: "ok",
    source: { total: 0, received: 0, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 },
    channels: [
      {
        name: "big",
        preset: "generic-ndjson",
        locale: "fr",
        format: "ndjson",
        contentType: "application/x-ndjson; charset=utf-8",
        file: FILE,
        items: 0,
        excluded: {},
        warnings: {},
        fallbacks: {},
        bytes,
        sha256,
        published: true,
        live: { file: FILE, items: 0, bytes, sha256, publishedAt: at },
      },
    ],
  };
  await writeFile(join(dir, ".manifest.json.tmp"), JSON.stringify(manifest));
  await rename(join(dir, ".manifest.json.tmp"), join(dir, "manifest.json"));
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once("message", (m) => resolve(m as T));
    child.send(message);
  });
}

function start(mode: string, dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(here("./serve-child.ts"), [mode, dir, FILE], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("message", (m) => resolve({ child, url: (m as { url: string }).url }));
    child.once("exit", (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.send("exit");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

/** Bytes received per second over SECONDS with CONNECTIONS downloads in flight at all times. */
async function load(url: string): Promise<{ mbps: number; complete: number }> {
  const pool = new Pool(url, { connections: CONNECTIONS, pipelining: 1 });
  const controller = new AbortController();
  setMaxListeners(CONNECTIONS * 2, controller.signal); // one listener per request in flight
  let bytes = 0;
  let complete = 0;
  const started = performance.now();
  const deadline = setTimeout(() => controller.abort(), SECONDS * 1000);
  const worker = async () => {
    while (!controller.signal.aborted) {
      try {
        const { statusCode, body } = await pool.request({ path: `/feeds/${FILE}`, method: "GET", signal: controller.signal });
        if (statusCode !== 200) throw new Error(`status ${statusCode}`);
        for await (const chunk of body) bytes += (chunk as Buffer).length;
        complete++;
      } catch (error) {
        if (!controller.signal.aborted) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (performance.now() - started) / 1000;
  clearTimeout(deadline);
  await pool.destroy();
  return { mbps: bytes / 1024 / 1024 / seconds, complete };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = await mkdtemp(join(tmpdir(), "pharmafeed-bench-serve-"));
try {
  await makeOutput(dir);
  const results: Record<"pharmafeed" | "baseline", { mbps: number; complete: number; mbPerCpu: number }[]> = { pharmafeed: [], baseline: [] };
  for (let run = 0; run < RUNS; run++) {
    // Alternated so that machine noise falls on both sides alike.
    for (const mode of run % 2 === 0 ? (["baseline", "pharmafeed"] as const) : (["pharmafeed", "baseline"] as const)) {
      const { child, url } = await start(mode, dir);
      try {
        child.send("mark");
        const r = await load(url);
        const { cpuSeconds } = await ask<{ cpuSeconds: number }>(child, "cpu");
        results[mode].push({ ...r, mbPerCpu: (r.mbps * SECONDS) / cpuSeconds });
      } finally {
        await stop(child);
      }
    }
  }
  const p = median(results.pharmafeed.map((r) => r.mbps));
  const b = median(results.baseline.map((r) => r.mbps));
  const pc = median(results.pharmafeed.map((r) => r.mbPerCpu));
  const bc = median(results.baseline.map((r) => r.mbPerCpu));
  const runs = (mode: "pharmafeed" | "baseline") => results[mode].map((r) => r.mbps.toFixed(0)).join(", ");
  console.log(`serve bench: ${SIZE_MB} MB feed, ${CONNECTIONS} concurrent downloads, ${SECONDS} s per run, median of ${RUNS} runs, loopback`);
  console.log(`                             MB/s    MB per server CPU-s   (MB/s of each run)`);
  console.log(`  pharmafeed serve          ${p.toFixed(0).padStart(5)}    ${pc.toFixed(0).padStart(8)}              (${runs("pharmafeed")})`);
  console.log(`  baseline createReadStream ${b.toFixed(0).padStart(5)}    ${bc.toFixed(0).padStart(8)}              (${runs("baseline")})`);
  console.log(`  ratio                     ${(p / b).toFixed(2)}x   ${(pc / bc).toFixed(2)}x   (goal >= 0.9x)`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
