/**
 * Benchmark of the snapshot alone: the stream lines of N generated products
 * (read once from the sandbox, held in memory), written into a snapshot as a
 * full read does (add per line, commit), opened (every digest checked), and
 * read back in order, beside the simplest alternative: the same bytes written
 * with one fs write, no compression, no digest.
 *
 *   npx tsx bench/snapshot.ts [--products 20000] [--runs 3]
 *
 * "main thread" is the time spent inside add() and commit()'s synchronous
 * parts: what the snapshot takes from the thread that writes the feeds; the
 * rest of its wall time runs beside it (deflate in libuv's pool, async writes).
 */
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { DEMO_KEY, startSandbox } from "../src/sandbox/index.js";
import { openSnapshot, SnapshotWriter } from "../src/snapshot/store.js";
import { flag } from "./common.js";

const PRODUCTS = Number(flag("products", "20000"));
const RUNS = Number(flag("runs", "3"));

async function streamLines(): Promise<Buffer[]> {
  const sandbox = await startSandbox({ products: PRODUCTS, seed: 1, rateLimit: 1_000_000 });
  try {
    const auth = "Basic " + Buffer.from(`${DEMO_KEY.id}:${DEMO_KEY.secret}`).toString("base64");
    const res = await request(`${sandbox.url}/v4/products/stream`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json", "user-agent": "pharmafeed-bench/1 (bench@pharmafeed.example)" },
      body: JSON.stringify({ filter: { status: "active" }, sorting: { id: "ASC" } }),
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    const lines: Buffer[] = [];
    for (let start = 0, end = body.indexOf(0x0a); end !== -1; start = end + 1, end = body.indexOf(0x0a, start)) lines.push(body.subarray(start, end));
    return lines;
  } finally {
    await sandbox.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

const lines = await streamLines();
const bytes = lines.reduce((n, l) => n + l.length + 1, 0);
const dir = await mkdtemp(join(tmpdir(), "pharmafeed-bench-snapshot-"));
const file = join(dir, "snapshot");
const samples = { write: [] as number[], main: [] as number[], open: [] as number[], read: [] as number[], raw: [] as number[] };
try {
  for (let run = 0; run < RUNS; run++) {
    const raw0 = performance.now();
    await writeFile(join(dir, "raw"), Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")])));
    samples.raw.push(performance.now() - raw0);

    let main = 0;
    const t0 = performance.now();
    const writer = await SnapshotWriter.create(file, { syncedAt: new Date().toISOString(), filter: "{}", sorting: '{"id":"ASC"}', via: "full" });
    writer.setReference({ categories: [], brands: [] });
    for (const line of lines) {
      const a = performance.now();
      const wait: unknown = writer.add(line);
      main += performance.now() - a;
      if (wait) await wait;
    }
    const c = performance.now();
    await writer.commit();
    main += performance.now() - c;
    samples.write.push(performance.now() - t0);
    samples.main.push(main);

    const o = performance.now();
    const snapshot = openSnapshot(file)!;
    samples.open.push(performance.now() - o);
    const r = performance.now();
    let n = 0;
    for (const _ of snapshot.lines()) n++;
    samples.read.push(performance.now() - r);
    snapshot.close();
    if (n !== lines.length) throw new Error(`read ${n} lines of ${lines.length}`);
  }
  const size = (await stat(file)).size;
  console.log(`${PRODUCTS} products, ${(bytes / 2 ** 20).toFixed(1)} MB of lines -> ${(size / 2 ** 20).toFixed(1)} MB (${(bytes / size).toFixed(1)}x), medians of ${RUNS}:`);
  console.log(`  write ${ms(median(samples.write))} (main thread ${ms(median(samples.main))}), open + check ${ms(median(samples.open))}, read ${ms(median(samples.read))}`);
  console.log(`  simplest alternative (one write, raw bytes): ${ms(median(samples.raw))}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
