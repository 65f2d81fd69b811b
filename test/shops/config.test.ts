/**
 * The shops config as people get it wrong (issue 36), through the BUILT command line against the
 * sandbox. A shop file's mistake (a typo, a bad URL, a missing offers or channel file, a channel
 * override that renames it) is that shop's: `validate` names the file and the JSON path (exit 3),
 * `generate` runs the others (exit 8), keeps the shop's live feeds byte for byte, leaves its run
 * record for serve and leads its summary with it. A main file's mistake (no shop folder, no shop
 * file, a name twice, a name pharmafeed keeps, a file name that is no shop name) refuses every
 * shop and writes nothing. --shops, --shop, --shard and --catalogue-only said wrong, a config
 * without shops (as before), and a French shop's alert.
 */
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseCsv } from "csv-parse/sync";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { shardOf } from "../../src/config/shops.js";
import { ensureBuilt, killAll, runCli, sandboxEnv, type CliResult } from "../e2e/cli.js";
import { removeTemporaries } from "../e2e/config.js";
import { snapshot } from "../e2e/feeds.js";
import { catalogueFacts } from "../e2e/oracle.js";
import { writeTree, type Tree } from "../config/tree.js";
import { startReceiver, type HttpReceiver } from "../notify/receivers.js";

const SEED = 36;
const PRODUCTS = 60;
let sandbox: SandboxHandle;
let ids: string[];
const roots: string[] = [];

/** In folder order (config/shops/*.json, by name): the order validate and the summary list them in. */
const SHOPS = ["apotheek-oost", "pharmacie-nord", "pharmacie-sud"] as const;
type ShopKey = (typeof SHOPS)[number];
const TITLE: Record<ShopKey, string> = { "apotheek-oost": "Apotheek Oost", "pharmacie-nord": "Pharmacie du Nord", "pharmacie-sud": "Pharmacie du Sud" };
const BASE: Record<ShopKey, number> = { "apotheek-oost": 1000, "pharmacie-nord": 2000, "pharmacie-sud": 3000 };

const SOURCE = { baseUrl: "https://api.catalogue.invalid", keyId: "${CATALOGUE_API_KEY_ID}", keySecret: "${CATALOGUE_API_KEY_SECRET}", contact: "feeds@agency.example" };
const MAIN = { source: SOURCE, output: { dir: "../out" }, shop: { name: "Agency", url: "https://agency.example" }, shops: "shops" };
const CHANNEL = { name: "csv-fr", preset: "generic-csv", locale: "fr", link: { template: "{{{shopUrl}}}/p/{{id}}" }, gate: { maxRejectedPercent: 100 } };

function offersCsv(shop: ShopKey, shift = 0): string {
  return ["id;price;quantity", ...ids.map((id, i) => `${id};${((BASE[shop] + i + shift) / 100).toFixed(2).replace(".", ",")};5`)].join("\n") + "\n";
}

function shopJson(shop: ShopKey): Record<string, unknown> {
  return { shop: { name: TITLE[shop], url: `https://${shop}.example` }, offers: { file: `${shop}.csv` }, channels: ["../channels/csv-fr.json"] };
}

/** Three shops, each its offers file, all on the shared channel file. */
function shopsTree(): Tree {
  const tree: Tree = { "config/pharmafeed.json": MAIN, "config/channels/csv-fr.json": CHANNEL };
  for (const shop of SHOPS) {
    tree[`config/shops/${shop}.json`] = shopJson(shop);
    tree[`config/shops/${shop}.csv`] = offersCsv(shop);
  }
  return tree;
}

interface Fixture {
  root: string;
  config: string;
  main: string;
  out: string;
  shopFile(shop: string): string;
}

function fixture(root: string): Fixture {
  const config = join(root, "config");
  return { root, config, main: join(config, "pharmafeed.json"), out: join(root, "out"), shopFile: (shop) => join(config, "shops", `${shop}.json`) };
}

async function fresh(tree: Tree = shopsTree()): Promise<Fixture> {
  const root = await writeTree(tree);
  roots.push(root);
  return fixture(root);
}

/** The tree after one good run of every shop (copied, so that each test breaks its own). */
let good: Fixture;
async function afterGoodRun(): Promise<Fixture> {
  const root = await mkdtemp(join(tmpdir(), "pharmafeed-shops-config-"));
  roots.push(root);
  await cp(good.root, root, { recursive: true });
  return fixture(root);
}

async function put(f: Fixture, path: string, content: unknown): Promise<void> {
  const file = join(f.root, path);
  await writeFile(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
}

function cli(f: Fixture, ...args: string[]): Promise<CliResult> {
  return runCli([...args, "--config", f.main], { env: sandboxEnv(sandbox) });
}

/** What a refused config says on stderr: its problems, one a line (cli.ts). */
function refusedLines(...problems: string[]): string {
  return `pharmafeed: CONFIG_INVALID: configuration refused (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n${problems.map((p) => `  ${p}\n`).join("")}`;
}

/** Every file and folder under `dir` with its digest (folders as such), to see that nothing was written. */
async function everything(dir: string): Promise<Map<string, string>> {
  const all = await snapshot(dir);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory()) all.set(join(entry.parentPath, entry.name).slice(dir.length + 1) + "/", "dir");
  }
  return all;
}

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  ids = catalogueFacts({ seed: SEED, products: PRODUCTS, now: new Date() }).streamIds;
  good = await fresh();
  const run = await cli(good, "generate");
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^Shops: 3, 3 ok\n/);
});

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
  await removeTemporaries();
});

/** validate's lines of one valid shop (validate.ts). */
function validLines(f: Fixture, shop: ShopKey): string {
  return `shop ${shop} (${f.shopFile(shop)}): valid, 1 channel(s)\n  ${"csv-fr".padEnd(20)} ${"generic-csv".padEnd(15)} fr -> csv-fr.csv\n  offers: ${ids.length} of ${ids.length} rows accepted (${join(f.config, "shops", `${shop}.csv`)})\n`;
}

describe("validate on a config of three shops", () => {
  it("lists every shop, in folder order (exit 0); --shop names only that one", async () => {
    const f = await fresh();
    const all = await cli(f, "validate");
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toBe(`${f.main}: valid, 3 shop(s)\n${SHOPS.map((s) => validLines(f, s)).join("")}`);
    const one = await cli(f, "validate", "--shop", "pharmacie-sud");
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toBe(`${f.main}: valid, 1 shop(s)\n${validLines(f, "pharmacie-sud")}`);
    // Nothing of a generate: validate writes no output.
    expect(existsSync(f.out)).toBe(false);
  });
});

/** A mistake in pharmacie-sud's own file, and the problem line it must be told with. */
interface ShopMistake {
  what: string;
  file: (f: Fixture) => Record<string, unknown>;
  problem: (f: Fixture) => string;
}

const SUD = "pharmacie-sud" as const;
const SHOP_MISTAKES: ShopMistake[] = [
  {
    what: "a typo in a key (the schema is strict)",
    file: () => {
      const { offers, ...rest } = shopJson(SUD);
      return { ...rest, offres: offers };
    },
    problem: (f) => `${f.shopFile(SUD)}: (root): unknown key "offres" (a typo?)`,
  },
  {
    what: "a shop.url without its scheme",
    file: () => ({ ...shopJson(SUD), shop: { name: TITLE[SUD], url: "www.pharmacie-sud.example" } }),
    problem: (f) => `${f.shopFile(SUD)}: shop.url: Invalid URL, got "www.pharmacie-sud.example"`,
  },
  {
    what: "an offers file that does not exist",
    file: () => ({ ...shopJson(SUD), offers: { file: "pharmacie-sud-2025.csv" } }),
    problem: (f) => `${f.shopFile(SUD)}: offers.file: no such file ${join(f.config, "shops", "pharmacie-sud-2025.csv")}`,
  },
  {
    what: "a channel override that renames the shared channel",
    file: () => ({ ...shopJson(SUD), channels: [{ file: "../channels/csv-fr.json", name: "csv-sud" }] }),
    problem: (f) => `${f.shopFile(SUD)}: channels[0].name: a channel keeps its name across shops (the shop's folder tells them apart), got "csv-sud"`,
  },
  {
    what: "a channel file that does not exist",
    file: () => ({ ...shopJson(SUD), channels: ["../channels/csv-fr.json", "../channels/idealo-fr.json"] }),
    problem: (f) => `${f.shopFile(SUD)}: channels[1]: no such file ${join(f.config, "channels", "idealo-fr.json")}`,
  },
];

describe("a shop file's mistake is that shop's", () => {
  it.each(SHOP_MISTAKES)("$what: validate names the shop file and the JSON path (exit 3); generate runs the others (exit 8), keeps its feeds, records and leads with it", async ({ file, problem }) => {
    const f = await afterGoodRun();
    await put(f, "config/shops/pharmacie-sud.json", file(f));
    const line = problem(f);

    const validate = await cli(f, "validate");
    expect(validate.code, validate.stderr).toBe(3);
    expect(validate.stderr).toBe(refusedLines(line));
    expect(validate.stdout).toBe("");
    // The other shops' files are fine: --shop checks only the one named.
    const other = await cli(f, "validate", "--shop", "pharmacie-nord");
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toBe(`${f.main}: valid, 1 shop(s)\n${validLines(f, "pharmacie-nord")}`);

    const before = await snapshot(join(f.out, SUD));
    const manifests = new Map(await Promise.all(SHOPS.map(async (s) => [s, await readFile(join(f.out, s, "manifest.json"), "utf8")] as const)));
    const run = await cli(f, "generate");
    expect(run.code, run.stdout + run.stderr).toBe(8);
    // The shop that needs someone first, with its problem under it; then the others.
    const lead = `Shops: 3, 2 ok, 1 needs someone\n  pharmacie-sud: CONFIG_INVALID (exit 3): configuration refused (1 problem):\n    ${line}\n  apotheek-oost: ok\n  pharmacie-nord: ok\n\n`;
    expect(run.stdout.slice(0, lead.length)).toBe(lead);
    expect(run.stderr).toContain("pharmafeed: RUN_DEGRADED: 1 of 3 shops need someone: pharmacie-sud (CONFIG_INVALID)\n");

    // Its live feeds, manifest, reports and state: byte for byte the good run's; beside them its run record.
    const after = await snapshot(join(f.out, SUD));
    expect(after.has("run-failure.json")).toBe(true);
    after.delete("run-failure.json");
    expect(after).toEqual(before);
    const record = JSON.parse(await readFile(join(f.out, SUD, "run-failure.json"), "utf8")) as Record<string, unknown>;
    expect(record).toMatchObject({ state: "failed", error: { code: "CONFIG_INVALID", message: `configuration refused (1 problem):\n  ${line}` }, unrecorded: "the run could not start" });
    // The others ran: a new manifest each, ok.
    for (const shop of ["apotheek-oost", "pharmacie-nord"] as const) {
      const manifest = await readFile(join(f.out, shop, "manifest.json"), "utf8");
      expect(manifest).not.toBe(manifests.get(shop));
      expect(JSON.parse(manifest)).toMatchObject({ status: "ok" });
      expect(existsSync(join(f.out, shop, "run-failure.json"))).toBe(false);
    }
  });
});

/** A mistake of the main file (or of the set of shop files): the tree's changes and the one problem line. */
interface MainMistake {
  what: string;
  change: (f: Fixture) => Promise<void>;
  problem: (f: Fixture) => string;
}

const MAIN_MISTAKES: MainMistake[] = [
  {
    what: "shops names a folder that does not exist",
    change: (f) => put(f, "config/pharmafeed.json", { ...MAIN, shops: "shop" }),
    problem: (f) => `${f.main}: shops: cannot read the folder ${join(f.config, "shop")}: ENOENT`,
  },
  {
    what: "shops names a folder without any *.json (the offers files' folder)",
    change: async (f) => {
      await mkdir(join(f.config, "offers"));
      for (const shop of SHOPS) await cp(join(f.config, "shops", `${shop}.csv`), join(f.config, "offers", `${shop}.csv`));
      await put(f, "config/pharmafeed.json", { ...MAIN, shops: "offers" });
    },
    problem: (f) => `${f.main}: shops: ${join(f.config, "offers")} holds no shop file (*.json)`,
  },
  {
    what: "two shop files say the same name",
    change: (f) => put(f, "config/shops/pharmacie-nord-2.json", { ...shopJson("pharmacie-nord"), name: "pharmacie-nord" }),
    problem: (f) => `${f.shopFile("pharmacie-nord")}: name: shop "pharmacie-nord" is also ${f.shopFile("pharmacie-nord-2")}`,
  },
  {
    what: 'a shop file called reports.json (its folder would be the output\'s "reports")',
    change: (f) => put(f, "config/shops/reports.json", shopJson("pharmacie-nord")),
    problem: (f) => `${f.shopFile("reports")}: name: "reports" is a name pharmafeed uses itself (the output directory, or serve's root)`,
  },
  {
    what: 'a shop named "healthz" (serve answers /healthz itself)',
    change: (f) => put(f, "config/shops/sante.json", { ...shopJson("pharmacie-nord"), name: "healthz" }),
    problem: (f) => `${f.shopFile("sante")}: name: "healthz" is a name pharmafeed uses itself (the output directory, or serve's root)`,
  },
  {
    what: "a file name that is no shop name, without name",
    change: (f) => put(f, "config/shops/Pharmacie Ouest.json", shopJson("pharmacie-nord")),
    problem: (f) => `${f.shopFile("Pharmacie Ouest")}: name: the file's name "pharmacie ouest" is no shop name (lower-case letters, digits and dashes): say one with "name"`,
  },
  {
    what: "a name that would leave the output folder",
    change: (f) => put(f, "config/shops/ouest.json", { ...shopJson("pharmacie-nord"), name: "../ouest" }),
    problem: (f) => `${f.shopFile("ouest")}: name: "../ouest" is no shop name (lower-case letters, digits and dashes, at most 63)`,
  },
];

/** The run record a shop's folder holds after a run that could not start for `line`. */
async function couldNotStart(f: Fixture, shop: string, line: string): Promise<void> {
  const record = JSON.parse(await readFile(join(f.out, shop, "run-failure.json"), "utf8")) as Record<string, unknown>;
  expect(record, shop).toMatchObject({ state: "failed", error: { code: "CONFIG_INVALID", message: `configuration refused (1 problem):\n  ${line}` }, unrecorded: "the run could not start" });
}

describe("a main file's mistake refuses every shop", () => {
  it.each(MAIN_MISTAKES)("$what: validate and generate exit 3 naming the file and the JSON path; each shop that ran keeps its files and gets its run record", async ({ change, problem }) => {
    const f = await afterGoodRun();
    await change(f);
    const line = problem(f);
    const validate = await cli(f, "validate");
    expect(validate.code, validate.stderr).toBe(3);
    expect(validate.stderr).toBe(refusedLines(line));

    const out = await everything(f.out);
    const root = await readdir(f.root);
    const run = await cli(f, "generate");
    expect(run.code, run.stdout + run.stderr).toBe(3);
    // No notify section: no word about an alert nobody asked for.
    expect(run.stderr).toBe(refusedLines(line));
    expect(run.stdout).toBe("");
    // Under cron the exit code alone said it: each shop's status page, /healthz and /monitor read this record.
    const after = await everything(f.out);
    for (const shop of SHOPS) {
      expect(after.has(join(shop, "run-failure.json"))).toBe(true);
      after.delete(join(shop, "run-failure.json"));
      await couldNotStart(f, shop, line);
    }
    expect(after).toEqual(out);
    expect(await readdir(f.root)).toEqual(root);
  });

  it("with --shard, only the shard's shops get the record; a shop's run that died is said once; the main file's receivers get one alert; the next good run clears it and says so", async () => {
    const f = await afterGoodRun();
    const hook = await startReceiver();
    try {
      const notify = { timeoutMs: 5000, webhooks: [{ url: hook.url, format: "json" }] };
      const shards = [1, 2, 3].map((i) => ({ i, shops: SHOPS.filter((s) => shardOf(s, 3) === i) }));
      const shard = shards.find((s) => s.shops.length > 0 && s.shops.length < SHOPS.length)!;
      // The shard's last run was killed at its first rename: its shops' records say "started" by a process that is gone.
      const killed = await runCli(["generate", "--shard", `${shard.i}/3`, "--config", f.main], { env: { ...sandboxEnv(sandbox), PHARMAFEED_CRASH_AT: "rename:1" } });
      expect(killed.signal, killed.stderr).toBe("SIGKILL");
      await put(f, "config/pharmafeed.json", { ...MAIN, notify, shops: "shop" });
      const line = `${f.main}: shops: cannot read the folder ${join(f.config, "shop")}: ENOENT`;
      const run = await cli(f, "generate", "--shard", `${shard.i}/3`);
      expect(run.code, run.stdout + run.stderr).toBe(3);
      for (const shop of SHOPS) {
        if (shard.shops.includes(shop)) await couldNotStart(f, shop, line);
        else expect(existsSync(join(f.out, shop, "run-failure.json")), shop).toBe(false);
      }
      expect(hook.received.map((r) => r.body as Record<string, unknown>)).toMatchObject([
        ...shard.shops.map((shop) => ({ event: "run-failed", shop, errorCode: "RUN_DIED" })),
        { event: "run-failed", shop: "Agency", errorCode: "CONFIG_INVALID", exitCode: 3 },
      ]);

      await put(f, "config/pharmafeed.json", { ...MAIN, notify });
      const good = await cli(f, "generate", "--shard", `${shard.i}/3`);
      expect(good.code, good.stdout + good.stderr).toBe(0);
      for (const shop of shard.shops) expect(existsSync(join(f.out, shop, "run-failure.json")), shop).toBe(false);
      expect(hook.received.slice(shard.shops.length + 1).map((r) => (r.body as Record<string, unknown>)["event"])).toEqual(shard.shops.map(() => "run-recovered"));
    } finally {
      await hook.close();
    }
  });
});

/** A CSV feed's prices in cents, by id. */
function prices(csv: string): Map<string, number> {
  const rows = parseCsv(csv, { columns: true, bom: true }) as Record<string, string>[];
  return new Map(rows.map((r) => [r["id"]!, Math.round(Number(r["price"]) * 100)]));
}

describe("--shops", () => {
  it("'pharmacie-*' runs only the matching shops; the other's folder is untouched", async () => {
    const f = await afterGoodRun();
    // New prices everywhere: a shop that ran publishes them.
    for (const shop of SHOPS) await put(f, `config/shops/${shop}.csv`, offersCsv(shop, 1));
    const oost = await everything(join(f.out, "apotheek-oost"));
    const feeds = new Map(await Promise.all(SHOPS.map(async (s) => [s, await readFile(join(f.out, s, "csv-fr.csv"), "utf8")] as const)));
    const run = await cli(f, "generate", "--shops", "pharmacie-*");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const lead = "Shops: 2, 2 ok\n  pharmacie-nord: ok\n  pharmacie-sud: ok\n\n";
    expect(run.stdout.slice(0, lead.length)).toBe(lead);
    expect(run.stdout).not.toContain("apotheek-oost");
    expect(await everything(join(f.out, "apotheek-oost"))).toEqual(oost);
    for (const shop of ["pharmacie-nord", "pharmacie-sud"] as const) {
      // The same products, each one cent dearer than in the good run.
      const now = prices(await readFile(join(f.out, shop, "csv-fr.csv"), "utf8"));
      const then = prices(feeds.get(shop)!);
      expect(now.size).toBeGreaterThan(0);
      expect([...now.keys()]).toEqual([...then.keys()]);
      for (const [id, cents] of now) expect(cents, id).toBe(then.get(id)! + 1);
    }
  });

  it.each([
    { patterns: ["drogist-*"], unmatched: '"drogist-*"' },
    // Globs are case-sensitive, as shop names are lower-case; the pattern that matches is no excuse for the one that does not.
    { patterns: ["pharmacie-nord", "Pharmacie-*"], unmatched: '"Pharmacie-*"' },
  ])("$patterns: a pattern that matches no shop is refused (exit 3) naming it and the shops; nothing is written", async ({ patterns, unmatched }) => {
    const f = await afterGoodRun();
    const out = await everything(f.out);
    // `--shops a b`: the flag once (cli.ts refuses `--shops a --shops b` as a flag given twice).
    const run = await cli(f, "generate", "--shops", ...patterns);
    expect(run.code, run.stdout + run.stderr).toBe(3);
    expect(run.stderr).toBe(`pharmafeed: CONFIG_INVALID: ${f.main}: no shop matches ${unmatched} (--shop/--shops); shops: apotheek-oost, pharmacie-nord, pharmacie-sud\n`);
    expect(run.stdout).toBe("");
    expect(await everything(f.out)).toEqual(out);
  });
});

/** One shop as a config always was: the main file is the shop (pharmacie-nord's settings). */
function oneShopTree(): Tree {
  return {
    "config/pharmafeed.json": {
      source: SOURCE,
      shop: { name: TITLE["pharmacie-nord"], url: "https://pharmacie-nord.example" },
      output: { dir: "../out" },
      offers: { file: "pharmacie-nord.csv" },
      channels: ["channels/csv-fr.json"],
    },
    "config/channels/csv-fr.json": CHANNEL,
    "config/pharmacie-nord.csv": offersCsv("pharmacie-nord"),
  };
}

describe("shop flags on a config without shops", () => {
  it.each([
    { args: ["generate", "--shops", "pharmacie-*"], flag: "--shops" },
    { args: ["generate", "--shard", "1/2"], flag: "--shard" },
    { args: ["generate", "--catalogue-only"], flag: "--catalogue-only" },
    { args: ["validate", "--shop", "pharmacie-nord"], flag: "--shop pharmacie-nord" },
    { args: ["explain", "--shop", "pharmacie-nord", "--json", "x"], flag: "--shop pharmacie-nord" },
  ])("$args.0 $flag: a usage error (exit 2) naming the flag; nothing is written", async ({ args, flag }) => {
    const f = await fresh(oneShopTree());
    const run = await cli(f, ...args);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    const why = flag.startsWith("--shop ") ? "names no shops (it is one shop: leave --shop out)" : "names no shops (docs/shops.md)";
    expect(run.stderr).toBe(`pharmafeed: ${flag}: ${f.main} ${why} (see --help)\n`);
    expect(existsSync(f.out)).toBe(false);
  });

  it("generate --shop (a one-shop command's flag): unknown to generate, exit 2 naming it", async () => {
    const f = await fresh(oneShopTree());
    const run = await cli(f, "generate", "--shop", "pharmacie-nord");
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toBe("pharmafeed: Unknown argument: shop (see --help)\n");
    expect(existsSync(f.out)).toBe(false);
  });
});

describe("--shard said wrong on a config of shops", () => {
  // Past 2^53 - 1 a number is rounded: 9007199254740993 was read as ...992, so this i > n passed.
  it.each(["0/2", "3/2", "x", "1/0", "-1/2", "1/2/3", "9007199254740993/9007199254740992", "1/9999999999999999999"])(
    "--shard %s: a usage error (exit 2) naming the flag and the value; nothing is written",
    async (value) => {
      const f = await fresh();
      const run = await cli(f, "generate", "--shard", value);
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stderr).toBe(`pharmafeed: --shard ${value}: expected i/n with 1 <= i <= n <= 9007199254740991 (e.g. 1/4) (see --help)\n`);
      expect(run.stdout).toBe("");
      expect(existsSync(f.out)).toBe(false);
    },
  );
});

describe("--shops naming shops of other shards", () => {
  it("a shard with none of them has nothing to do (exit 0) and says where each selected shop is; nothing is written", async () => {
    const f = await fresh();
    const count = 3;
    const selected = ["pharmacie-nord", "pharmacie-sud"] as const;
    const on = new Map(selected.map((s) => [s, shardOf(s, count)]));
    const idle = [1, 2, 3].find((i) => ![...on.values()].includes(i))!;
    const where = [...new Set(on.values())].sort().map((i) => `on shard ${i}/${count}: ${selected.filter((s) => on.get(s) === i).join(", ")}`);

    const one = await cli(f, "generate", "--shops", "pharmacie-nord", "--shard", `${idle}/${count}`);
    expect(one.code, one.stdout + one.stderr).toBe(0);
    expect(one.stdout).toBe(`Shops: 0 of 1 selected on shard ${idle}/${count}; nothing to do (on shard ${on.get("pharmacie-nord")}/${count}: pharmacie-nord)\n`);
    const glob = await cli(f, "generate", "--shops", "pharmacie-*", "--shard", `${idle}/${count}`);
    expect(glob.code, glob.stdout + glob.stderr).toBe(0);
    expect(glob.stdout).toBe(`Shops: 0 of 2 selected on shard ${idle}/${count}; nothing to do (${where.join("; ")})\n`);
    expect(existsSync(f.out)).toBe(false);
  });

  it("a shard with some of them maps those and says which others another shard maps", async () => {
    const f = await fresh();
    const count = 3;
    const [mine, other] = [shardOf("pharmacie-nord", count), shardOf("pharmacie-sud", count)];
    expect(mine, "the two shops on two shards of 3").not.toBe(other);
    const run = await cli(f, "generate", "--shops", "pharmacie-nord", "pharmacie-sud", "--shard", `${mine}/${count}`);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Shops: 1, 1 ok/);
    expect(run.stderr).toContain(`selected shops mapped by other shards, not by this one: on shard ${other}/${count}: pharmacie-sud`);
    expect((await readdir(f.out)).filter((n) => n.startsWith("pharmacie"))).toEqual(["pharmacie-nord"]);
  });
});

describe("every selected shop's own file refused", () => {
  /** pharmacie-sud's file with a typo, as in SHOP_MISTAKES, for any shop. */
  async function typo(f: Fixture, shop: ShopKey): Promise<string> {
    const { offers, ...rest } = shopJson(shop);
    await put(f, `config/shops/${shop}.json`, { ...rest, offres: offers });
    return `${f.shopFile(shop)}: (root): unknown key "offres" (a typo?)`;
  }

  it("--shops names the one refused: exit 3, the summary and stderr say its file, JSON path and problem; its run record is written", async () => {
    const f = await afterGoodRun();
    const line = await typo(f, SUD);
    const run = await cli(f, "generate", "--shops", SUD);
    expect(run.code, run.stdout + run.stderr).toBe(3);
    expect(run.stdout).toBe(`Shops: 1, 0 ok, 1 needs someone\n  ${SUD}: CONFIG_INVALID (exit 3): configuration refused (1 problem):\n    ${line}\n\n`);
    expect(run.stderr).toBe(`pharmafeed: CONFIG_INVALID: every shop: ${SUD} (CONFIG_INVALID): configuration refused (1 problem):\n  ${line}\n`);
    await couldNotStart(f, SUD, line);
  });

  it("every shop's file: each one's problem on stderr (exit 3); with --log-format json one shops summary event with them", async () => {
    const f = await afterGoodRun();
    const lines: string[] = [];
    for (const shop of SHOPS) lines.push(await typo(f, shop));
    const run = await cli(f, "generate");
    expect(run.code, run.stdout + run.stderr).toBe(3);
    const names = SHOPS.map((s) => `${s} (CONFIG_INVALID)`).join(", ");
    expect(run.stderr).toBe(`pharmafeed: CONFIG_INVALID: every shop: ${names}: configuration refused (3 problems):\n${lines.map((l) => `  ${l}\n`).join("")}`);
    expect(run.stdout).toMatch(/^Shops: 3, 0 ok, 3 need someone\n/);

    const json = await cli(f, "generate", "--log-format", "json");
    expect(json.code, json.stdout + json.stderr).toBe(3);
    expect(json.stdout).toBe("");
    const events = json.stderr.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.filter((e) => e["msg"] === "shops summary")).toEqual([
      expect.objectContaining({ shops: SHOPS.map((shop, i) => ({ shop, status: "CONFIG_INVALID", exitCode: 3, problems: [lines[i]] })) }),
    ]);
  });

  it("--channel naming no shop's channel: each shop's problem on stderr (exit 3)", async () => {
    const f = await afterGoodRun();
    const run = await cli(f, "generate", "--channel", "idealo-fr");
    expect(run.code, run.stdout + run.stderr).toBe(3);
    const lines = SHOPS.map((s) => `${f.shopFile(s)}: channels: no channel named "idealo-fr" (--channel); known: csv-fr`);
    expect(run.stderr).toBe(`pharmafeed: CONFIG_INVALID: every shop: ${SHOPS.map((s) => `${s} (CONFIG_INVALID)`).join(", ")}: configuration refused (3 problems):\n${lines.map((l) => `  ${l}\n`).join("")}`);
  });
});

describe("--shops and --shop said blank (an unset variable in a cron line)", () => {
  it.each([
    { what: "generate --shops ''", args: ["generate", "--shops", ""], said: "--shops: expected shop names or globs (e.g. --shops 'pharmacie-*'), none of them blank, got nothing" },
    { what: "generate --shops pharmacie-nord ' '", args: ["generate", "--shops", "pharmacie-nord", " "], said: `--shops: expected shop names or globs (e.g. --shops 'pharmacie-*'), none of them blank, got " "` },
    // Unquoted, an unset $SHOPS leaves the flag without a value: that ran every shop.
    { what: "generate --shops", args: ["generate", "--shops"], said: "--shops: expected shop names or globs (e.g. --shops 'pharmacie-*'), got nothing" },
    { what: "validate --shop ''", args: ["validate", "--shop", ""], said: "--shop: expected a shop's name, got nothing" },
    { what: "explain --shop ' '", args: ["explain", "--shop", " ", "x"], said: `--shop: expected a shop's name, got " "` },
    { what: "rollback --shop ''", args: ["rollback", "--channel", "csv-fr", "--shop", ""], said: "--shop: expected a shop's name, got nothing" },
  ])("$what: a usage error (exit 2); nothing is written", async ({ args, said }) => {
    const f = await afterGoodRun();
    const out = await everything(f.out);
    const run = await cli(f, ...args);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toBe(`pharmafeed: ${said} (see --help)\n`);
    expect(run.stdout).toBe("");
    expect(await everything(f.out)).toEqual(out);
  });
});

describe("--shop takes one shop's name, not a pattern", () => {
  // A pattern matching one shop worked on it: rollback --shop 'a*' rolled back and pinned a shop nobody named.
  it.each([
    ["rollback", "--channel", "csv-fr"],
    ["explain", "x"],
    ["preview", "--channel", "csv-fr"],
    ["push", "--dry-run"],
    ["diff"],
    ["validate"],
    ["policy"],
    ["merchant", "sync"],
  ])("%s --shop 'pharmacie-n*': a usage error (exit 2); nothing is written", async (...args) => {
    const f = await afterGoodRun();
    const out = await everything(f.out);
    for (const pattern of ["pharmacie-n*", "pharmacie-[n]ord", "!apotheek-oost"]) {
      const run = await cli(f, ...args, "--shop", pattern);
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stderr).toBe(`pharmafeed: --shop: expected one shop's exact name, not a pattern (only generate --shops takes patterns), got "${pattern}" (see --help)\n`);
      expect(run.stdout).toBe("");
    }
    expect(await everything(f.out)).toEqual(out);
  });
});

describe("rollback in a config of shops", () => {
  it("prints and records its commands with --shop, and they work as printed", async () => {
    const f = await afterGoodRun();
    // A second version of pharmacie-nord's feed (other prices), so that there is one to put back.
    await put(f, "config/shops/pharmacie-nord.csv", offersCsv("pharmacie-nord", 3));
    const second = await cli(f, "generate", "--shops", "pharmacie-nord");
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const back = await cli(f, "rollback", "--shop", "pharmacie-nord", "--channel", "csv-fr");
    expect(back.code, back.stderr).toBe(0);
    const hint = /do not publish it until: (pharmafeed rollback .*)\n/.exec(back.stdout)?.[1];
    expect(hint).toBe("pharmafeed rollback --shop pharmacie-nord --release --channel csv-fr");
    // A run says the pin with the same --shop (the review found both hints without it: refused as printed).
    const held = await cli(f, "generate", "--shops", "pharmacie-nord");
    expect(held.stdout).toContain("by `pharmafeed rollback --shop pharmacie-nord --channel csv-fr`");
    expect(held.stdout).toContain("(to publish again: pharmafeed rollback --shop pharmacie-nord --release --channel csv-fr)");
    const [, ...args] = hint!.split(" ");
    const released = await cli(f, ...args);
    expect(released.code, released.stderr).toBe(0);
    expect(released.stdout).toMatch(/^released: csv-fr \(pinned since /);
  });
});

describe("a config without shops", () => {
  it("is one shop as before: its files at the top of its output, the same feed as the same shop among many, validate's one-shop lines", async () => {
    const f = await fresh(oneShopTree());
    const validate = await cli(f, "validate");
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toBe(
      `${f.main}: valid, 1 channel(s)\n  ${"csv-fr".padEnd(20)} ${"generic-csv".padEnd(15)} fr -> csv-fr.csv\n  offers: ${ids.length} of ${ids.length} rows accepted (${join(f.config, "pharmacie-nord.csv")})\n`,
    );
    const run = await cli(f, "generate");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/Shops:|==/);
    expect(run.stdout).toMatch(/^channel +items/);
    expect((await readdir(f.out)).sort()).toEqual(["csv-fr.csv", "history", "manifest.json", "reports", "state"]);
    expect((await readdir(join(f.out, "reports"))).sort()).toEqual(["_offers.csv", "csv-fr.csv", "csv-fr.warnings.csv"]);
    expect((await readdir(join(f.out, "state"))).sort()).toEqual(["explain.sqlite", "rows.ndjson", "snapshot.pfs"]);
    expect(await readFile(join(f.out, "csv-fr.csv"), "utf8")).toBe(await readFile(join(good.out, "pharmacie-nord", "csv-fr.csv"), "utf8"));
    expect(JSON.parse(await readFile(join(f.out, "manifest.json"), "utf8"))).toMatchObject({ status: "ok" });
  });
});

describe("a shop's language and the main file's webhook", () => {
  let hook: HttpReceiver;
  beforeAll(async () => {
    hook = await startReceiver();
  });
  afterAll(async () => {
    await hook?.close();
  });

  it("a French shop's refused offers file is alerted in French; the shops that published alert nobody", async () => {
    const tree = shopsTree();
    tree["config/pharmafeed.json"] = { ...MAIN, notify: { timeoutMs: 5000, webhooks: [{ url: hook.url, format: "json" }] } };
    tree["config/shops/pharmacie-nord.json"] = { ...shopJson("pharmacie-nord"), language: "fr" };
    // The point-of-sale export lost its header.
    tree["config/shops/pharmacie-nord.csv"] = "not;an;offers;file\n1;2;3;4\n";
    const f = await fresh(tree);
    const run = await cli(f, "generate");
    expect(run.code, run.stdout + run.stderr).toBe(8);
    expect(run.stdout).toMatch(/^Shops: 3, 2 ok, 1 needs someone\n {2}pharmacie-nord: OFFERS_REFUSED \(exit 7\): .*\n {2}apotheek-oost: ok\n {2}pharmacie-sud: ok\n/);
    expect(hook.received).toHaveLength(1);
    const alert = hook.received[0]!.body as Record<string, unknown>;
    expect(alert).toMatchObject({
      event: "offers-refused",
      language: "fr",
      shop: "Pharmacie du Nord",
      title: "Pharmacie du Nord: fichier d'offres refusé : rien n'a été publié",
      errorCode: "OFFERS_REFUSED",
      exitCode: 7,
    });
    expect(alert["next"]).toMatch(/^Rien n'a été publié ; les flux précédents restent en ligne/);
    // The command it suggests runs that shop only: as written for a config of one shop it would run (and with --force force) every shop.
    expect(alert["next"]).toContain(`pharmafeed generate --shops pharmacie-nord --config ${f.main}`);
    expect(alert["text"]).toContain(join(f.config, "shops", "pharmacie-nord.csv"));
  });

  it("a French shop whose own file is refused is alerted in French too, through the main file's receivers", async () => {
    const tree = shopsTree();
    tree["config/pharmafeed.json"] = { ...MAIN, notify: { timeoutMs: 5000, webhooks: [{ url: hook.url, format: "json" }] } };
    tree["config/shops/pharmacie-nord.json"] = { ...shopJson("pharmacie-nord"), language: "fr", offres: { file: "x.csv" } };
    const f = await fresh(tree);
    const before = hook.received.length;
    const run = await cli(f, "generate");
    expect(run.code, run.stdout + run.stderr).toBe(8);
    const alerts = hook.received.slice(before).map((r) => r.body as Record<string, unknown>);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ language: "fr", errorCode: "CONFIG_INVALID" });
  });
});
