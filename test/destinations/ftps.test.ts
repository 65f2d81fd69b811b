/**
 * Explicit FTPS (AUTH TLS) against ftp-srv with a certificate made for the test
 * (openssl; skipped with a message where it is missing): the upload goes over TLS
 * when the self-signed certificate is accepted, and is refused when it is not.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pushChannels } from "../../src/destinations/push.js";
import { DestinationConfig } from "../../src/destinations/settings.js";
import { silentLogger } from "../../src/log.js";
import { startFtp, type FtpServer } from "./_ftp-server.js";

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}
const OPENSSL = hasOpenssl();
if (!OPENSSL) console.warn("ftps.test.ts skipped: openssl is not installed (apt-get install openssl) to make the test certificate");

describe.skipIf(!OPENSSL)("explicit FTPS", () => {
  let dir: string;
  let remote: string;
  let server: FtpServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pf-ftps-"));
    remote = await mkdtemp(join(tmpdir(), "pf-ftps-remote-"));
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=127.0.0.1"], { stdio: "pipe" });
    server = await startFtp(remote, { feeds: "ftps-test-password" }, { key: await readFile(join(dir, "key.pem"), "utf8"), cert: await readFile(join(dir, "cert.pem"), "utf8") });
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([dir, remote].map((d) => rm(d, { recursive: true, force: true })));
  });

  async function push(allowSelfSigned: boolean) {
    const body = randomBytes(50_000);
    await writeFile(join(dir, "feed.csv"), body);
    const config = DestinationConfig.parse({ kind: "ftp", name: "idealo", host: "127.0.0.1", port: server.port, user: "feeds", password: "ftps-test-password", secure: true, allowSelfSigned, retries: 0, timeoutMs: 30_000 });
    const file = { local: join(dir, "feed.csv"), name: "feed.csv", bytes: body.length, sha256: createHash("sha256").update(body).digest("hex"), contentType: "text/csv" };
    const result = await pushChannels([{ channel: "idealo-fr", files: [file], destinations: [config], last: [] }], { logger: silentLogger });
    return { body, record: result.records.get("idealo-fr")![0]! };
  }

  it("uploads over TLS when the server's self-signed certificate is accepted", async () => {
    const { body, record } = await push(true);
    expect(record).toMatchObject({ ok: true, uploaded: 1, target: expect.stringMatching(/^ftps:\/\//) });
    expect(await readFile(join(remote, "feed.csv"))).toEqual(body);
  });

  it("refuses a certificate no authority signed by default", async () => {
    const { record } = await push(false);
    expect(record.ok).toBe(false);
    expect(record.reason).toMatch(/certificate/i);
  });
});
