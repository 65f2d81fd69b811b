/**
 * S3 against moto, which keeps an object as S3 does (see _moto-server.ts): the
 * conformance suite, where a PUT cut midway leaves the previous object on the
 * server and a full disk (moto's objects on a full tmpfs) fails the PUT and keeps
 * it; then a multipart upload cut after two of its three parts were stored: the
 * previous object stays, the unfinished upload is aborted (no parts left behind),
 * and the next push sends it whole. Skipped with the reason where moto is missing.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListMultipartUploadsCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pushChannels } from "../../src/destinations/push.js";
import { createLogger } from "../../src/log.js";
import { conformance } from "./_conformance.js";
import { type Remote, startRemote, unavailable } from "./_harness.js";

conformance("moto");

describe.skipIf(unavailable("moto") !== undefined)("s3 on moto: a multipart upload cut midway", () => {
  let remote: Remote;
  let local: string;
  beforeAll(async () => {
    remote = await startRemote("moto");
    local = await mkdtemp(join(tmpdir(), "pf-dest-moto-mp-"));
  });
  afterAll(async () => {
    await remote?.close();
    await rm(local, { recursive: true, force: true });
  });

  it("keeps the previous object and leaves no parts; the next push sends the new one whole", async () => {
    const logger = createLogger({ format: "json", write: () => undefined });
    const MB = 2 ** 20;
    const config = remote.config({ partSizeMb: 5 });
    const push = async (body: Buffer, last: Parameters<typeof pushChannels>[0][number]["last"] = []) => {
      await writeFile(join(local, "big.xml"), body);
      const files = [{ local: join(local, "big.xml"), name: "big.xml", bytes: body.length, sha256: createHash("sha256").update(body).digest("hex"), contentType: "application/xml" }];
      const result = await pushChannels([{ channel: "google", files, destinations: [config], last }], { logger });
      return result.records.get("google")![0]!;
    };
    const before = randomBytes(12 * MB + 5);
    const first = await push(before);
    expect(first).toMatchObject({ ok: true, uploaded: 1 });
    // moto's server closes each connection after one answer: the push's requests are one connection each,
    // in this order: the list of stale multipart uploads (s3.ts), initiate, parts 1 and 2 side by side,
    // part 3 (once one of them is done), complete. The first four go whole; part 3's connection is cut
    // 1 MB in, the parts 1 and 2 stored on the server.
    remote.proxy.spare = 4;
    remote.cutAfter(MB);
    const after = randomBytes(12 * MB + 7);
    const cut = await push(after, [first]);
    expect(cut).toMatchObject({ ok: false, code: "network", files: [] });
    expect(remote.proxy.cuts).toBe(1);
    expect((await remote.read("big.xml"))?.equals(before)).toBe(true);
    const s3 = new S3Client({ region: "us-east-1", endpoint: (config as { endpoint: string }).endpoint, forcePathStyle: true, credentials: { accessKeyId: "x", secretAccessKey: "y" } });
    const open = await s3.send(new ListMultipartUploadsCommand({ Bucket: "feeds" }));
    s3.destroy();
    expect(open.Uploads ?? []).toEqual([]);
    remote.cutAfter(undefined);
    const again = await push(after, [cut]);
    expect(again).toMatchObject({ ok: true, uploaded: 1 });
    expect((await remote.read("big.xml"))?.equals(after)).toBe(true);
  });
});
