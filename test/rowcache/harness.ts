/**
 * Shared set-up of the row-reuse tests (issue 17: a refresh copies the rows of
 * products whose offer did not change out of the previous run's files).
 *
 *   full run at t0 into base/ ─> copy to a/ and b/ ─> change something
 *     ─> a/: generate --source snapshot (reuse on)    ┐ same config, offers, now
 *     ─> b/: generate --source snapshot, reuse: false ┘
 *     ─> every file of a/ and b/ byte for byte, the manifests' counts, every explain answer
 *
 * The tests read manifest.json as plain JSON (not through the code's schema),
 * and pass `reuse` through an options object wider than GenerateOptions, so
 * that they typecheck before and after the option exists.
 */
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { expect } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import type { LoadedConfig } from "../../src/config/types.js";
import { unpackOutcome } from "../../src/explain/entry.js";
import { explain } from "../../src/explain/explain.js";
import { ExplainIndex, explainFile } from "../../src/explain/store.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate, type GenerateOptions, type GenerateResult } from "../../src/pipeline/run.js";
import { startSandbox, type SandboxHandle, type SandboxOptionsInput } from "../../src/sandbox/index.js";
import { CATALOGUE_NOW } from "../../src/sandbox/generate/clock.js";
import { channelsForEveryPreset, tempDir, writeConfig, type ChannelFileJson, type ConfigOptions, type E2eConfig } from "../e2e/config.js";

export const HOUR = 3600;
export const DAY = 24 * HOUR;
/** The base run's moment: an hour after the sandbox catalogue's own moment. */
export const T0 = CATALOGUE_NOW + HOUR;
export const at = (t: number): Date => new Date(t * 1000);

/** manifest.sync.reuse as the lead's interface defines it. */
export interface ReuseReport {
  reused: number;
  mapped: number;
  reason?: string;
}

/** GenerateOptions plus the option under test (absent from the type before it lands). */
export type RunOptions = Partial<GenerateOptions> & { reuse?: boolean };

/** The channels of every preset, with offer policies that let an offers change include or exclude a product. */
export function rowcacheChannels(): ChannelFileJson[] {
  return channelsForEveryPreset().map((c) => {
    if (c.preset === "idealo") return { ...c, offers: { whenMissing: "skip" } };
    if (c.preset === "google") return { ...c, offers: { excludeOutOfStock: true } };
    return c;
  });
}

/** Custom CSV and XML layouts whose sale columns only products on sale fill. */
export const CUSTOM_LAYOUT = {
  "layouts/custom/layout.json": {
    format: "csv",
    columns: [
      { header: "id", value: "{{id}}" },
      { header: "price", value: "{{price.text}}" },
      { header: "sale", value: "{{salePrice.text}}" },
      { header: "link", value: "{{link}}" },
    ],
  },
  // The same in XML: a top-level {{...}} counts as a column (those inside #if are optional).
  "layouts/customxml/layout.json": { format: "xml", header: "h.hbs", item: "i.hbs", footer: "f.hbs" },
  "layouts/customxml/h.hbs": "<feed>\n",
  "layouts/customxml/i.hbs": "<item><id>{{id}}</id><sale>{{salePrice.text}}</sale>{{#if salePriceFrom}}<from>{{salePriceFrom}}</from>{{/if}}</item>\n",
  "layouts/customxml/f.hbs": "</feed>\n",
};

export function customChannel(name = "custom-fr", extra: Record<string, unknown> = {}): ChannelFileJson {
  return {
    name,
    preset: "generic-csv",
    locale: "fr",
    template: "../layouts/custom",
    link: { template: "https://shop.example/p/{{id}}" },
    gate: { maxRejectedPercent: 100 },
    ...extra,
  };
}

export interface OfferRow {
  id?: string;
  gtin?: string;
  price: string;
  sale_price?: string;
  sale_from?: string | number;
  sale_until?: string | number;
  quantity?: number;
  availability?: string;
  link?: string;
}

export function offersCsv(rows: readonly OfferRow[]): string {
  const head = "id,gtin,price,sale_price,sale_from,sale_until,quantity,availability,link";
  const line = (r: OfferRow) =>
    [r.id ?? "", r.gtin ?? "", r.price, r.sale_price ?? "", r.sale_from ?? "", r.sale_until ?? "", r.quantity ?? 5, r.availability ?? "in_stock", r.link ?? ""].join(",");
  return [head, ...rows.map(line)].join("\n") + "\n";
}

export interface Bench {
  sandbox: SandboxHandle;
  root: string;
  offersFile: string;
  config: LoadedConfig;
  /** The config tree `config` was loaded from. */
  tree: E2eConfig;
  /** Rewrites (or adds) one file of the tree (relative to its config/ folder) and loads the config again; restoreConfig() undoes every edit. */
  editConfig(path: string, edit: (json: Record<string, unknown>) => Record<string, unknown> | string, only?: string[]): Promise<LoadedConfig>;
  restoreConfig(): Promise<void>;
  /** The tree's config again, with only these channels (`generate --channel`). */
  reload(only?: string[]): Promise<LoadedConfig>;
  /** Writes another config over the same sandbox and offers file (a changed channel, one added or removed). */
  configWith(options?: ConfigOptions & { only?: string[] }): Promise<LoadedConfig>;
  run(config: LoadedConfig, outputDir: string, t: number, extra?: RunOptions): Promise<GenerateResult>;
  writeOffers(rows: readonly OfferRow[]): Promise<void>;
  close(): Promise<void>;
}

export interface BenchOptions {
  sandbox: SandboxOptionsInput;
  channels?: ChannelFileJson[];
  files?: ConfigOptions["files"];
  offers: readonly OfferRow[];
  /** Extra keys of the main file (output.publicBaseUrl for image processing). */
  main?: Record<string, unknown>;
  /** Options of every run (image pipeline timings). */
  defaults?: RunOptions;
}

export async function openBench(options: BenchOptions): Promise<Bench> {
  const sandbox = await startSandbox({ rateLimit: 100_000, ...options.sandbox });
  const root = await tempDir();
  const offersFile = join(root, "offers.csv");
  const env = { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
  const treeWith = (o: ConfigOptions = {}) =>
    // maxDropPercent 100: cases remove offers; a year-long maxAgeHours: time passes across sales and deletions.
    writeConfig({
      channels: options.channels ?? rowcacheChannels(),
      ...(options.files ? { files: options.files } : {}),
      ...o,
      main: { offers: { file: offersFile, maxDropPercent: 100, minAcceptedPercent: 0 }, ...options.main, ...o.main },
      source: { sync: { maxAgeHours: 400 * 24 }, ...o.source },
    });
  const configWith = async (o: ConfigOptions & { only?: string[] } = {}) => {
    const tree = await treeWith(o);
    return loadConfig(tree.configFile, { env, ...(o.only ? { only: o.only } : {}) });
  };
  const tree = await treeWith();
  const originals = new Map<string, string | undefined>();
  const load = (only?: string[]) => loadConfig(tree.configFile, { env, ...(only ? { only } : {}) });
  const bench: Bench = {
    sandbox,
    root,
    offersFile,
    config: undefined as unknown as LoadedConfig,
    tree,
    async editConfig(path, edit, only) {
      const file = join(tree.root, "config", path);
      const text = await readFile(file, "utf8").catch(() => undefined);
      if (!originals.has(file)) originals.set(file, text);
      const next = edit(JSON.parse(text ?? "{}") as Record<string, unknown>);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, typeof next === "string" ? next : JSON.stringify(next, null, 2));
      return load(only);
    },
    async restoreConfig() {
      for (const [file, text] of originals) await (text === undefined ? rm(file, { force: true }) : writeFile(file, text));
      originals.clear();
    },
    configWith,
    reload: load,
    run(config, outputDir, t, extra = {}) {
      const opts: GenerateOptions & { reuse?: boolean } = { config, outputDir, logger: silentLogger, now: at(t), workers: 0, ...options.defaults, ...extra };
      return runGenerate(opts);
    },
    writeOffers: (rows) => writeFile(offersFile, offersCsv(rows)),
    close: () => sandbox.close(),
  };
  await bench.writeOffers(options.offers);
  bench.config = await load();
  return bench;
}

/** Copies an output folder with its files' times (a copy holds the same bytes, but other files: other inodes). */
export async function copyDir(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true, preserveTimestamps: true });
}

export interface Pair {
  /** Refreshed with reuse. */
  a: string;
  /** Refreshed without reuse. */
  b: string;
}

/** A copy of `from` in a fresh temp folder. */
export async function copyOf(from: string): Promise<string> {
  const to = join(await tempDir(), "out");
  await copyDir(from, to);
  return to;
}

/**
 * A fresh output folder in the state of `base` after a refresh at `t` without
 * reuse: its own published files and cache (a reused run checks that the files
 * it copies from are the very ones the cache describes, so copies of one base
 * cannot be refreshed with reuse themselves).
 */
export async function prepare(bench: Bench, base: string, t: number, config = bench.config): Promise<string> {
  const dir = await copyOf(base);
  await bench.run(config, dir, t, { source: "snapshot", reuse: false });
  return dir;
}

/** `a` and a copy of it, to refresh with and without reuse. */
export async function pairOf(a: string): Promise<Pair> {
  return { a, b: await copyOf(a) };
}

/**
 * Refreshes at `t`: a/ with reuse, b/ without, with the same config and offers
 * file, in place; then both must agree. `from`: a pair left by an earlier step,
 * or one folder (refreshed with reuse in place; the other run gets a copy of it).
 */
export async function refreshPair(bench: Bench, from: string | Pair, t: number, ids: readonly string[], config = bench.config): Promise<Pair> {
  const { a, b } = typeof from === "string" ? await pairOf(from) : from;
  await bench.run(config, a, t, { source: "snapshot" });
  await bench.run(config, b, t, { source: "snapshot", reuse: false });
  await expectSameRuns(a, b, config, ids);
  return { a, b };
}

export async function readManifest(dir: string): Promise<Record<string, unknown> & { sync?: { reuse?: ReuseReport } }> {
  return JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as Record<string, unknown> & { sync?: { reuse?: ReuseReport } };
}

export async function reuseOf(dir: string): Promise<ReuseReport | undefined> {
  return (await readManifest(dir)).sync?.reuse;
}

/** Every file under `dir` but the run's record and state (relative path -> bytes). */
async function files(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  async function walk(at: string): Promise<void> {
    for (const name of (await readdir(at)).sort()) {
      const path = join(at, name);
      const rel = relative(dir, path);
      // The run's record (its times differ) and state (compared through the next refresh instead).
      if (rel === "manifest.json" || rel === join("preview", "manifest.json") || rel === "history" || rel === "state") continue;
      if ((await stat(path)).isDirectory()) await walk(path);
      else out.set(rel, await readFile(path));
    }
  }
  await walk(dir);
  return out;
}

/** A manifest's channels without the times of publication. */
function channelCounts(manifest: Record<string, unknown>): unknown {
  const channels = manifest["channels"] as Record<string, unknown>[];
  return channels.map((c) => {
    const live = c["live"] as Record<string, unknown> | null;
    return { ...c, live: live && { ...live, publishedAt: "-" } };
  });
}

/**
 * a/ (reuse) and b/ (no reuse) hold the same published bytes, the same counts,
 * and explain answers every product the same way. `ids`: the products to ask
 * explain about (every product the catalogue streams).
 */
export async function expectSameRuns(a: string, b: string, config: LoadedConfig, ids: readonly string[]): Promise<void> {
  const [fa, fb] = [await files(a), await files(b)];
  expect([...fa.keys()]).toEqual([...fb.keys()]);
  for (const [name, bytes] of fb) {
    const other = fa.get(name)!;
    if (!other.equals(bytes)) expect(firstDifference(other, bytes), `${name} differs (reuse vs no reuse)`).toBe("");
  }
  const [ma, mb] = [await readManifest(a), await readManifest(b)];
  expect(channelCounts(ma)).toEqual(channelCounts(mb));
  expect(ma["source"]).toEqual(mb["source"]);
  expect(ma["status"]).toEqual(mb["status"]);
  expect(ma["offers"]).toEqual(mb["offers"]);
  await expectSameExplain(a, b, config, ids);
}

/** The first differing line of two files, with its number, for a readable failure. */
function firstDifference(a: Buffer, b: Buffer): string {
  const la = a.toString("utf8").split("\n");
  const lb = b.toString("utf8").split("\n");
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1}:\n  reuse:    ${(la[i] ?? "<none>").slice(0, 400)}\n  no reuse: ${(lb[i] ?? "<none>").slice(0, 400)}`;
  }
  return `same lines, ${a.length} vs ${b.length} bytes`;
}

async function expectSameExplain(a: string, b: string, config: LoadedConfig, ids: readonly string[]): Promise<void> {
  const [ia, ib] = [ExplainIndex.open(explainFile(a)), ExplainIndex.open(explainFile(b))];
  try {
    expect(ia === undefined).toBe(ib === undefined);
    if (!ia || !ib) return;
    // Each index pins its own folder's files (explain/freshness.ts): the same but for the files' identities on disk.
    const unpinned = (meta: typeof ia.meta) => ({ ...meta, channels: meta.channels.map(({ identity: _, ...c }) => c) });
    expect(unpinned(ia.meta)).toEqual(unpinned(ib.meta));
    for (const c of [...ia.meta.channels, ...ib.meta.channels]) expect(c.identity === undefined).toBe(c.published !== true);
    // Every id, and words of some names (the index's word search, copied by a refresh that reuses).
    const words = ids
      .filter((_, i) => i % 15 === 0)
      .map((id) => Object.values(ib.byId(id)?.names ?? {})[0]?.split(" ")[0])
      .filter((w): w is string => w !== undefined && w.length >= 4);
    for (const query of [...ids, ...new Set(words)]) {
      const input = { channels: config.channels, query, sourceFilter: config.query.filter };
      const [qa, qb] = [await explain({ ...input, index: ia, outputDir: a }), await explain({ ...input, index: ib, outputDir: b })];
      expect(qa, `explain ${query}`).toEqual(qb);
    }
  } finally {
    ia?.close();
    ib?.close();
  }
}

/** The run mapped only part of the products and says so. */
export async function expectReused(dir: string, atLeast = 1): Promise<ReuseReport> {
  const reuse = await reuseOf(dir);
  expect(reuse, "manifest.sync.reuse").toBeDefined();
  expect(reuse!.reason, "manifest.sync.reuse.reason").toBeUndefined();
  expect(reuse!.reused).toBeGreaterThanOrEqual(atLeast);
  return reuse!;
}

/** The run mapped everything and says why (the reason matching `why` when given). */
export async function expectNotReused(dir: string, why?: RegExp): Promise<ReuseReport> {
  const reuse = await reuseOf(dir);
  expect(reuse, "manifest.sync.reuse").toBeDefined();
  expect(reuse!.reused).toBe(0);
  expect(typeof reuse!.reason).toBe("string");
  expect(reuse!.reason).not.toBe("");
  if (why) expect(reuse!.reason).toMatch(why);
  return reuse!;
}

/** What one product became in each channel of the last run: "item" or its first reason code. */
export function outcomeOf(dir: string, id: string): Record<string, string> {
  const index = ExplainIndex.open(explainFile(dir));
  if (!index) throw new Error(`no explain index in ${dir}`);
  try {
    const row = index.byId(id);
    const out: Record<string, string> = {};
    index.meta.channels.forEach((c, i) => {
      const o = unpackOutcome(row?.outcomes[i] ?? null);
      out[c.name] = !o ? "none" : o.kind === "item" ? "item" : (o.reasons[0]?.code ?? "?");
    });
    return out;
  } finally {
    index.close();
  }
}

/** The explain index's 14-digit GTIN key of a product (undefined when it has none). */
export function gtinOf(dir: string, id: string): string | undefined {
  const index = ExplainIndex.open(explainFile(dir));
  try {
    return index?.byId(id)?.gtin;
  } finally {
    index?.close();
  }
}
