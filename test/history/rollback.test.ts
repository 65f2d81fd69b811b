/**
 * `pharmafeed rollback` and the price gate through the BUILT command line against the sandbox, with
 * a real `serve` answering all along: a version put back is served whole (never a partial body, the
 * ETag following the manifest's digest) and pinned until `--release`; a kept copy that is missing or
 * damaged is never served; a mass price change is not published until `--force`.
 *
 * The cases run in order on one output folder (each starts from where the last one left it):
 *   v1 (catalogue prices) -> v2 (x1.1) -> rollback to v1, pinned -> run of x1.2 held -> release
 *   -> v3 (x1.2) -> refused rollbacks -> x1.2 x1.8 held by the price gate -> --force publishes it.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { createCatalogue, startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import type { FeedServer } from "../../src/serve/server.js";
import { ensureBuilt, killAll, runCli, sandboxEnv, waitFor } from "../e2e/cli.js";
import { removeTemporaries, writeConfig, type E2eConfig } from "../e2e/config.js";
import { gunzip, readManifestJson, sha256, snapshot, type ManifestEntry, type ManifestJson } from "../e2e/feeds.js";
import { basic, fetchRaw, SECRETS, serve, type Reply } from "../serve/helpers.js";

const SEED = 21;
const PRODUCTS = 100;
const CHANNEL = "google-fr";
const FILE = "/feeds/google-fr.xml";
const TWIN = "/feeds/google-fr.xml.gz";
const link = { template: "https://shop.example/p/{{id}}" };
const AUTH = { Authorization: basic(SECRETS.STATUS_USER, SECRETS.STATUS_PASSWORD) };

type Pinned = { at: string; command: string; versionOf: string };
type Entry = Omit<ManifestEntry, "live"> & { live: (NonNullable<ManifestEntry["live"]> & { pinned?: Pinned }) | null };
type Manifest = Omit<ManifestJson, "channels"> & { channels: Entry[]; unpublished?: { channel: string; kind: string; reason: string }[] };

let sandbox: SandboxHandle;
let c: E2eConfig;
let server: FeedServer;
let env: Record<string, string>;
let offersFile: string;
/** Products with a catalogue price (cents), each given an offers row. */
let priced: [string, number][];

const manifest = async () => (await readManifestJson(c.outputDir)) as unknown as Manifest;
const entryOf = async (channel = CHANNEL) => (await manifest()).channels.find((e) => e.name === channel)!;
const cli = (...args: string[]) => runCli([...args, "--config", c.configFile], { env });
const generate = (...args: string[]) => cli("generate", ...args);
const rollback = (...args: string[]) => cli("rollback", "--channel", CHANNEL, ...args);
const served = async (path = FILE) => {
  const reply = await fetchRaw(server.url, path);
  expect(reply.status, path).toBe(200);
  return reply;
};
const text = async (path: string, headers: Record<string, string> = {}) => {
  const reply = await fetchRaw(server.url, path, headers);
  return { status: reply.status, body: reply.body.toString("utf8") };
};

/** Every product with a catalogue price at that price times `factor`, in euros with a comma. */
async function offers(factor: number): Promise<void> {
  const rows = priced.map(([id, cents]) => `${id};${(Math.round(cents * factor) / 100).toFixed(2).replace(".", ",")};3`);
  await writeFile(offersFile, ["id;price;quantity", ...rows].join("\n") + "\n");
}

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: SEED, products: PRODUCTS, rateLimit: 100_000 });
  const catalogue = createCatalogue({ seed: SEED, products: PRODUCTS, assetBaseUrl: "http://sandbox.test" });
  priced = [...catalogue.products()].flatMap((p) => (typeof p["publicPrice"] === "number" && p["publicPrice"] > 0 ? [[p["id"] as string, p["publicPrice"]] as [string, number]] : []));
  env = { ...sandboxEnv(sandbox), ...SECRETS };
  c = await writeConfig({
    channels: [
      { name: CHANNEL, preset: "google", locale: "fr", link, gzip: true, gate: { maxRejectedPercent: 100 } },
      { name: "idealo-fr", preset: "idealo", locale: "fr", link, gate: { maxRejectedPercent: 100 } },
    ],
    main: { offers: { file: "offers.csv" }, serve: { status: { user: "${STATUS_USER}", password: "${STATUS_PASSWORD}" } } },
  });
  offersFile = join(c.root, "config", "offers.csv");
  await offers(1);
  const first = await generate();
  expect(first.code, first.stderr).toBe(0);
  const config = await loadConfig(c.configFile, { env, serve: true, checkCredentials: false });
  server = await serve(config);
});

afterAll(async () => {
  killAll();
  await server?.close(1000);
  await sandbox?.close();
  await removeTemporaries();
});

/** Versions 1 and 2 as served (identity and gzip twin), kept across the cases. */
const v1 = { body: Buffer.alloc(0), twin: Buffer.alloc(0), etag: "", sha: "" };
const v2 = { body: Buffer.alloc(0), twin: Buffer.alloc(0), etag: "", sha: "" };
/** The file the pinned run built (x1.2), published after the release. */
let heldSha = "";

describe("pharmafeed rollback", () => {
  it("puts version 1 back while serve answers: every reply whole (v1 or v2), then v1 with v1's ETag, pinned", async () => {
    const one = await served();
    Object.assign(v1, { body: one.body, twin: (await served(TWIN)).body, etag: String(one.headers["etag"]), sha: (await entryOf()).live!.sha256 });
    expect(v1.etag).toBe(`"${v1.sha}"`);

    await offers(1.1);
    const second = await generate();
    expect(second.code, second.stderr).toBe(0);
    const two = await served();
    Object.assign(v2, { body: two.body, twin: (await served(TWIN)).body, etag: String(two.headers["etag"]), sha: (await entryOf()).live!.sha256 });
    expect(v2.body.equals(v1.body)).toBe(false);
    expect(v2.etag).toBe(`"${v2.sha}"`);
    // A run that changes nothing publishes v2 again: still one version, so "previous" is v1 for
    // diff and rollback alike (never the live file compared with, or put back over, itself).
    const unchanged = await generate();
    expect(unchanged.code, unchanged.stderr).toBe(0);
    expect((await entryOf()).live!.sha256).toBe(v2.sha);
    const diffed = await cli("diff", "--channel", CHANNEL, "--json");
    expect(diffed.code, diffed.stderr).toBe(0);
    const pair = (JSON.parse(diffed.stdout) as { channels: { from: { sha256: string }; to: { sha256: string } }[] }).channels[0]!;
    expect([pair.from.sha256, pair.to.sha256]).toEqual([v1.sha, v2.sha]);
    const idealoBefore = (await served("/feeds/idealo-fr.csv")).body;

    // Both URLs fetched again and again from before the command starts until a few fetches after it exits.
    const replies: { path: string; reply: Reply }[] = [];
    let exited = false;
    const loop = (async () => {
      for (let after = 0; after < 3; after += exited ? 1 : 0) {
        for (const path of [FILE, TWIN]) replies.push({ path, reply: await fetchRaw(server.url, path) });
      }
    })();
    await waitFor(() => replies.length >= 2, "the first fetches of the loop");
    const result = await rollback().finally(() => (exited = true));
    await loop;

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`put back: ${CHANNEL}: the version published at`);
    expect(result.stdout).toContain(`pinned: runs build ${CHANNEL} but do not publish it until: pharmafeed rollback --release --channel ${CHANNEL}`);

    const after = await served();
    expect(after.body.equals(v1.body)).toBe(true);
    expect(after.headers["etag"]).not.toBe(v2.etag);
    expect(after.headers["etag"]).toBe(v1.etag);
    const twin = await served(TWIN);
    expect(gunzip(twin.body).equals(v1.body)).toBe(true);
    expect(twin.headers["etag"]).toBe(`"${v1.sha}-gz"`);

    // Whole bodies only, each with the ETag of what it is; v2 before the switch, v1 after it, never back.
    expect(replies.length).toBeGreaterThanOrEqual(8);
    let switched = false;
    for (const { path, reply } of replies) {
      expect(reply.status, path).toBe(200);
      const body = path === TWIN ? gunzip(reply.body) : reply.body;
      const isV1 = body.equals(v1.body);
      expect(isV1 || body.equals(v2.body), `${path}: a body that is neither version (${reply.body.length} bytes)`).toBe(true);
      const sha = isV1 ? v1.sha : v2.sha;
      expect(reply.headers["etag"]).toBe(path === TWIN ? `"${sha}-gz"` : `"${sha}"`);
      if (path === TWIN && !isV1) expect(reply.body.equals(v2.twin)).toBe(true);
      if (path === FILE) {
        if (switched) expect(isV1, "v2 served again after v1").toBe(true);
        switched ||= isV1;
      }
    }
    expect(replies[0]!.reply.body.equals(v2.body)).toBe(true);
    expect(replies.slice(-2).every(({ path, reply }) => (path === TWIN ? gunzip(reply.body) : reply.body).equals(v1.body))).toBe(true);

    const live = (await entryOf()).live!;
    expect(live).toMatchObject({ sha256: v1.sha, gzip: { file: "google-fr.xml.gz" }, pinned: { command: `pharmafeed rollback --channel ${CHANNEL}` } });
    expect(live.pinned!.at).toBe(live.publishedAt);
    // The file on disk and its twin are the version put back; the other channel is untouched.
    expect((await readFile(join(c.outputDir, "google-fr.xml"))).equals(v1.body)).toBe(true);
    expect(gunzip(await readFile(join(c.outputDir, "google-fr.xml.gz"))).equals(v1.body)).toBe(true);
    expect((await served("/feeds/idealo-fr.csv")).body.equals(idealoBefore)).toBe(true);
  });

  it("a pinned channel is built but not published (exit 5) until --release, and every surface says so", async () => {
    // A run of another channel says the pin (its table row) and is not held by it.
    const beside = await generate("--channel", "idealo-fr");
    expect(beside.code, beside.stderr).toBe(0);
    expect(beside.stdout).toMatch(new RegExp(`^${CHANNEL} .* yes, pinned since \\S+ by \`pharmafeed rollback --channel ${CHANNEL}\`$`, "m"));
    await offers(1.2);
    const held = await generate();
    expect(held.code, held.stderr).toBe(5);
    const entry = await entryOf();
    expect(entry.published).toMatch(/^gate: pinned since \S+ by `pharmafeed rollback --channel google-fr`; this run's file would change it by \+0 -0, \d+ price changes/);
    expect(entry.published).toContain(`(to publish again: pharmafeed rollback --release --channel ${CHANNEL})`);
    expect(entry.live).toMatchObject({ sha256: v1.sha, pinned: { command: `pharmafeed rollback --channel ${CHANNEL}` } });
    expect(entry.sha256).not.toBe(v1.sha);
    heldSha = entry.sha256;
    expect((await entryOf("idealo-fr")).published).toBe(true);
    expect(held.stdout).toContain("run: degraded (1 of 2 channels not published: google-fr: gate: pinned since");
    expect(held.stderr).toContain("GATE_TRIPPED: not published, previous file kept: google-fr (gate: pinned since");
    const afterHeld = await served();
    expect(afterHeld.body.equals(v1.body)).toBe(true);
    expect(afterHeld.headers["etag"]).toBe(v1.etag);

    const monitor = await text("/monitor");
    expect(monitor.status).toBe(503);
    expect(monitor.body).toContain("pinned since");
    expect(monitor.body).toContain("rollback --release --channel google-fr");
    const health = await text("/healthz");
    expect(health.status).toBe(200);
    expect(health.body).toContain("pinned since");

    const en = await text("/?lang=en", AUTH);
    expect(en.status).toBe(200);
    expect(en.body).toContain("pinned since");
    expect(en.body).toContain("by pharmafeed rollback --channel google-fr");
    const fr = await text("/?lang=fr", AUTH);
    expect(fr.status).toBe(200);
    expect(fr.body).toContain("épinglé depuis");

    // google-fr's held entry (kept, as is its pin) is an earlier run's to a run of idealo-fr alone: it exits 0 (a review found 5, with "run: ok").
    const other = await generate("--channel", "idealo-fr");
    expect(other.code, other.stdout + other.stderr).toBe(0);
    expect(other.stdout).toContain("run: ok (every channel published)");
    expect((await entryOf()).published).toMatch(/^gate: pinned since/);
    expect(other.stdout).toMatch(/^google-fr .* no: gate: pinned since/m);
    const release = await rollback("--release");
    expect(release.code, release.stderr).toBe(0);
    expect(release.stdout).toContain(`released: ${CHANNEL} (pinned since`);
    const released = await entryOf();
    expect(released.live!.sha256).toBe(v1.sha);
    expect(released.live).not.toHaveProperty("pinned");
    expect((await served()).body.equals(v1.body)).toBe(true);
    expect((await rollback("--release")).stdout).toContain(`${CHANNEL} is not pinned: nothing to release`);

    const again = await generate();
    expect(again.code, again.stderr).toBe(0);
    const published = await entryOf();
    expect(published.published).toBe(true);
    expect(published.live).toMatchObject({ sha256: heldSha });
    expect(published.live).not.toHaveProperty("pinned");
    const now = await served();
    expect(sha256(now.body)).toBe(heldSha);
    expect(now.headers["etag"]).toBe(`"${heldSha}"`);
    expect(sha256(gunzip((await served(TWIN)).body))).toBe(heldSha);
    expect((await text("/monitor")).status).toBe(200);

    const page = await text("/?lang=en", AUTH);
    expect(page.body).not.toContain("pinned since");
    const line = /since the previous version: \+0 −0, \d+ price changes/.exec(page.body)?.[0];
    expect(line, page.body).toBeDefined();
    expect(page.body).toContain(`href="/status/changes/${CHANNEL}"`);
    expect((await text(`/status/changes/${CHANNEL}`, AUTH)).status).toBe(200);

    // A quiet night (the same file again) keeps the last change's figures: a review found "no change" on every card.
    const quiet = await generate();
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(((await entryOf()) as { changes?: { since: string } }).changes).toMatchObject({ since: released.live!.sha256 });
    expect((await text("/?lang=en", AUTH)).body).toContain(line!);
  });

  it("refuses --to a run that published no version of it (exit 2), with a sentence; nothing moves", async () => {
    const filesBefore = await snapshot(c.outputDir);
    const never = await rollback("--to", "2001-01-01");
    expect(never.code, never.stderr).toBe(2);
    expect(never.stderr).toContain(`pharmafeed: ${CHANNEL}: 2001-01-01: no run starting with "2001-01-01" published a version of it, nor was one published at such a time (runs on record:`);
    expect(await snapshot(c.outputDir)).toEqual(filesBefore);
  });

  it("refuses the version served now (nothing to put back) and an empty reference (exit 2); nothing moves, nothing is pinned", async () => {
    const filesBefore = await snapshot(c.outputDir);
    const live = (await entryOf()).live!;
    for (const to of ["live", live.sha256.slice(0, 12).toUpperCase(), live.publishedAt]) {
      const refused = await rollback("--to", to);
      expect(refused.code, `${to}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr).toContain(`is the version served now (published at ${live.publishedAt}, sha256 ${live.sha256.slice(0, 12)}): nothing to put back`);
    }
    for (const to of ["", " "]) {
      const empty = await rollback("--to", to);
      expect(empty.code, empty.stderr).toBe(2);
      expect(empty.stderr).toContain("an empty version reference names no version");
    }
    expect(await snapshot(c.outputDir)).toEqual(filesBefore);
    expect((await entryOf()).live).not.toHaveProperty("pinned");
  });

  it("diff takes back the times it prints and digests in upper case, and refuses an empty reference (exit 2)", async () => {
    const printed = await cli("diff", "--channel", CHANNEL);
    expect(printed.code, printed.stderr).toBe(0);
    const [, fromTime, fromSha, toTime, toSha] = /^google-fr: (\S+) \(([0-9a-f]{12})\) -> (\S+) \(([0-9a-f]{12})\)$/m.exec(printed.stdout) ?? [];
    expect(fromSha, printed.stdout).toBeDefined();
    for (const args of [[fromTime!, toTime!], [fromSha!.toUpperCase(), toSha!.toUpperCase()]]) {
      const again = await cli("diff", "--channel", CHANNEL, ...args);
      expect(again.code, `${args.join(" ")}: ${again.stdout}${again.stderr}`).toBe(0);
      expect(again.stdout).toBe(printed.stdout);
    }
    const empty = await cli("diff", "--channel", CHANNEL, "");
    expect(empty.code, empty.stderr).toBe(2);
    expect(empty.stderr).toContain("FROM: an empty version reference names no version");
  });

  it("refuses a damaged kept copy (exit 1, STORE_INVALID): the served file and manifest unchanged", async () => {
    const before = await served();
    const manifestBefore = await readFile(join(c.outputDir, "manifest.json"));
    const filesBefore = await snapshot(c.outputDir);

    // "previous" is v1 (put back, then replaced by the run after the release): its kept copy is damaged,
    // truncated or not gzip: refused, and removed (never handed out again).
    const kept = join(c.outputDir, "history", "feeds", `${v1.sha}.gz`);
    const whole = await readFile(kept);
    for (const damaged of [whole.subarray(0, Math.floor(whole.length / 2)), Buffer.from("not a gzip stream at all\n")]) {
      await writeFile(kept, damaged);
      const garbage = await rollback();
      expect(garbage.code, garbage.stderr).toBe(1);
      expect(garbage.stderr).toContain(`STORE_INVALID: ${CHANNEL}: the version published at`);
      expect(garbage.stderr).toContain("cannot be read back: its kept copy is damaged (");
      expect(garbage.stderr).toContain(") and was removed");
      expect(existsSync(kept)).toBe(false);
    }

    // A whole gzip stream, of other bytes: caught by the digest check, and the bad copy removed.
    await writeFile(kept, await readFile(join(c.outputDir, "history", "feeds", `${heldSha}.gz`)));
    const other = await rollback();
    expect(other.code, other.stderr).toBe(1);
    expect(other.stderr).toContain("is damaged (its digest is not the version's) and was removed");

    const after = await served();
    expect(after.body.equals(before.body)).toBe(true);
    expect(after.headers["etag"]).toBe(before.headers["etag"]);
    expect((await readFile(join(c.outputDir, "manifest.json"))).equals(manifestBefore)).toBe(true);
    // Nothing else in the output folder moved: no temp file left, no dated copy of a publish that did not happen.
    const filesAfter = await snapshot(c.outputDir);
    filesBefore.delete(join("history", "feeds", `${v1.sha}.gz`));
    expect(filesAfter).toEqual(filesBefore);

    // Pruned now: said so, and still nothing served changes.
    const pruned = await rollback();
    expect(pruned.code, pruned.stderr).toBe(1);
    expect(pruned.stderr).toContain("is no longer kept in history/feeds (pruned)");
    expect((await served()).body.equals(before.body)).toBe(true);
  });
});

describe("the price gate", () => {
  it("holds a mass price change (exit 5, every surface says why) until --force", async () => {
    const before = await served();
    const diskBefore = await readFile(join(c.outputDir, "google-fr.xml"));
    // x1.8 on every offer: within offers.maxPriceRatio (5) of the catalogue, an 80% move against the live feed.
    await offers(1.2 * 1.8);
    const held = await generate();
    expect(held.code, held.stderr).toBe(5);
    const m = await manifest();
    const unpublished = m.unpublished?.find((u) => u.channel === CHANNEL);
    expect(unpublished).toMatchObject({ kind: "gate" });
    expect(unpublished!.reason).toMatch(/^gate: prices moved more than 50% for \d+\.\d% of items \(\d+ of \d+; largest \S+: [^;)]+ -> [^;)]+\), more than maxPriceChangedItemsPercent 25%/);
    const [, moved, compared] = /\((\d+) of (\d+);/.exec(unpublished!.reason)!;
    expect(Number(moved) / Number(compared)).toBeGreaterThan(0.25);
    expect(held.stdout).toMatch(/^google-fr .* no: gate: prices moved more than 50% for /m);
    expect(held.stdout).toContain("channels not published: google-fr: gate: prices moved more than 50% for");
    expect(held.stderr).toContain("GATE_TRIPPED: not published, previous file kept: google-fr (gate: prices moved more than 50% for");

    expect((await readFile(join(c.outputDir, "google-fr.xml"))).equals(diskBefore)).toBe(true);
    const still = await served();
    expect(still.body.equals(before.body)).toBe(true);
    expect(still.headers["etag"]).toBe(before.headers["etag"]);

    const monitor = await text("/monitor");
    expect(monitor.status).toBe(503);
    expect(monitor.body).toContain("prices moved more than 50% for");
    const page = await text("/?lang=en", AUTH);
    expect(page.body).toContain("prices moved more than 50 % for");

    const forced = await generate("--force");
    expect(forced.code, forced.stderr).toBe(0);
    const entry = await entryOf();
    expect(entry.published).toBe(true);
    const now = await served();
    expect(now.body.equals(before.body)).toBe(false);
    expect(sha256(now.body)).toBe(entry.live!.sha256);
    expect((await text("/monitor")).status).toBe(200);
  });
});

describe("a lost manifest.json", () => {
  const manifestFile = () => join(c.outputDir, "manifest.json");
  /** manifest.json cut short, as by a hand edit: not JSON any more. */
  const truncateManifest = async () => writeFile(manifestFile(), (await readFile(manifestFile())).subarray(0, 200));
  const warned = /warn {2}manifest\.json is missing or unreadable; read the newest readable copy in history\/ instead from=history\/manifest-\S+\.json/;

  it("rollback and --release read the newest copy in history/ as serve does, say which, and a released pin stays released", async () => {
    await truncateManifest();
    const back = await rollback();
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toMatch(warned);
    expect((await entryOf()).live).toMatchObject({ sha256: heldSha, pinned: { command: `pharmafeed rollback --channel ${CHANNEL}` } });
    expect(sha256((await served()).body)).toBe(heldSha);

    await truncateManifest();
    const released = await rollback("--release");
    expect(released.code, released.stderr).toBe(0);
    expect(released.stderr).toMatch(warned);
    expect(released.stdout).toContain(`released: ${CHANNEL} (pinned since`);
    expect((await entryOf()).live).not.toHaveProperty("pinned");

    // Lost again: the newest copy in history/ is the release's, not the rollback's, so the pin does not come back.
    const copies = (await readdir(join(c.outputDir, "history"))).filter((f) => /^manifest-.*\.json$/.test(f)).sort();
    const newest = JSON.parse(await readFile(join(c.outputDir, "history", copies.at(-1)!), "utf8")) as Manifest;
    expect(newest.channels.find((e) => e.name === CHANNEL)!.live).not.toHaveProperty("pinned");
    await rm(manifestFile());
    await offers(1.2);
    const run = await generate();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect((await entryOf()).published).toBe(true);
    expect((await entryOf()).live).not.toHaveProperty("pinned");
  });

  it("an output folder that does not exist, or is a file, has nothing published: said so (exit 2)", async () => {
    for (const [output, why] of [[join(c.root, "nowhere"), "no such folder"], [manifestFile(), "it is not a folder"]] as const) {
      const refused = await cli("rollback", "--channel", CHANNEL, "--output", output);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`pharmafeed: nothing is published in ${output} (${why}): run pharmafeed generate first`);
    }
  });
});
