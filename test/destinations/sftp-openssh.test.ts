/**
 * SFTP against OpenSSH's own sftp-server (Debian's openssh-sftp-server, installed
 * by the harness where apt-get can; skipped with the reason where it cannot),
 * which offers posix-rename@openssh.com: the conformance suite, then the POSIX
 * road itself. The server's log shows the target replaced by posix-rename with no
 * REMOVE before it, and a reader opening the target in a loop on another thread
 * while it is replaced 20 times never finds it missing, nor any bytes but
 * one complete version. The same reader against the ssh2 test server (no
 * extension: the old file is renamed aside, then the new one into place) does find it
 * missing, which shows the reader can see that window. Then what a server may
 * refuse: renames (sftp-server -P): the atomic upload fails with the previous
 * file in place and no temporary left, and `"atomic": false` writes the target
 * directly; a host key other than the configured one: refused as an auth
 * failure, not retried, nothing sent. And a private key (with a passphrase)
 * instead of a password: accepted; another key refused, no key text anywhere.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import ssh2 from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLedger } from "../../src/destinations/_ledger.js";
import { createDriver } from "../../src/destinations/registry.js";
import type { DestinationConfig, SftpDestination } from "../../src/destinations/settings.js";
import { DestinationConfig as Schema } from "../../src/destinations/settings.js";
import type { UploadItem } from "../../src/destinations/types.js";
import { pushChannels } from "../../src/destinations/push.js";
import { createLogger } from "../../src/log.js";
import { conformance } from "./_conformance.js";
import { SECRET, unavailable } from "./_harness.js";
import { type OpensshOptions, sftpServerBinary, startOpensshSftp } from "./_openssh-sftp-server.js";
import { startSftp } from "./_sftp-server.js";

const { utils } = ssh2;

conformance("openssh");

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** Reads `path` whole in a loop on its own thread until told to stop: how often it was absent, or not one of the known versions. */
const READER = `
const { workerData, parentPort } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const { createHash } = require("node:crypto");
const stop = new Int32Array(workerData.stop);
const known = new Set(workerData.hashes);
let reads = 0, absent = 0, unknown = 0;
parentPort.postMessage("reading");
while (Atomics.load(stop, 0) === 0) {
  try {
    const bytes = readFileSync(workerData.path);
    reads++;
    if (!known.has(createHash("sha256").update(bytes).digest("hex"))) unknown++;
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
    absent++;
  }
}
parentPort.postMessage({ reads, absent, unknown });
`;

interface Reading {
  reads: number;
  absent: number;
  unknown: number;
}

/** Puts two versions of `name` in turn `times` times through the driver, while a reader reads the target in `root`. */
async function replaceWhileReading(config: DestinationConfig, root: string, local: string, name: string, times: number): Promise<Reading> {
  // Small, so that one read is a few microseconds: the reader samples the target densely.
  const versions = [randomBytes(2_000), randomBytes(3_000)];
  const items: UploadItem[] = [];
  for (const [i, bytes] of versions.entries()) {
    const file = join(local, `${name}.${i}`);
    await writeFile(file, bytes);
    items.push({ local: file, name, bytes: bytes.length, sha256: sha(bytes), contentType: "application/xml" });
  }
  const driver = await createDriver(config, { ledger: memoryLedger(), names: new Set([name]), warn: () => {} });
  try {
    await driver.put(items[0]!);
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const reader = new Worker(READER, { eval: true, workerData: { path: join(root, name), hashes: items.map((i) => i.sha256), stop: stop.buffer } });
    const messages: unknown[] = [];
    let heard: () => void = () => {};
    reader.on("message", (m) => {
      messages.push(m);
      heard();
    });
    const next = () => new Promise<void>((resolve) => (heard = resolve));
    await next();
    for (let i = 1; i <= times; i++) await driver.put(items[i % 2]!);
    const done = next();
    Atomics.store(stop, 0, 1);
    await done;
    await reader.terminate();
    return messages[1] as Reading;
  } finally {
    await driver.close();
  }
}

const missing = unavailable("openssh");

describe.skipIf(missing !== undefined)("sftp on OpenSSH's sftp-server: posix-rename, refused renames, host keys, private keys", () => {
  let local: string;
  beforeAll(async () => {
    local = await mkdtemp(join(tmpdir(), "pf-dest-posix-"));
  });
  afterAll(async () => {
    await rm(local, { recursive: true, force: true });
  });

  async function withServer<T>(
    kind: "openssh" | "ssh2",
    work: (config: SftpDestination, root: string, log: string[], hostKey: string) => Promise<T>,
    options: OpensshOptions = {},
  ): Promise<T> {
    const root = await mkdtemp(join(tmpdir(), `pf-dest-${kind}-`));
    const server = kind === "openssh" ? await startOpensshSftp((sftpServerBinary() as { path: string }).path, root, { feeds: SECRET }, options) : await startSftp(root, { feeds: SECRET });
    try {
      const config = Schema.parse({ kind: "sftp", name: "remote", host: "127.0.0.1", port: server.port, user: "feeds", password: SECRET, retries: 0, retryDelayMs: 0 }) as SftpDestination;
      return await work(config, root, "log" in server ? server.log : [], server.hostKeyFingerprint);
    } finally {
      await server.close();
      await rm(root, { recursive: true, force: true });
    }
  }

  it("replaces an existing target with posix-rename@openssh.com, never removing it first (sftp-server's own log)", async () => {
    await withServer("openssh", async (config, root, log) => {
      const reading = await replaceWhileReading(config, root, local, "p.xml", 3);
      expect(reading.absent).toBe(0);
      const lines = log.map((l) => l.trim());
      const renames = lines.filter((l) => l.startsWith("posix-rename old "));
      expect(renames).toHaveLength(4);
      for (const line of renames) expect(line).toMatch(/^posix-rename old "\.p\.xml\.upload-\d+-[0-9a-z]+" new "p\.xml"$/);
      expect(lines.filter((l) => l.startsWith("remove ") || l.startsWith("rename "))).toEqual([]);
    });
  });

  it("a reader opening the target while it is replaced 20 times never finds it missing, nor partial", async () => {
    const reading = await withServer("openssh", (config, root) => replaceWhileReading(config, root, local, "q.xml", 20));
    expect(reading.reads).toBeGreaterThan(0);
    expect(reading).toMatchObject({ absent: 0, unknown: 0 });
  });

  it("the same reader does find it missing on a server without the extension (old file aside, then rename): it can see that window", async () => {
    const reading = await withServer("ssh2", (config, root) => replaceWhileReading(config, root, local, "r.xml", 20));
    expect(reading.reads).toBeGreaterThan(0);
    expect(reading.unknown).toBe(0);
    expect(reading.absent).toBeGreaterThan(0);
  });

  /** Pushes `bytes` as `name` from the local folder with `config`; the record and the log lines. */
  async function push(config: DestinationConfig, name: string, bytes: Buffer) {
    await writeFile(join(local, name), bytes);
    const lines: { msg: string }[] = [];
    const logger = createLogger({ format: "json", write: (line) => void lines.push(JSON.parse(line) as { msg: string }) });
    const files = [{ local: join(local, name), name, bytes: bytes.length, sha256: sha(bytes), contentType: "application/xml" }];
    const result = await pushChannels([{ channel: "google", files, destinations: [config], last: [] }], { logger });
    return { record: result.records.get("google")![0]!, problems: result.problems, lines };
  }

  it("a server that refuses renames: the atomic upload fails and leaves the previous file and no temporary; atomic false writes the target directly", async () => {
    await withServer(
      "openssh",
      async (config, root, log) => {
        const before = randomBytes(10_000);
        await writeFile(join(root, "s.xml"), before);
        const { record } = await push(config, "s.xml", randomBytes(12_000));
        expect(record).toMatchObject({ ok: false, code: "refused", files: [] });
        expect(await readFile(join(root, "s.xml"))).toEqual(before);
        expect(await readdir(root)).toEqual(["s.xml"]);
        // sftp-server's log: renames refused, and the previous file never removed.
        const lines = log.map((l) => l.trim());
        expect(lines).toContain("sent status Permission denied");
        expect(lines.filter((l) => l.startsWith('remove name "s.xml"'))).toEqual([]);
        const after = randomBytes(12_000);
        const direct = await push({ ...config, atomic: false }, "s.xml", after);
        expect(direct.record).toMatchObject({ ok: true, uploaded: 1 });
        expect(await readFile(join(root, "s.xml"))).toEqual(after);
        expect(await readdir(root)).toEqual(["s.xml"]);
      },
      { denied: ["rename", "posix-rename"] },
    );
  });

  it("a host key other than the configured one: an auth failure, not retried, nothing sent; the right one is accepted", async () => {
    await withServer("openssh", async (config, root, log, hostKey) => {
      const other = `SHA256:${createHash("sha256").update("another host").digest("base64").replace(/=+$/, "")}`;
      const refused = await push({ ...config, hostKey: other, retries: 2 }, "h.xml", randomBytes(5_000));
      expect(refused.record).toMatchObject({ ok: false, code: "auth", files: [] });
      expect(refused.problems).toEqual([expect.objectContaining({ code: "DESTINATION_AUTH", channel: "google" })]);
      expect(refused.lines.filter((l) => l.msg === "upload failed, retrying")).toEqual([]);
      expect(log.filter((l) => l.startsWith("session opened"))).toEqual([]);
      expect(await readdir(root)).toEqual([]);
      const accepted = await push({ ...config, hostKey }, "h.xml", randomBytes(5_000));
      expect(accepted.record).toMatchObject({ ok: true, uploaded: 1 });
    });
  });

  it("a private key with a passphrase instead of a password logs in; another key is DESTINATION_AUTH, not retried, and no key text shows", async () => {
    const passphrase = `${SECRET}-passphrase`;
    const key = utils.generateKeyPairSync("ed25519", { passphrase, cipher: "aes256-ctr", rounds: 4 });
    const other = utils.generateKeyPairSync("ed25519");
    await withServer(
      "openssh",
      async (base, root) => {
        const { password: _, ...config } = base;
        const bytes = randomBytes(5_000);
        const ok = await push({ ...config, privateKey: key.private, passphrase }, "k.xml", bytes);
        expect(ok.record).toMatchObject({ ok: true, uploaded: 1 });
        expect(await readFile(join(root, "k.xml"))).toEqual(bytes);
        const refused = await push({ ...config, privateKey: other.private, retries: 2 }, "k.xml", randomBytes(5_000));
        expect(refused.record).toMatchObject({ ok: false, code: "auth", files: [] });
        expect(refused.lines.filter((l) => l.msg === "upload failed, retrying")).toEqual([]);
        expect(await readFile(join(root, "k.xml"))).toEqual(bytes);
        const shown = JSON.stringify({ ok, refused });
        for (const secret of [passphrase, key.private, other.private, "PRIVATE KEY"]) expect(shown).not.toContain(secret);
      },
      { publicKeys: { feeds: key.public } },
    );
  });
});
