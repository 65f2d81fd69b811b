/**
 * The shared snapshot through an S3-compatible bucket (docs/shops.md, "Beyond one machine"), with
 * the BUILT command line against the sandbox and a real S3 server (s3rver on port 0): machine A
 * reads the catalogue and uploads the snapshot, machine B (its own empty output directory) maps
 * its shards from the downloaded copy without a catalogue request, and publishes what A would; a
 * damaged copy and refused credentials are refused, said, and never leave a file behind or a
 * secret in a word; an unchanged copy is not downloaded again; a plain secret is refused.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, loadShops } from "../../src/config/load.js";
import { shardOf } from "../../src/config/shops.js";
import { isPharmafeedError } from "../../src/errors.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { writeTree } from "../config/tree.js";
import { S3_KEY, startS3, type S3Server } from "../destinations/_s3-server.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { removeTemporaries, TEST_CERTIFICATIONS } from "../e2e/config.js";
import { expectSamePublished } from "./_published.js";
import { catalogueFacts } from "../e2e/oracle.js";

const SEED = 37;
const PRODUCTS = 120;
const BUCKET = "shared";
const KEY = "nightly/snapshot.pfs";
/** Must appear in no output, record or log line. */
const SECRET = "s3cr3t-MARKER-snapshot-9d2e";
const SHOPS = ["apotheek-noord", "pharmacie-sud", "pharmacie-est"] as const;

let sandbox: SandboxHandle;
let s3: S3Server;
let s3Dir: string;
let client: S3Client;
let ids: string[];
const roots: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  ids = catalogueFacts({ seed: SEED, products: PRODUCTS, now: new Date() }).streamIds;
  s3Dir = await mkdtemp(join(tmpdir(), "pf-snapshot-s3-"));
  s3 = await startS3(s3Dir, BUCKET);
  client = new S3Client({ region: "us-east-1", endpoint: `http://127.0.0.1:${s3.port}`, forcePathStyle: true, credentials: S3_KEY, requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" });
});

afterAll(async () => {
  killAll();
  client?.destroy();
  await Promise.all([sandbox?.close(), s3?.close()]);
  await Promise.all([s3Dir, ...roots].map((d) => rm(d, { recursive: true, force: true })));
  await removeTemporaries();
});

function offersCsv(base: number): string {
  return ["id;price;quantity", ...ids.map((id, i) => `${id};${((base + i) / 100).toFixed(2).replace(".", ",")};5`)].join("\n") + "\n";
}

/** One machine's copy of the config: three shops over shared channel files, the snapshot's bucket, its own output directory. */
async function machine(s3Settings: Record<string, unknown> = {}): Promise<{ configFile: string; out: string }> {
  const link = { template: "{{{shopUrl}}}/p/{{seoName}}-{{id}}.html" };
  const shop = (name: string, url: string, offers: string) => ({ shop: { name, url, certifications: TEST_CERTIFICATIONS }, offers: { file: offers }, channels: ["../channels/google-fr.json", "../channels/csv-fr.json"] });
  const root = await writeTree({
    "config/pharmafeed.json": {
      source: { baseUrl: "https://api.catalogue.invalid", keyId: "${CATALOGUE_API_KEY_ID}", keySecret: "${CATALOGUE_API_KEY_SECRET}", contact: "feeds@agency.example" },
      output: { dir: "../out", publicBaseUrl: "https://feeds.agency.example" },
      shops: "shops",
      snapshot: {
        s3: { endpoint: `http://127.0.0.1:${s3.port}`, bucket: BUCKET, prefix: "nightly", forcePathStyle: true, accessKeyId: "${SNAPSHOT_S3_KEY_ID}", secretAccessKey: "${SNAPSHOT_S3_SECRET}", retries: 1, retryDelayMs: 0, ...s3Settings },
      },
    },
    "config/channels/google-fr.json": { name: "google-fr", preset: "google", locale: "fr", link, gate: { maxRejectedPercent: 100 } },
    "config/channels/csv-fr.json": { name: "csv-fr", preset: "generic-csv", locale: "fr", link, gate: { maxRejectedPercent: 100 } },
    "config/shops/apotheek-noord.json": shop("Apotheek Noord", "https://noord.example/", "noord.csv"),
    "config/shops/pharmacie-sud.json": shop("Pharmacie Sud", "https://sud.example", "sud.csv"),
    "config/shops/pharmacie-est.json": shop("Pharmacie Est", "https://est.example", "est.csv"),
    "config/shops/noord.csv": offersCsv(1000),
    "config/shops/sud.csv": offersCsv(2000),
    "config/shops/est.csv": offersCsv(3000),
  });
  roots.push(root);
  return { configFile: join(root, "config", "pharmafeed.json"), out: join(root, "out") };
}

function env(keys: { id?: string; secret?: string } = {}): Record<string, string> {
  return { ...sandboxEnv(sandbox), SNAPSHOT_S3_KEY_ID: keys.id ?? S3_KEY.accessKeyId, SNAPSHOT_S3_SECRET: keys.secret ?? S3_KEY.secretAccessKey };
}

function catalogueRequests(): number {
  let n = 0;
  for (const count of sandbox.stats.byPath.values()) n += count;
  return n;
}

async function object(): Promise<{ bytes: Buffer; metadata: Record<string, string> }> {
  const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: KEY }));
  return { bytes: Buffer.from(await got.Body!.transformToByteArray()), metadata: got.Metadata ?? {} };
}

const onShard = (i: number) => SHOPS.filter((s) => shardOf(s, 2) === i);

async function shardFailure(out: string, shop: string): Promise<{ code: string; message: string }> {
  const manifest = JSON.parse(await readFile(join(out, shop, "manifest.json"), "utf8")) as { status: string; error: { code: string; message: string } };
  expect(manifest.status).toBe("failed");
  return manifest.error;
}

describe("the shared snapshot in an S3 bucket", () => {
  let a: { configFile: string; out: string };

  it("A uploads it after --catalogue-only; B's shards download it, read nothing from the catalogue and publish what A does; the second shard downloads nothing", async () => {
    expect(onShard(1).length).toBeGreaterThan(0);
    expect(onShard(2).length).toBeGreaterThan(0);
    a = await machine();
    const read = await runCli(["generate", "--config", a.configFile, "--catalogue-only", "--source", "full"], { env: env() });
    expect(read.code, read.stdout + read.stderr).toBe(0);
    const local = await readFile(join(a.out, "state", "snapshot.pfs"));
    const uploaded = await object();
    expect(uploaded.bytes.equals(local)).toBe(true);
    expect(uploaded.metadata).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/), generation: expect.any(String), "synced-at": expect.any(String) });
    expect(read.stderr).toContain("shared snapshot uploaded");

    const b = await machine();
    const before = catalogueRequests();
    const first = await runCli(["generate", "--config", b.configFile, "--shard", "1/2", "--source", "snapshot"], { env: env() });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stderr).toContain("shared snapshot downloaded");
    const file = join(b.out, "state", "snapshot.pfs");
    expect((await readFile(file)).equals(local)).toBe(true);
    const was = await stat(file);
    const second = await runCli(["generate", "--config", b.configFile, "--shard", "2/2", "--source", "snapshot"], { env: env() });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    // Unchanged in the bucket: the local copy is used as it is (the same file, not renamed over).
    expect(second.stderr).toContain("shared snapshot up to date");
    expect(second.stderr).not.toContain("shared snapshot downloaded");
    const is = await stat(file);
    expect([is.ino, is.mtimeMs]).toEqual([was.ino, was.mtimeMs]);
    expect(catalogueRequests() - before).toBe(0);
    // No temporary left beside it.
    expect(await readdir(join(b.out, "state"))).toEqual(["snapshot.pfs"]);

    // What A publishes for every shop from its own snapshot, B's two shards published.
    const all = await runCli(["generate", "--config", a.configFile, "--source", "snapshot"], { env: env() });
    expect(all.code, all.stdout + all.stderr).toBe(0);
    expect(all.stderr).toContain("shared snapshot up to date");
    await expectSamePublished(SHOPS, a.out, b.out);
  });

  it("two shards started at once on a machine without the snapshot both map from it and leave one whole file (each downloads into a name of its own); a dead download's file is cleared", async () => {
    const f = await machine();
    // What a shard killed last night left, and what a live transfer (elsewhere, on a shared folder) is writing now.
    await mkdir(join(f.out, "state"), { recursive: true });
    const dead = join(f.out, "state", ".snapshot.pfs.0a1b2c3d4e5f.tmp-4194305");
    const busy = join(f.out, "state", ".snapshot.pfs.0f1e2d3c4b5a.tmp-4194306");
    await writeFile(dead, "half a snapshot");
    await writeFile(busy, "half a snapshot");
    await utimes(dead, new Date(Date.now() - 86_400_000), new Date(Date.now() - 86_400_000));
    const runs = await Promise.all([1, 2].map((i) => runCli(["generate", "--config", f.configFile, "--shard", `${i}/2`, "--source", "snapshot"], { env: env() })));
    for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(0);
    expect((await readdir(join(f.out, "state"))).sort()).toEqual([".snapshot.pfs.0f1e2d3c4b5a.tmp-4194306", "snapshot.pfs"]);
    expect((await readFile(join(f.out, "state", "snapshot.pfs"))).equals((await object()).bytes)).toBe(true);
  });

  it("a damaged copy (one byte changed, its metadata kept) is refused and deleted: a machine without a snapshot of its own fails its shard with SNAPSHOT_MISSING, saying why", async () => {
    const good = await object();
    const bad = Buffer.from(good.bytes);
    bad[bad.length >> 1]! ^= 0xff;
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: KEY, Body: bad, Metadata: good.metadata }));
    try {
      const c = await machine();
      const run = await runCli(["generate", "--config", c.configFile, "--shard", "1/2", "--source", "snapshot"], { env: env() });
      expect(run.code, run.stdout + run.stderr).toBe(4);
      expect(run.stdout).toContain(`Shops: ${onShard(1).length}, 0 ok`);
      for (const shop of onShard(1)) {
        const error = await shardFailure(c.out, shop);
        expect(error.code).toBe("SNAPSHOT_MISSING");
        expect(error.message).toContain(`s3://${BUCKET}/${KEY} at 127.0.0.1:${s3.port}: download refused and deleted: its bytes do not match the sha256`);
      }
      expect(await readdir(join(c.out, "state")).catch(() => [])).toEqual([]);
    } finally {
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: KEY, Body: good.bytes, Metadata: good.metadata }));
    }
  });

  it("refused credentials: the shard fails with SNAPSHOT_MISSING and --catalogue-only fails (exit 8), each naming the object and the server, never the secret", async () => {
    const d = await machine();
    const wrong = env({ id: "NOT-A-KEY", secret: SECRET });
    const shard = await runCli(["generate", "--config", d.configFile, "--shard", "2/2", "--source", "snapshot"], { env: wrong });
    expect(shard.code, shard.stdout + shard.stderr).toBe(4);
    const target = `s3://${BUCKET}/${KEY} at 127.0.0.1:${s3.port}`;
    for (const shop of onShard(2)) {
      const error = await shardFailure(d.out, shop);
      expect(error.code).toBe("SNAPSHOT_MISSING");
      expect(error.message).toContain(`its copy in the bucket was not downloaded: ${target}: credentials refused (HTTP 403)`);
    }
    const read = await runCli(["generate", "--config", d.configFile, "--catalogue-only", "--source", "full"], { env: wrong });
    expect(read.code, read.stdout + read.stderr).toBe(8);
    expect(read.stderr).toContain(`${target}: credentials refused`);
    expect(read.stderr).toContain("not uploaded");
    const records = await Promise.all(onShard(2).map((shop) => readFile(join(d.out, shop, "manifest.json"), "utf8")));
    for (const text of [shard.stdout, shard.stderr, read.stdout, read.stderr, ...records]) expect(text).not.toContain(SECRET);
    // The copy in the bucket is the one A uploaded.
    expect((await object()).bytes.equals(await readFile(join(a.out, "state", "snapshot.pfs")))).toBe(true);
  });

  it("a run of every shop that reads the catalogue uploads the snapshot it wrote too", async () => {
    const g = await machine();
    const run = await runCli(["generate", "--config", g.configFile, "--source", "full"], { env: env() });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain("shared snapshot uploaded");
    expect((await object()).bytes.equals(await readFile(join(g.out, "state", "snapshot.pfs")))).toBe(true);
  });

  it("a secret written in snapshot.s3 as it is is refused by validate, with its JSON path and without its value", async () => {
    const e = await machine({ secretAccessKey: SECRET });
    const run = await runCli(["validate", "--config", e.configFile], { env: env() });
    expect(run.code, run.stdout + run.stderr).toBe(3);
    expect(run.stdout + run.stderr).toContain('snapshot.s3.secretAccessKey: written in the file as it is: put it in an environment variable and write "${VARIABLE}" here');
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });
});

describe("snapshot.s3 in the config", () => {
  /** The refusal's text of loading `configFile`, or the loaded shops. */
  async function refusal(load: Promise<unknown>): Promise<string> {
    try {
      await load;
    } catch (error) {
      if (isPharmafeedError(error, "CONFIG_INVALID")) return error.message;
      throw error;
    }
    throw new Error("the config was accepted");
  }

  it("is a destination's S3 settings with their defaults, its secrets from the environment; only validate --no-credentials and the other commands go without them", async () => {
    const { configFile } = await machine();
    const keys = { SNAPSHOT_S3_KEY_ID: "id-1", SNAPSHOT_S3_SECRET: "secret-1" };
    const loaded = await loadShops(configFile, { env: { ...env(), ...keys } });
    expect(loaded.shops[0]!.snapshot?.s3).toMatchObject({ bucket: BUCKET, prefix: "nightly", region: "us-east-1", accessKeyId: "id-1", secretAccessKey: "secret-1", partSizeMb: 8, timeoutMs: 60_000, retries: 1 });
    expect(loaded.shops[0]!.snapshot?.s3).not.toHaveProperty("name");
    const { SNAPSHOT_S3_SECRET: _, ...without } = env();
    expect(await refusal(loadShops(configFile, { env: without }))).toContain("pharmafeed.json: snapshot.s3.secretAccessKey: environment variable SNAPSHOT_S3_SECRET is not set");
    await loadShops(configFile, { env: without, checkCredentials: false });
  });

  it("is strict, the main file's alone, and that of a config with shops", async () => {
    const typo = await machine({ bukket: "x" });
    expect(await refusal(loadShops(typo.configFile, { env: env() }))).toMatch(/pharmafeed\.json: snapshot\.s3: unknown key "bukket"/);
    // A shop file: the snapshot is every shop's together.
    const { configFile } = await machine();
    const shopFile = join(configFile, "..", "shops", "pharmacie-est.json");
    const shop = JSON.parse(await readFile(shopFile, "utf8")) as Record<string, unknown>;
    await writeFile(shopFile, JSON.stringify({ ...shop, snapshot: { s3: { bucket: "mine" } } }));
    const loaded = await loadShops(configFile, { env: env() });
    expect(loaded.refused.map((r) => r.name)).toEqual(["pharmacie-est"]);
    expect(loaded.refused[0]!.problems.join("\n")).toMatch(/pharmacie-est\.json: \(root\): unknown key "snapshot"/);
    const one = await writeTree({
      "config/pharmafeed.json": {
        source: { baseUrl: "https://api.catalogue.invalid", keyId: "k", keySecret: "${CATALOGUE_API_KEY_SECRET}" },
        shop: { name: "One", url: "https://one.example" },
        channels: ["google-fr.json"],
        snapshot: { s3: { bucket: BUCKET, accessKeyId: "${SNAPSHOT_S3_KEY_ID}", secretAccessKey: "${SNAPSHOT_S3_SECRET}" } },
      },
      "config/google-fr.json": { name: "google-fr", preset: "google", locale: "fr", link: { template: "https://one.example/p/{{id}}" } },
    });
    roots.push(one);
    expect(await refusal(loadConfig(join(one, "config", "pharmafeed.json"), { env: env() }))).toContain("snapshot: the shared snapshot is that of a config with `shops`");
  });
});
