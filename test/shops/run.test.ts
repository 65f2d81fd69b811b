/**
 * Many shops from one catalogue pass (issue 36), through the BUILT command line against the
 * sandbox: three shops, two of them sharing channel files, one read of the catalogue; each shop's
 * feeds carry its own domain, its own prices and its own name; a shop whose offers file is refused
 * is that shop's problem only; --shard 1/2 and 2/2 together publish what one run of every shop does.
 */
import { readdir, readFile, writeFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseCsv } from "csv-parse/sync";
import { XMLParser } from "fast-xml-parser";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { shardOf } from "../../src/config/shops.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { removeTemporaries, TEST_CERTIFICATIONS } from "../e2e/config.js";
import { snapshot } from "../e2e/feeds.js";
import { expectSamePublished } from "./_published.js";
import { catalogueFacts } from "../e2e/oracle.js";
import { writeTree } from "../config/tree.js";

const SEED = 36;
const PRODUCTS = 150;
let sandbox: SandboxHandle;
let ids: string[];

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  ids = catalogueFacts({ seed: SEED, products: PRODUCTS, now: new Date() }).streamIds;
});

afterAll(async () => {
  killAll();
  await sandbox.close();
  await removeTemporaries();
});

const SHOPS = ["apotheek-noord", "pharmacie-sud", "pharmacie-est"] as const;
type ShopKey = (typeof SHOPS)[number];

/** Each shop prices every product differently: cents = base + index, so a price tells the shop. */
const BASE: Record<ShopKey, number> = { "apotheek-noord": 1000, "pharmacie-sud": 2000, "pharmacie-est": 3000 };

function offersCsv(shop: ShopKey): string {
  return ["id;price;quantity", ...ids.map((id, i) => `${id};${((BASE[shop] + i) / 100).toFixed(2).replace(".", ",")};5`)].join("\n") + "\n";
}

/**
 * A main file with three shop files. noord and sud share the channel files of channels/ (Google
 * XML and generic CSV, links written with {{{shopUrl}}}); est has its own generic CSV and
 * overrides the shared Google channel's feed title.
 */
async function writeShops(): Promise<{ root: string; configFile: string; out: string }> {
  const link = { template: "{{{shopUrl}}}/p/{{seoName}}-{{id}}.html" };
  const root = await writeTree({
    "config/pharmafeed.json": {
      source: { baseUrl: "https://api.catalogue.invalid", keyId: "${CATALOGUE_API_KEY_ID}", keySecret: "${CATALOGUE_API_KEY_SECRET}", contact: "feeds@agency.example" },
      output: { dir: "../out", publicBaseUrl: "https://feeds.agency.example" },
      shop: { name: "unused", url: "https://agency.example" },
      shops: "shops",
    },
    "config/channels/google-fr.json": { name: "google-fr", preset: "google", locale: "fr", link, gate: { maxRejectedPercent: 100 } },
    "config/channels/csv-fr.json": { name: "csv-fr", preset: "generic-csv", locale: "fr", link, gate: { maxRejectedPercent: 100 } },
    "config/shops/apotheek-noord.json": {
      shop: { name: "Apotheek Noord", url: "https://noord.example/", certifications: TEST_CERTIFICATIONS },
      offers: { file: "noord.csv" },
      channels: ["../channels/google-fr.json", "../channels/csv-fr.json"],
    },
    "config/shops/pharmacie-sud.json": {
      shop: { name: "Pharmacie Sud", url: "https://sud.example", certifications: TEST_CERTIFICATIONS },
      offers: { file: "sud.csv" },
      channels: ["../channels/google-fr.json", "../channels/csv-fr.json"],
    },
    "config/shops/pharmacie-est.json": {
      shop: { name: "Pharmacie Est", url: "https://est.example", certifications: TEST_CERTIFICATIONS },
      offers: { file: "est.csv" },
      channels: [{ file: "../channels/google-fr.json", feed: { title: "Est: toute la pharmacie" } }, "../channels/csv-fr.json"],
    },
    "config/shops/noord.csv": offersCsv("apotheek-noord"),
    "config/shops/sud.csv": offersCsv("pharmacie-sud"),
    "config/shops/est.csv": offersCsv("pharmacie-est"),
  });
  return { root, configFile: join(root, "config", "pharmafeed.json"), out: join(root, "out") };
}

const xml = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false });

interface GoogleItem {
  id: string;
  link: string;
  price: string;
}

async function googleFeed(dir: string): Promise<{ title: string; items: GoogleItem[] }> {
  const doc = xml.parse(await readFile(join(dir, "google-fr.xml"), "utf8")) as { rss: { channel: { title: string; item?: GoogleItem | GoogleItem[] } } };
  const items = doc.rss.channel.item;
  return { title: doc.rss.channel.title, items: items === undefined ? [] : Array.isArray(items) ? items : [items] };
}

function streamRequests(): number {
  return sandbox.stats.byPath.get("/v4/products/stream") ?? 0;
}

function referenceRequests(): number {
  let n = 0;
  for (const [path, count] of sandbox.stats.byPath) if (path !== "/v4/products/stream") n += count;
  return n;
}

describe("three shops from one catalogue read", () => {
  it("reads the catalogue as one shop does; each shop's feeds carry its domain, its prices and its name", async () => {
    const { configFile, out, root } = await writeShops();
    // One shop alone, for the request count to compare with.
    const alone = await writeTree({
      "config/pharmafeed.json": {
        source: { baseUrl: "https://api.catalogue.invalid", keyId: "${CATALOGUE_API_KEY_ID}", keySecret: "${CATALOGUE_API_KEY_SECRET}", contact: "feeds@agency.example" },
        shop: { name: "Apotheek Noord", url: "https://noord.example/", certifications: TEST_CERTIFICATIONS },
        output: { dir: "../out" },
        offers: { file: "noord.csv" },
        channels: ["google-fr.json", "csv-fr.json"],
      },
      "config/google-fr.json": { name: "google-fr", preset: "google", locale: "fr", link: { template: "{{{shopUrl}}}/p/{{seoName}}-{{id}}.html" }, gate: { maxRejectedPercent: 100 } },
      "config/csv-fr.json": { name: "csv-fr", preset: "generic-csv", locale: "fr", link: { template: "{{{shopUrl}}}/p/{{seoName}}-{{id}}.html" }, gate: { maxRejectedPercent: 100 } },
      "config/noord.csv": offersCsv("apotheek-noord"),
    });
    let before = [streamRequests(), referenceRequests()];
    const one = await runCli(["generate", "--config", join(alone, "config", "pharmafeed.json")], { env: sandboxEnv(sandbox) });
    expect(one.code, one.stderr).toBe(0);
    const oneShop = [streamRequests() - before[0]!, referenceRequests() - before[1]!];
    expect(oneShop[0]).toBe(1);

    before = [streamRequests(), referenceRequests()];
    const all = await runCli(["generate", "--config", configFile], { env: sandboxEnv(sandbox) });
    expect(all.code, all.stdout + all.stderr).toBe(0);
    expect([streamRequests() - before[0]!, referenceRequests() - before[1]!]).toEqual(oneShop);
    expect(all.stdout).toMatch(/^Shops: 3, 3 ok/);

    // Apotheek Noord alone and in the group publish the same bytes.
    expect(await readFile(join(out, "apotheek-noord", "csv-fr.csv"), "utf8")).toBe(await readFile(join(alone, "out", "csv-fr.csv"), "utf8"));

    const titles: Record<ShopKey, string> = { "apotheek-noord": "Apotheek Noord", "pharmacie-sud": "Pharmacie Sud", "pharmacie-est": "Est: toute la pharmacie" };
    const domains: Record<ShopKey, string> = { "apotheek-noord": "https://noord.example/p/", "pharmacie-sud": "https://sud.example/p/", "pharmacie-est": "https://est.example/p/" };
    for (const shop of SHOPS) {
      const dir = join(out, shop);
      const google = await googleFeed(dir);
      expect(google.title).toBe(titles[shop]);
      expect(google.items.length).toBeGreaterThan(20);
      for (const item of google.items) {
        expect(item.link.startsWith(domains[shop]), item.link).toBe(true);
        // The price tells the shop: its offers file's base plus the product's place in the catalogue.
        const cents = BASE[shop] + ids.indexOf(item.id);
        expect(item.price).toBe(`${(cents / 100).toFixed(2)} EUR`);
      }
      const rows = parseCsv(await readFile(join(dir, "csv-fr.csv")), { columns: true, bom: true }) as Record<string, string>[];
      expect(rows.length).toBeGreaterThan(20);
      for (const row of rows) {
        expect(row["link"]!.startsWith(domains[shop]), row["link"]).toBe(true);
        expect(Number(row["price"])).toBe((BASE[shop] + ids.indexOf(row["id"]!)) / 100);
      }
      const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as { status: string; channels: { name: string; published: unknown }[] };
      expect(manifest.status).toBe("ok");
    }
    await rm(root, { recursive: true, force: true });
    await rm(alone, { recursive: true, force: true });
  });

  it("a shop whose offers file is refused keeps its live feeds; the two others publish; the exit code and the summary say which", async () => {
    const { configFile, out, root } = await writeShops();
    const first = await runCli(["generate", "--config", configFile], { env: sandboxEnv(sandbox) });
    expect(first.code, first.stderr).toBe(0);
    const sudBefore = await snapshot(join(out, "pharmacie-sud"));
    // Sud's offers file loses its header: refused before any work.
    await writeFile(join(root, "config", "shops", "sud.csv"), "not;an;offers;file\n1;2;3;4\n");
    // Noord's prices change, so that its publish is seen.
    await writeFile(join(root, "config", "shops", "noord.csv"), offersCsv("apotheek-noord").replace(/;10,00;/, ";10,01;"));
    const second = await runCli(["generate", "--config", configFile], { env: sandboxEnv(sandbox) });
    expect(second.code, second.stdout + second.stderr).toBe(8);
    expect(second.stdout).toMatch(/^Shops: 3, 2 ok, 1 needs someone\n {2}pharmacie-sud: OFFERS_REFUSED \(exit 7\)/);
    const sudAfter = await snapshot(join(out, "pharmacie-sud"));
    for (const file of ["google-fr.xml", "csv-fr.csv"]) expect(sudAfter.get(file)).toBe(sudBefore.get(file));
    const sudManifest = JSON.parse(await readFile(join(out, "pharmacie-sud", "manifest.json"), "utf8")) as { status: string; error?: { code: string } };
    expect(sudManifest).toMatchObject({ status: "failed", error: { code: "OFFERS_REFUSED" } });
    for (const shop of ["apotheek-noord", "pharmacie-est"]) {
      const manifest = JSON.parse(await readFile(join(out, shop, "manifest.json"), "utf8")) as { status: string };
      expect(manifest.status).toBe("ok");
    }
    const noord = await googleFeed(join(out, "apotheek-noord"));
    expect(noord.items.find((i) => i.id === ids[0])?.price).toBe("10.01 EUR");
    await rm(root, { recursive: true, force: true });
  });

  it("--shard 1/2 and 2/2 after --catalogue-only publish byte for byte what one run of every shop on worker threads does, without a catalogue request", async () => {
    const whole = await writeShops();
    const split = await writeShops();
    // The whole run maps on two worker threads (every shop's channels in each), the shards in this thread: the same bytes.
    const one = await runCli(["generate", "--config", whole.configFile, "--source", "full", "--workers", "2"], { env: sandboxEnv(sandbox) });
    expect(one.code, one.stderr).toBe(0);
    const read = await runCli(["generate", "--config", split.configFile, "--catalogue-only"], { env: sandboxEnv(sandbox) });
    expect(read.code, read.stdout + read.stderr).toBe(0);
    const before = [streamRequests(), referenceRequests()];
    const shards = [1, 2].map((i) => SHOPS.filter((s) => shardOf(s, 2) === i));
    for (const i of [1, 2]) {
      const run = await runCli(["generate", "--config", split.configFile, "--shard", `${i}/2`, "--source", "snapshot"], { env: sandboxEnv(sandbox) });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Shops: ${shards[i - 1]!.length}, ${shards[i - 1]!.length} ok`));
    }
    expect([streamRequests() - before[0]!, referenceRequests() - before[1]!]).toEqual([0, 0]);
    await expectSamePublished(SHOPS, whole.out, split.out);
  });
});

describe("one-shop commands on a config of many shops", () => {
  it("take --shop: explain answers from that shop's own run (its price); without --shop they are refused with the shops' names", async () => {
    const { configFile, out } = await writeShops();
    const run = await runCli(["generate", "--config", configFile], { env: sandboxEnv(sandbox) });
    expect(run.code, run.stderr).toBe(0);
    // A product in every shop's CSV feed (the same products: only offers and links differ).
    const rows = parseCsv(await readFile(join(out, "pharmacie-sud", "csv-fr.csv")), { columns: true, bom: true }) as Record<string, string>[];
    const id = rows[7]!["id"]!;
    for (const shop of ["pharmacie-sud", "pharmacie-est"] as const) {
      const explain = await runCli(["explain", "--config", configFile, "--shop", shop, "--channel", "csv-fr", "--json", id], { env: sandboxEnv(sandbox) });
      expect(explain.code, explain.stderr).toBe(0);
      expect(explain.stdout).toContain(((BASE[shop] + ids.indexOf(id)) / 100).toFixed(2));
    }
    const bare = await runCli(["explain", "--config", configFile, id], { env: sandboxEnv(sandbox) });
    expect(bare.code).toBe(3);
    expect(bare.stderr).toContain("holds 3 shops: name one with --shop (apotheek-noord, pharmacie-est, pharmacie-sud)");
    const unknown = await runCli(["diff", "--config", configFile, "--shop", "pharmacie-ouest"], { env: sandboxEnv(sandbox) });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('no shop matches "pharmacie-ouest"');
  });
});

describe("--catalogue-only and a shop refused by its own file", () => {
  it("neither records nor alerts it (the runs that map shops do)", async () => {
    const { configFile, out, root } = await writeShops();
    const first = await runCli(["generate", "--config", configFile], { env: sandboxEnv(sandbox) });
    expect(first.code, first.stderr).toBe(0);
    await writeFile(join(root, "config", "shops", "pharmacie-est.json"), JSON.stringify({ shop: { name: "Pharmacie Est", url: "https://est.example" }, offres: {} }));
    const read = await runCli(["generate", "--config", configFile, "--catalogue-only"], { env: sandboxEnv(sandbox) });
    expect(read.code, read.stdout + read.stderr).toBe(0);
    expect(await readdir(join(out, "pharmacie-est"))).not.toContain("run-failure.json");
    const shards = await runCli(["generate", "--config", configFile, "--source", "snapshot"], { env: sandboxEnv(sandbox) });
    expect(shards.code, shards.stdout + shards.stderr).toBe(8);
    expect(shards.stdout).toMatch(/^Shops: 3, 2 ok, 1 needs someone\n {2}pharmacie-est: CONFIG_INVALID \(exit 3\)/);
    expect(await readdir(join(out, "pharmacie-est"))).toContain("run-failure.json");
  });
});

describe("a shard without the shared snapshot", () => {
  it("fails every shop of the shard with SNAPSHOT_MISSING (exit 4) and reads nothing from the catalogue; a shard with no shop has nothing to do", async () => {
    const { configFile, out } = await writeShops();
    const before = [streamRequests(), referenceRequests()];
    const run = await runCli(["generate", "--config", configFile, "--shard", "1/2", "--source", "snapshot"], { env: sandboxEnv(sandbox) });
    expect(run.code, run.stdout + run.stderr).toBe(4);
    expect([streamRequests() - before[0]!, referenceRequests() - before[1]!]).toEqual([0, 0]);
    // The log announces no full read it never makes (a one-shop refresh does read in full, and says so: test/snapshot/cli.test.ts).
    expect(run.stderr).toContain("offers loaded");
    expect(run.stderr).not.toMatch(/whole catalogue|in full instead/);
    const onShard = SHOPS.filter((s) => shardOf(s, 2) === 1);
    expect(run.stdout).toContain(`Shops: ${onShard.length}, 0 ok`);
    for (const shop of onShard) {
      const manifest = JSON.parse(await readFile(join(out, shop, "manifest.json"), "utf8")) as { status: string; error?: { code: string; message: string } };
      expect(manifest).toMatchObject({ status: "failed", error: { code: "SNAPSHOT_MISSING" } });
      expect(manifest.error!.message).toContain("--catalogue-only");
    }
    // Seven shards for three shops: at least four hold none.
    const empty = [1, 2, 3, 4, 5, 6, 7].find((i) => !SHOPS.some((s) => shardOf(s, 7) === i))!;
    const idle = await runCli(["generate", "--config", configFile, "--shard", `${empty}/7`], { env: sandboxEnv(sandbox) });
    expect(idle.code, idle.stderr).toBe(0);
    expect(idle.stdout).toBe(`Shops: 0 of 3 on shard ${empty}/7; nothing to do\n`);
  });
});
