/**
 * The FTP driver where the server is particular about renames (ftp-srv with a
 * file system that answers RNTO with 550): one that will not rename over an
 * existing file, as IIS does, still gets the new file in place and nothing left
 * beside it; one that refuses renames keeps the previous file (the upload fails
 * as refused, its temporary removed), and `"atomic": false` writes the target
 * directly there.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pushChannels } from "../../src/destinations/push.js";
import { DestinationConfig } from "../../src/destinations/settings.js";
import { createLogger } from "../../src/log.js";
import { startFtp, type FtpServer } from "./_ftp-server.js";

const PASSWORD = "ftp-test-password";

describe("ftp: servers particular about renames", () => {
  let server: FtpServer;
  let root: string;
  let local: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "pf-dest-ftp-rn-"));
    local = await mkdtemp(join(tmpdir(), "pf-dest-ftp-local-"));
    server = await startFtp(root, { feeds: PASSWORD });
  });
  afterAll(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
    await rm(local, { recursive: true, force: true });
  });
  afterEach(() => {
    delete server.faults.renames;
  });

  async function push(name: string, bytes: Buffer, overrides: Record<string, unknown> = {}) {
    await writeFile(join(local, name), bytes);
    const config = DestinationConfig.parse({ kind: "ftp", name: "remote", host: "127.0.0.1", port: server.port, user: "feeds", password: PASSWORD, retries: 0, ...overrides });
    const files = [{ local: join(local, name), name, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), contentType: "application/xml" }];
    const result = await pushChannels([{ channel: "idealo", files, destinations: [config], last: [] }], { logger: createLogger({ format: "json", write: () => undefined }) });
    return result.records.get("idealo")![0]!;
  }

  it("no rename over an existing file (IIS): the new file takes its place, nothing is left beside it", async () => {
    await writeFile(join(root, "i.xml"), randomBytes(1_000));
    server.faults.renames = "not-over-existing";
    const after = randomBytes(2_000);
    expect(await push("i.xml", after)).toMatchObject({ ok: true, uploaded: 1 });
    expect(await readFile(join(root, "i.xml"))).toEqual(after);
    expect((await readdir(root)).filter((n) => n.startsWith(".i.xml"))).toEqual([]);
  });

  it("renames refused: the upload fails as refused and the previous file stays, no temporary left; atomic false writes it directly", async () => {
    const before = randomBytes(1_000);
    await writeFile(join(root, "r.xml"), before);
    server.faults.renames = "refused";
    expect(await push("r.xml", randomBytes(2_000))).toMatchObject({ ok: false, code: "refused", files: [] });
    expect(await readFile(join(root, "r.xml"))).toEqual(before);
    expect((await readdir(root)).filter((n) => n.startsWith(".r.xml"))).toEqual([]);
    const after = randomBytes(3_000);
    expect(await push("r.xml", after, { atomic: false })).toMatchObject({ ok: true, uploaded: 1 });
    expect(await readFile(join(root, "r.xml"))).toEqual(after);
  });
});
