/**
 * Child process of bench/generate.ts: one measured side per process, so that
 * its peak RSS is its own.
 *
 *   config <url> <dir>    writes the config of every preset in two locales (22 outputs) to <dir>
 *                         (credentials from BENCH_KEY_ID / BENCH_KEY_SECRET), for the built CLI
 *   baseline <url>        the same stream read with undici, split on newlines and JSON.parse, nothing else
 *
 * Sends {seconds, products, rssMb} to the parent (baseline), or {} once the config is written.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { request } from "undici";
import { PRESET_NAMES } from "../src/presets/index.js";
import { DEMO_KEY } from "../src/sandbox/index.js";

const [mode, url, dir] = process.argv.slice(2) as [string, string, string];

async function writeConfig(): Promise<void> {
  const channels: string[] = [];
  await mkdir(join(dir, "channels"), { recursive: true });
  for (const preset of PRESET_NAMES) {
    for (const locale of ["fr", "nl"]) {
      const name = `${preset}-${locale}`;
      channels.push(`channels/${name}.json`);
      const channel = {
        name,
        preset,
        locale,
        fallbackLocales: ["en"],
        link: { template: `https://shop.example/${locale}/{{seoName}}-{{id}}.html` },
        gate: { maxDropPercent: 100, maxRejectedPercent: 100 },
        gzip: preset === "google",
      };
      await writeFile(join(dir, `channels/${name}.json`), JSON.stringify(channel));
    }
  }
  const main = {
    source: { baseUrl: url, keyId: "${BENCH_KEY_ID}", keySecret: "${BENCH_KEY_SECRET}", contact: "bench@pharmafeed.example", rateLimit: 1000 },
    shop: { name: "Bench", url: "https://shop.example" },
    output: { dir: "out" },
    channels,
  };
  await writeFile(join(dir, "pharmafeed.json"), JSON.stringify(main));
}

async function baseline(): Promise<number> {
  const auth = "Basic " + Buffer.from(`${DEMO_KEY.id}:${DEMO_KEY.secret}`).toString("base64");
  const res = await request(`${url}/v4/products/stream`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json", "user-agent": "pharmafeed-bench/1 (bench@pharmafeed.example)" },
    body: JSON.stringify({ filter: { status: "active" }, sorting: { id: "ASC" } }),
  });
  let rest = "";
  let count = 0;
  for await (const chunk of res.body) {
    const lines = (rest + chunk.toString("utf8")).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) if (line !== "" && JSON.parse(line)) count++;
  }
  return count;
}

if (mode === "config") {
  await writeConfig();
  process.send?.({});
} else {
  const start = performance.now();
  const products = await baseline();
  process.send?.({ seconds: (performance.now() - start) / 1000, products, rssMb: process.resourceUsage().maxRSS / 1024 });
}
