/**
 * A feed larger than a part goes to S3-compatible storage as a multipart upload
 * (@aws-sdk/lib-storage) and arrives whole: the stored bytes, and an ETag of the
 * parts' MD5s that push.ts checks against the local file.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { pushChannels } from "../../src/destinations/push.js";
import { type Remote, startRemote } from "./_harness.js";

describe("s3 multipart", () => {
  let remote: Remote;
  let local: string;
  beforeAll(async () => {
    remote = await startRemote("s3rver");
    local = await mkdtemp(join(tmpdir(), "pf-dest-mp-"));
  });
  afterAll(async () => {
    await remote?.close();
    await rm(local, { recursive: true, force: true });
  });

  it("puts a 12 MB feed in 5 MB parts, whole", async () => {
    const body = randomBytes(12 * 2 ** 20 + 123);
    await writeFile(join(local, "big.xml"), body);
    const logger = createLogger({ format: "json", write: () => undefined });
    const files = [{ local: join(local, "big.xml"), name: "big.xml", bytes: body.length, sha256: createHash("sha256").update(body).digest("hex"), contentType: "application/xml" }];
    const result = await pushChannels([{ channel: "google", files, destinations: [remote.config({ partSizeMb: 5 })], last: [] }], { logger });
    expect(result.problems).toEqual([]);
    expect(result.records.get("google")![0]).toMatchObject({ ok: true, uploaded: 1 });
    expect((await remote.read("big.xml"))?.equals(body)).toBe(true);
  });
});
