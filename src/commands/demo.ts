/**
 * `pharmafeed demo` (what `npm start` runs for now): starts the sandbox on a
 * free port, reads a few products over HTTP like a client would, prints them
 * and the curl line, and stops.
 */
import type { CommandModule } from "yargs";
import { PharmafeedError } from "../errors.js";
import { startSandbox } from "../sandbox/index.js";
import { curlLine } from "./sandbox.js";

interface DemoProduct {
  id: string;
  status: string;
  name?: Record<string, string | null>;
  publicPrice?: number;
  manufacturerPrice?: number;
}

function price(p: DemoProduct): string {
  if (typeof p.publicPrice === "number") return `EUR ${(p.publicPrice / 100).toFixed(2)}`;
  if (typeof p.manufacturerPrice === "number") return `EUR ${(p.manufacturerPrice / 100).toFixed(2)} (manufacturer, excl. VAT)`;
  return "no price";
}

export const demoCommand: CommandModule<object, { products: number }> = {
  command: "demo",
  describe: "Start the sandbox on a free port, query a few products over HTTP, print them, stop",
  builder: (yargs) => yargs.option("products", { type: "number", default: 2000, describe: "number of generated products" }),
  handler: async (args) => {
    const sandbox = await startSandbox({ port: 0, products: args.products });
    try {
      const auth = "Basic " + Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString("base64");
      const res = await fetch(`${sandbox.url}/v4/products/query`, {
        method: "POST",
        headers: { authorization: auth, "content-type": "application/json" },
        body: JSON.stringify({ filter: { status: "active" }, sorting: { id: "ASC" }, page: { no: 0, size: 10 } }),
      });
      if (res.status !== 200) throw new PharmafeedError("SOURCE_HTTP", `sandbox answered ${res.status}`, { context: { status: res.status } });
      const body = (await res.json()) as { meta: { total: number }; results: DemoProduct[] };
      const out = [`Sandbox on ${sandbox.url}: ${body.meta.total} active products of ${args.products}. The first ${body.results.length}:`];
      for (const p of body.results) out.push(`  ${p.id}  ${p.status.padEnd(8)}  ${(p.name?.fr ?? "(no French name)").slice(0, 60).padEnd(60)}  ${price(p)}`);
      out.push("", "Run `pharmafeed sandbox` to keep one running, then query it with:", `  ${curlLine({ ...sandbox, url: "http://127.0.0.1:8040" })}`, "");
      process.stdout.write(out.join("\n"));
    } finally {
      await sandbox.close();
    }
  },
};
