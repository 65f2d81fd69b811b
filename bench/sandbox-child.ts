/**
 * Child process of bench/sandbox.ts: serves either the sandbox or the baseline
 * (a plain node:http server writing the same stream bytes from memory), then
 * answers "rss" messages with its peak RSS so the parent can report it.
 *
 *   node --import tsx bench/sandbox-child.ts sandbox|in-thread|baseline <products> <seed>
 *
 * in-thread: the sandbox with its worker pool off (every stream built on the
 * main thread), to show what the pool buys.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createCatalogue, startSandbox } from "../src/sandbox/index.js";
import { poolSettings } from "../src/sandbox/server/pool.js";

const [mode, productsArg, seedArg] = process.argv.slice(2);
const products = Number(productsArg);
const seed = Number(seedArg);

function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

async function baseline(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The very bytes the sandbox sends for the same request, prepared before timing.
  const catalogue = createCatalogue({ seed, products, assetBaseUrl: url.replace(/:\d+$/, ":0") });
  const chunks: Buffer[] = [];
  let pending = "";
  for (let k = 0; k < products; k++) {
    pending += `{"meta":{"total":${products},"index":${k}},"result":${catalogue.productJson(k)}}\n`;
    if (pending.length >= 64 * 1024) {
      chunks.push(Buffer.from(pending));
      pending = "";
    }
  }
  if (pending) chunks.push(Buffer.from(pending));
  server.on("request", (req, res) => {
    req.resume();
    req.on("end", async () => {
      res.writeHead(200, { "content-type": "application/x-json-stream" });
      for (const chunk of chunks) if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
      res.end();
    });
  });
  return url;
}

async function main(): Promise<void> {
  if (mode === "in-thread") poolSettings.minRecords = Number.POSITIVE_INFINITY;
  const sandbox = mode === "baseline" ? undefined : await startSandbox({ products, seed, rateLimit: 1_000_000 });
  const url = sandbox ? sandbox.url : await baseline();
  process.on("message", (message) => {
    if (message === "rss") process.send?.({ rss: peakRssMb() });
    // Requests answered so far, per path (bench/shops.ts counts the catalogue's).
    if (message === "stats") process.send?.({ byPath: Object.fromEntries(sandbox?.stats.byPath ?? []) });
    if (message === "exit") process.exit(0);
  });
  process.send?.({ url });
}

void main();
