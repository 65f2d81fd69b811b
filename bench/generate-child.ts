/**
 * Child process of bench/generate.ts: one measured side per process, so that
 * its peak RSS is its own.
 *
 *   config <url> <dir>    writes the config of every preset in two locales (22 outputs) to <dir>
 *                         (credentials from BENCH_KEY_ID / BENCH_KEY_SECRET), for the built CLI
 *   baseline <url>        the same stream read with undici, split on newlines and JSON.parse, nothing else
 *   simple <url> <dir>    the "simple code" baseline: the least any implementation of the job must do.
 *                         The same stream received and parsed, then for every product a plain renderer
 *                         (template literals, fields escaped once per locale, no checks) writes the 22 outputs' rows
 *                         (google, google-tsv, meta, meta-xml, microsoft, idealo, kelkoo, beslist,
 *                         generic-csv, generic-json, generic-ndjson, each in fr and nl) to 22 files,
 *                         each hashed (sha256) and the two google ones gzipped, as generate's config does
 *
 * Sends {seconds, products, rssMb} to the parent (baseline), or {} once the config is written.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createHash, type Hash } from "node:crypto";
import { createGzip, type Gzip } from "node:zlib";
import { once } from "node:events";
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
    // Holds what the shipped policy table asks in FR and DE (docs/policy.md), so that OTC medicines are
    // mapped and written as a certified pharmacy's would be.
    shop: {
      name: "Bench",
      url: "https://shop.example",
      certifications: ["fr-online-pharmacy", "fr-online-veterinary", "de-mail-order-pharmacy", "google-online-pharmacy-fr", "google-online-pharmacy-de"],
    },
    output: { dir: "out" },
    channels,
  };
  await writeFile(join(dir, "pharmafeed.json"), JSON.stringify(main));
}

/** The product stream's lines, as the catalogue client asks for them. */
async function* lines(): AsyncGenerator<string> {
  const auth = "Basic " + Buffer.from(`${DEMO_KEY.id}:${DEMO_KEY.secret}`).toString("base64");
  const res = await request(`${url}/v4/products/stream`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json", "user-agent": "pharmafeed-bench/1 (bench@pharmafeed.example)" },
    body: JSON.stringify({ filter: { status: "active" }, sorting: { id: "ASC" } }),
  });
  let rest = "";
  for await (const chunk of res.body) {
    const parts = (rest + chunk.toString("utf8")).split("\n");
    rest = parts.pop() ?? "";
    for (const line of parts) if (line !== "") yield line;
  }
}

async function baseline(): Promise<number> {
  let count = 0;
  for await (const line of lines()) if (JSON.parse(line)) count++;
  return count;
}

/** The fields every layout uses, read from a product in one locale, no checks: what a plain script would do. */
interface Plain {
  id: string;
  title: string;
  description: string;
  link: string;
  image: string;
  price: string;
  gtin: string;
  brand: string;
  availability: string;
}

type Wire = Record<string, unknown> & { id: string };
const text = (value: unknown, locale: string): string => (value && typeof value === "object" ? String((value as Record<string, unknown>)[locale] ?? "") : "");

function plain(product: Wire, locale: string): Plain {
  const photo = (product["photos"] as { url?: Record<string, string> }[] | undefined)?.[0];
  const brand = (product["brands"] as { name?: unknown }[] | undefined)?.[0]?.name;
  const description = (product["descriptions"] as { content?: unknown }[] | undefined)?.[0]?.content;
  const gtin = product["gtin"];
  return {
    id: product.id,
    title: text(product["name"], locale),
    description: text(description, locale).replace(/<[^>]*>/g, " "),
    link: `https://shop.example/${locale}/${text(product["seoName"], locale)}-${product.id}.html`,
    image: photo?.url ? String(Object.values(photo.url)[0] ?? "") : "",
    price: (Number(product["publicPrice"] ?? 0) / 100).toFixed(2),
    gtin: String(Array.isArray(gtin) ? gtin[0] ?? "" : gtin ?? ""),
    brand: typeof brand === "string" ? brand : text(brand, locale),
    availability: product["ecommerce"] === "unavailable" ? "out_of_stock" : "in_stock",
  };
}

const XML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const xml = (s: string) => (/[&<>"']/.test(s) ? s.replace(/[&<>"']/g, (c) => XML[c]!) : s);
const csv = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const tsv = (s: string) => s.replace(/[\t\n\r]/g, " ");
const ssv = (s: string) => (/[";\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** A product's fields in one locale, each escaped once for each syntax: what a careful plain script shares between its outputs. */
interface Escaped {
  p: Plain;
  x: Plain;
  c: Plain;
  t: Plain;
  /** `;`-separated CSV (medizinfuchs). */
  s: Plain;
}
const each = (p: Plain, f: (s: string) => string): Plain => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, f(v)])) as unknown as Plain;
const escaped = (p: Plain): Escaped => ({ p, x: each(p, xml), c: each(p, csv), t: each(p, tsv), s: each(p, ssv) });

/** One renderer per layout: the same fields in each layout's shape. */
const RENDER: Record<string, (e: Escaped) => string> = {
  google: ({ x }) =>
    `<item>\n<g:id>${x.id}</g:id>\n<title>${x.title}</title>\n<link>${x.link}</link>\n<description>${x.description}</description>\n<g:image_link>${x.image}</g:image_link>\n<g:availability>${x.availability}</g:availability>\n<g:price>${x.price} EUR</g:price>\n<g:gtin>${x.gtin}</g:gtin>\n<g:brand>${x.brand}</g:brand>\n</item>\n`,
  "google-tsv": ({ t }) => `${t.id}\t${t.title}\t${t.link}\t${t.description}\t${t.image}\t${t.availability}\t${t.price} EUR\t${t.gtin}\t${t.brand}\n`,
  meta: ({ c }) => `${c.id},${c.title},${c.description},${c.availability},${c.link},${c.image},${c.price} EUR,${c.brand},${c.gtin}\n`,
  csv: ({ c }) => `${c.id},${c.title},${c.description},${c.link},${c.image},${c.price},${c.gtin},${c.brand},${c.availability}\n`,
  kelkoo: ({ p, x }) =>
    `<product><offer-id>${x.id}</offer-id><title><![CDATA[${p.title}]]></title><description><![CDATA[${p.description}]]></description><product-url>${x.link}</product-url><image-url>${x.image}</image-url><price>${p.price}</price><ean>${x.gtin}</ean><brand>${x.brand}</brand></product>\n`,
  beslist: ({ p, x }) =>
    `<product><title>${x.title}</title><price>${p.price.replace(".", ",")}</price><code>${x.id}</code><productlink>${x.link}</productlink><imagelink>${x.image}</imagelink><eancode>${x.gtin}</eancode><description>${x.description}</description><brand>${x.brand}</brand></product>\n`,
  ssv: ({ p, s }) => `${s.id};${s.title};${s.description};${s.link};${s.image};${p.price.replace(".", ",")};${s.gtin};${s.brand}\n`,
  tsv: ({ t }) => `${t.id}\t${t.title}\t${t.description}\t${t.link}\t${t.image}\t${t.price}\t${t.gtin}\t${t.brand}\t${t.availability}\n`,
  json: ({ p }) => JSON.stringify(p) + ",\n",
  ndjson: ({ p }) => JSON.stringify(p) + "\n",
};
const LAYOUT_OF: Record<string, string> = { google: "google", "google-tsv": "google-tsv", meta: "meta", "meta-xml": "google", microsoft: "google", idealo: "csv", kelkoo: "kelkoo", beslist: "beslist", medizinfuchs: "ssv", billiger: "tsv", "idealo-de": "csv", "generic-csv": "csv", "generic-json": "json", "generic-ndjson": "ndjson" };

/** One output: its renderer, its file (through gzip for the google preset, as the config says), its hash. */
interface Output {
  render: (e: Escaped) => string;
  locale: string;
  file: WriteStream;
  gzip?: { stream: Gzip; file: WriteStream };
  hash: Hash;
  /** Rows not written yet: written in blocks of 64 KB, as any program that writes many small rows does. */
  pending: string;
}

async function flush(out: Output): Promise<void> {
  const block = out.pending;
  out.pending = "";
  out.hash.update(block);
  if (out.gzip && !out.gzip.stream.write(block)) await once(out.gzip.stream, "drain");
  if (!out.file.write(block)) await once(out.file, "drain");
}

async function simple(): Promise<number> {
  const outputs: Output[] = PRESET_NAMES.flatMap((preset) =>
    ["fr", "nl"].map((locale) => {
      const path = join(dir, `${preset}-${locale}`);
      const gzip = preset === "google" ? { stream: createGzip(), file: createWriteStream(`${path}.gz`) } : undefined;
      gzip?.stream.pipe(gzip.file);
      const render = RENDER[LAYOUT_OF[preset] ?? ""];
      // A preset added without a plain renderer here would make the baseline compare against less work.
      if (render === undefined) throw new Error(`bench/generate-child.ts: no plain renderer for preset "${preset}" (add it to LAYOUT_OF)`);
      return { render, locale, file: createWriteStream(path), gzip, hash: createHash("sha256"), pending: "" };
    }),
  );
  let count = 0;
  for await (const line of lines()) {
    const product = (JSON.parse(line) as { result: Wire }).result;
    const byLocale: Record<string, Escaped> = { fr: escaped(plain(product, "fr")), nl: escaped(plain(product, "nl")) };
    for (const out of outputs) {
      out.pending += out.render(byLocale[out.locale]!);
      if (out.pending.length >= 65536) await flush(out);
    }
    count++;
  }
  for (const out of outputs) {
    await flush(out);
    out.hash.digest("hex");
    out.file.end();
    out.gzip?.stream.end();
    await once(out.file, "finish");
    if (out.gzip) await once(out.gzip.file, "finish");
  }
  return count;
}

if (mode === "config") {
  await writeConfig();
  process.send?.({});
} else {
  const start = performance.now();
  const products = mode === "simple" ? await simple() : await baseline();
  process.send?.({ seconds: (performance.now() - start) / 1000, products, rssMb: process.resourceUsage().maxRSS / 1024 });
}
