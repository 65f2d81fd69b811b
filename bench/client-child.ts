/**
 * One side of bench/client.ts, run in its own process (compiled to JS first, so
 * that peak RSS is the client's, not the TypeScript loader's). Prints one JSON line.
 */
import { readFileSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { request } from "undici";
import { createCatalogueClient } from "../src/catalogue/client.js";

export type Side = "client" | "baseline";

export interface Result {
  side: Side;
  products: number;
  ms: number;
  /** CPU time (user + system) of the side, less sensitive to a busy machine than wall time. */
  cpuMs: number;
  rssMb: number;
}

interface ChildArgs {
  side: Side;
  url: string;
  key: string;
  secret: string;
}

const BODY = { filter: {}, sorting: { id: "ASC" } } as const;

async function runClient({ url, key, secret }: ChildArgs): Promise<number> {
  const client = createCatalogueClient({ baseUrl: url, keyId: key, keySecret: secret, contact: "bench@pharmafeed.test" });
  let count = 0;
  const stream = client.streamProducts(BODY);
  for await (const product of stream) if (product.id) count++;
  if (stream.stats.rejected > 0) throw new Error(`${stream.stats.rejected} rejected`);
  await client.close();
  return count;
}

/** The simplest correct alternative: decode, split on "\n", JSON.parse, nothing else. */
async function runBaseline({ url, key, secret }: ChildArgs): Promise<number> {
  const response = await request(`${url}/v4/products/stream`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`,
      "content-type": "application/json",
      "user-agent": "pharmafeed-bench/1 (bench@pharmafeed.test)",
    },
    body: JSON.stringify(BODY),
  });
  const decoder = new StringDecoder("utf8");
  let rest = "";
  let count = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    const lines = (rest + decoder.write(chunk)).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) if (line && (JSON.parse(line) as { result: { id: string } }).result.id) count++;
  }
  rest += decoder.end();
  if (rest.trim()) count++;
  return count;
}

/**
 * Peak RSS of this process. getrusage's maxRSS is inherited across fork+exec on
 * Linux (it would report the parent's peak); VmHWM belongs to this address space.
 */
function peakRssMb(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    if (match?.[1]) return Number(match[1]) / 1024;
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS / 1024;
}

const [side, url, key, secret] = process.argv.slice(2) as [Side, string, string, string];
const args: ChildArgs = { side, url, key, secret };
const started = performance.now();
const cpuBefore = process.cpuUsage();
const products = side === "client" ? await runClient(args) : await runBaseline(args);
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const result: Result = { side, products, ms, cpuMs: (cpu.user + cpu.system) / 1000, rssMb: peakRssMb() };
process.stdout.write(`${JSON.stringify(result)}\n`);
