/**
 * Destinations of many shops (docs/shops.md, "Destinations"): a destination several shops inherit
 * must put each shop's feeds in its own folder (`{shop}`), or the config is refused before any
 * work. A review found three shops uploading csv-fr.csv to one FTP folder: the last upload won,
 * and every shop's manifest said its own file was there.
 */
import { mkdir, mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseCsv } from "csv-parse/sync";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { loadShops } from "../../src/config/load.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { removeTemporaries, TEST_CERTIFICATIONS } from "../e2e/config.js";
import { writeTree } from "../config/tree.js";
import { startFtp, type FtpServer } from "../destinations/_ftp-server.js";

let sandbox: SandboxHandle;
let ftp: FtpServer;
let remote: string;

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ seed: 41, products: 40, rateLimit: 100_000 });
  remote = await mkdtemp(join(tmpdir(), "pharmafeed-shops-ftp-"));
  ftp = await startFtp(remote, { feeds: "ftp-secret" });
});

afterAll(async () => {
  killAll();
  await ftp.close();
  await sandbox.close();
  await rm(remote, { recursive: true, force: true });
  await removeTemporaries();
});

const SOURCE = { baseUrl: "https://api.catalogue.invalid", keyId: "${CATALOGUE_API_KEY_ID}", keySecret: "${CATALOGUE_API_KEY_SECRET}", contact: "feeds@agency.example" };
const CSV = { name: "csv-fr", preset: "generic-csv", locale: "fr", link: { template: "{{{shopUrl}}}/p/{{id}}.html" }, gate: { maxRejectedPercent: 100 } };
const ftpDestination = (dir: string) => ({ kind: "ftp", name: "agency-ftp", host: "127.0.0.1", port: ftp.port, user: "feeds", password: "${FTP_PASSWORD}", dir, retries: 0 });
const shopFile = (name: string, extra: Record<string, unknown> = {}) => ({ shop: { name, url: `https://${name}.example`, certifications: TEST_CERTIFICATIONS }, ...extra });

/** A main file of shops alpha, beta and gamma sharing channels/csv-fr.json; `main` and `shops` add to the files. */
async function writeShops(main: Record<string, unknown>, shops: Record<string, Record<string, unknown>> = {}, channel: Record<string, unknown> = {}) {
  const root = await writeTree({
    "config/pharmafeed.json": { source: SOURCE, output: { dir: "../out" }, shop: { name: "unused", url: "https://agency.example" }, channels: ["channels/csv-fr.json"], shops: "shops", ...main },
    "config/channels/csv-fr.json": { ...CSV, ...channel },
    ...Object.fromEntries(["alpha", "beta", "gamma"].map((name) => [`config/shops/${name}.json`, shopFile(name, shops[name])])),
  });
  return { root, configFile: join(root, "config", "pharmafeed.json"), out: join(root, "out") };
}

const ENV = { CATALOGUE_API_KEY_ID: "id", CATALOGUE_API_KEY_SECRET: "secret", FTP_PASSWORD: "ftp-secret" };

async function refusal(configFile: string): Promise<string> {
  const error = await loadShops(configFile, { env: ENV }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(error, "the config was accepted").toBeDefined();
  return error!.message;
}

describe("a destination the shops share", () => {
  it("the main file's, without {shop}: generate refuses before any work, naming the field and the shops", async () => {
    const { configFile, out } = await writeShops({ destinations: [ftpDestination("feeds")] });
    const run = await runCli(["generate", "--config", configFile], { env: { ...sandboxEnv(sandbox), FTP_PASSWORD: "ftp-secret" } });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`${configFile}: destinations[0].dir: shops alpha, beta, gamma would all upload their feeds to this one folder, each replacing the last one's files: put {shop} in it ("dir": "feeds/{shop}"), or give each shop its own destinations`);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(remote, "feeds"))).toBe(false);
    // validate says the same.
    const validate = await runCli(["validate", "--config", configFile, "--no-credentials"], { env: ENV });
    expect(validate.code).toBe(3);
    expect(validate.stderr).toContain("destinations[0].dir: shops alpha, beta, gamma would all upload");
  });

  it("with {shop} in its folder, each shop's feed lands in its own folder, with its own links, as its manifest says", async () => {
    const { configFile, out } = await writeShops({ destinations: [ftpDestination("shops/{shop}")] });
    // Each shop's folder exists on the server, as for any destination's folder (docs/shops.md).
    for (const shop of ["alpha", "beta", "gamma"]) await mkdir(join(remote, "shops", shop), { recursive: true });
    const run = await runCli(["generate", "--config", configFile], { env: { ...sandboxEnv(sandbox), FTP_PASSWORD: "ftp-secret" } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect((await readdir(join(remote, "shops"))).sort()).toEqual(["alpha", "beta", "gamma"]);
    for (const shop of ["alpha", "beta", "gamma"]) {
      const uploaded = await readFile(join(remote, "shops", shop, "csv-fr.csv"));
      expect(uploaded.equals(await readFile(join(out, shop, "csv-fr.csv"))), shop).toBe(true);
      const rows = parseCsv(uploaded, { columns: true, bom: true }) as Record<string, string>[];
      expect(rows.length).toBeGreaterThan(0);
      const links = rows.map((r) => Object.values(r).find((v) => v.startsWith("https://"))!);
      expect(links.every((l) => l.startsWith(`https://${shop}.example/p/`)), shop).toBe(true);
      // Its manifest names its own folder as where its feed went.
      const manifest = JSON.parse(await readFile(join(out, shop, "manifest.json"), "utf8")) as { channels: { destinations?: { target: string; ok: boolean }[] }[] };
      expect(manifest.channels[0]!.destinations).toEqual([expect.objectContaining({ ok: true, target: expect.stringMatching(new RegExp(`/shops/${shop}$`)) })]);
    }
  });

  it("a channel file's own destinations, listed by several shops, are refused in that file", async () => {
    const { configFile, root } = await writeShops({}, {}, { destinations: [ftpDestination("feeds")] });
    expect(await refusal(configFile)).toContain(`${join(root, "config", "channels", "csv-fr.json")}: destinations[0].dir: shops alpha, beta, gamma would all upload`);
  });

  it("is fine when one shop only inherits it: the others have destinations of their own", async () => {
    const own = (dir: string) => ({ destinations: [ftpDestination(dir)] });
    const { configFile } = await writeShops({ destinations: [ftpDestination("feeds")] }, { beta: own("beta"), gamma: own("gamma") });
    const loaded = await loadShops(configFile, { env: ENV });
    expect(loaded.shops.map((s) => s.channels[0]!.destinations.map((d) => (d as { dir: string }).dir))).toEqual([["feeds"], ["beta"], ["gamma"]]);
  });

  it("{shop} in a config of one shop is refused (it has no shop name to give)", async () => {
    const root = await writeTree({
      "config/pharmafeed.json": { source: SOURCE, output: { dir: "../out" }, shop: { name: "One", url: "https://one.example" }, channels: ["csv-fr.json"], destinations: [ftpDestination("feeds/{shop}")] },
      "config/csv-fr.json": CSV,
    });
    expect(await refusal(join(root, "config", "pharmafeed.json"))).toMatch(/pharmafeed\.json: destinations\[0\]\.dir: \{shop\} is a shop's name in a config of shops \(docs\/shops\.md\); this config is one shop/);
  });
});
