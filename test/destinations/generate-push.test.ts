/**
 * Destinations through the whole product: a generate run (in process, against
 * the sandbox) pushes each published feed to a real SFTP and FTP server; a
 * refused login makes the run degraded (RUN_DEGRADED, exit 8) with a destination
 * Problem naming the channel, while the local feeds and the other destination
 * stand; /healthz and the status page say each destination's last upload; the
 * built CLI's `push` sends what is missing once the login works; and the secret
 * marker is nowhere: logs, manifest, status page, healthz, alert text.
 */
import { readFile } from "node:fs/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOutcome } from "../../src/commands/generate.js";
import { loadConfig } from "../../src/config/load.js";
import { isPharmafeedError } from "../../src/errors.js";
import { alertText, runAlert } from "../../src/notify/alert.js";
import { runGenerate } from "../../src/pipeline/run.js";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { startServer } from "../../src/serve/server.js";
import { ensureBuilt, killAll, runCli } from "../e2e/cli.js";
import { removeTemporaries, writeConfig, type E2eConfig } from "../e2e/config.js";
import { basic, fetchRaw, memoryLogger } from "../serve/helpers.js";
import { startFtp, type FtpServer } from "./_ftp-server.js";
import { SECRET } from "./_harness.js";
import { startSftp, type SftpServer } from "./_sftp-server.js";

const link = { template: "https://shop.example/p/{{id}}" };
const gate = { maxRejectedPercent: 100, maxDropPercent: 100 };
const NOW = new Date("2026-03-01T02:00:00Z");

let sandbox: SandboxHandle;
let sftp: SftpServer;
let ftp: FtpServer;
let sftpDir: string;
let ftpDir: string;
let tree: E2eConfig;

function env(ftpPassword: string): Record<string, string> {
  return { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret, SFTP_PASSWORD: SECRET, FTP_PASSWORD: ftpPassword, STATUS_PASSWORD: "status-page-password" };
}

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ products: 120, seed: 11, rateLimit: 100_000 });
  sftpDir = await mkdtemp(join(tmpdir(), "pf-dest-sftp-"));
  ftpDir = await mkdtemp(join(tmpdir(), "pf-dest-ftp-"));
  sftp = await startSftp(sftpDir, { feeds: SECRET });
  ftp = await startFtp(ftpDir, { feeds: SECRET });
  const common = { retries: 1, retryDelayMs: 0, timeoutMs: 30_000 };
  tree = await writeConfig({
    channels: [
      { name: "google-fr", preset: "google", locale: "fr", link, gate, gzip: true },
      {
        name: "idealo-fr",
        preset: "idealo",
        locale: "fr",
        link,
        gate,
        destinations: [
          { kind: "sftp", name: "sftp", host: "127.0.0.1", port: sftp.port, user: "feeds", password: "${SFTP_PASSWORD}", hostKey: sftp.hostKeyFingerprint, ...common },
          { kind: "ftp", name: "idealo-ftp", host: "127.0.0.1", port: ftp.port, user: "feeds", password: "${FTP_PASSWORD}", ...common },
        ],
      },
    ],
    main: {
      serve: { status: { user: "manager", password: "${STATUS_PASSWORD}" } },
      destinations: [{ kind: "sftp", name: "sftp", host: "127.0.0.1", port: sftp.port, user: "feeds", password: "${SFTP_PASSWORD}", ...common }],
    },
  });
});
afterAll(async () => {
  killAll();
  await Promise.all([sandbox?.close(), sftp?.close(), ftp?.close()]);
  await Promise.all([sftpDir, ftpDir].map((d) => rm(d, { recursive: true, force: true })));
  await removeTemporaries();
});

describe("destinations after generate, and push", () => {
  it("a refused login degrades the run for its channel only; the rest is pushed whole; no surface shows the secret", async () => {
    const { logger, lines } = memoryLogger();
    const config = await loadConfig(tree.configFile, { env: env(`${SECRET}-old`) });
    const result = await runGenerate({ config, logger, now: NOW });
    const { manifest } = result;
    expect(manifest.channels.every((c) => c.published === true)).toBe(true);
    expect(manifest.status).toBe("degraded");
    expect(manifest.problems).toEqual([expect.objectContaining({ kind: "destination", code: "DESTINATION_AUTH", channel: "idealo-fr" })]);
    let thrown: unknown;
    try {
      runOutcome(result);
    } catch (error) {
      thrown = error;
    }
    expect(isPharmafeedError(thrown, "RUN_DEGRADED")).toBe(true);

    const google = manifest.channels.find((c) => c.name === "google-fr")!;
    const idealo = manifest.channels.find((c) => c.name === "idealo-fr")!;
    expect(google.destinations).toEqual([expect.objectContaining({ name: "sftp", ok: true, uploaded: 2 })]);
    expect(idealo.destinations?.map((d) => [d.name, d.ok, d.code])).toEqual([
      ["sftp", true, undefined],
      ["idealo-ftp", false, "auth"],
    ]);
    // What the destinations hold is what was published, byte for byte.
    const out = config.outputDir;
    expect(await readFile(join(sftpDir, "google-fr.xml"))).toEqual(await readFile(join(out, google.live!.file)));
    expect(await readFile(join(sftpDir, "google-fr.xml.gz"))).toEqual(await readFile(join(out, google.live!.gzip!.file)));
    expect(await readFile(join(sftpDir, idealo.live!.file))).toEqual(await readFile(join(out, idealo.live!.file)));
    expect(await readFile(join(ftpDir, idealo.live!.file)).catch(() => undefined)).toBeUndefined();

    const server = await startServer({
      outputDir: out,
      channels: config.channels.map((c) => ({ name: c.name, preset: c.preset.name, access: c.access, mapping: c.mapping })),
      publicBaseUrl: undefined,
      status: { user: "manager", password: "status-page-password" },
      shopName: config.shop.name,
      host: "127.0.0.1",
      port: 0,
      now: () => new Date(NOW.getTime() + 3_600_000),
    });
    try {
      const healthz = JSON.parse((await fetchRaw(server.url, "/healthz")).body.toString()) as { status: string; destinations: { channel: string; name: string; ok: boolean }[] };
      expect(healthz.status).toBe("degraded");
      expect(healthz.destinations.map((d) => [d.channel, d.name, d.ok])).toEqual([
        ["google-fr", "sftp", true],
        ["idealo-fr", "sftp", true],
        ["idealo-fr", "idealo-ftp", false],
      ]);
      const page = (await fetchRaw(server.url, "/", { Authorization: basic("manager", "status-page-password") })).body.toString();
      expect(page).toContain("idealo-ftp");
      expect(page).toContain("Uploads");
      const alert = alertText(runAlert({ shop: "Shop", manifest, channels: ["google-fr", "idealo-fr"], error: { code: "RUN_DEGRADED", message: "x" }, exitCode: 8 }));
      expect(alert).toContain("upload to idealo-ftp failed");
      for (const surface of [JSON.stringify(healthz), page, alert, JSON.stringify(lines()), await readFile(join(out, "manifest.json"), "utf8")]) expect(surface).not.toContain(SECRET);
    } finally {
      await server.close();
    }
  });

  it("the same files again are not uploaded; push --dry-run says what would go; push sends it and clears the problem", async () => {
    const config = await loadConfig(tree.configFile, { env: env(`${SECRET}-old`) });
    const { manifest } = await runGenerate({ config, logger: memoryLogger().logger, now: NOW });
    const google = manifest.channels.find((c) => c.name === "google-fr")!;
    expect(google.destinations).toEqual([expect.objectContaining({ ok: true, uploaded: 0, unchanged: 2, uploadedBytes: 0 })]);
    expect(manifest.problems?.map((p) => p.channel)).toEqual(["idealo-fr"]);

    // generate --dry-run pushes nothing, and its summary shows no upload: the last run's records are not this run's (a review found them printed).
    const dryRun = await runCli(["generate", "--config", tree.configFile, "--dry-run"], { env: env(SECRET) });
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain("dry run, nothing published");
    expect(dryRun.stdout).not.toMatch(/^upload: /m);

    const dry = await runCli(["push", "--config", tree.configFile, "--dry-run"], { env: env(SECRET) });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("would upload: idealo-fr: idealo-ftp: 1 file");
    expect(dry.stdout).toContain("would upload: google-fr: sftp: nothing (unchanged)");
    const idealoFile = manifest.channels.find((c) => c.name === "idealo-fr")!.live!.file;
    expect(await readFile(join(ftpDir, idealoFile)).catch(() => undefined)).toBeUndefined();

    const failing = await runCli(["push", "--config", tree.configFile, "--channel", "idealo-fr"], { env: env(`${SECRET}-old`) });
    expect(failing.code).toBe(8);
    expect(failing.stderr + failing.stdout).not.toContain(SECRET);

    const push = await runCli(["push", "--config", tree.configFile], { env: env(SECRET) });
    expect(push.code).toBe(0);
    const after = JSON.parse(await readFile(join(config.outputDir, "manifest.json"), "utf8")) as typeof manifest;
    expect(after.status).toBe("ok");
    expect(after.problems).toBeUndefined();
    const idealo = after.channels.find((c) => c.name === "idealo-fr")!;
    expect(idealo.destinations?.map((d) => [d.name, d.ok, d.uploaded, d.unchanged])).toEqual([
      ["sftp", true, 0, 1],
      ["idealo-ftp", true, 1, 0],
    ]);
    expect(await readFile(join(ftpDir, idealo.live!.file))).toEqual(await readFile(join(config.outputDir, idealo.live!.file)));
  });
});
