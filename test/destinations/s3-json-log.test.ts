/**
 * A run with an S3 destination keeps a `--log-format json` log JSON: the AWS SDK's
 * Node.js support warning (9 lines of plain text on stderr, once per process, on Node.js
 * 20) is switched off by the driver. The built CLI pushes to a real S3-compatible
 * server (s3rver); every line of stderr must parse, and the object must be there.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { ensureBuilt, killAll, runCli, sandboxEnv } from "../e2e/cli.js";
import { removeTemporaries, writeConfig } from "../e2e/config.js";
import { S3_KEY, startS3, type S3Server } from "./_s3-server.js";

let sandbox: SandboxHandle;
let s3: S3Server;
let s3Dir: string;

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ products: 40, seed: 3, rateLimit: 100_000 });
  s3Dir = await mkdtemp(join(tmpdir(), "pf-s3-json-"));
  s3 = await startS3(s3Dir, "feeds");
});
afterAll(async () => {
  killAll();
  await Promise.all([sandbox?.close(), s3?.close()]);
  await rm(s3Dir, { recursive: true, force: true });
  await removeTemporaries();
});

describe("generate --log-format json with an S3 destination", () => {
  it("writes only JSON lines on stderr, and the feed reaches the bucket", async () => {
    const tree = await writeConfig({
      channels: [
        {
          name: "idealo-fr",
          preset: "idealo",
          locale: "fr",
          link: { template: "https://shop.example/p/{{id}}" },
          gate: { maxRejectedPercent: 100 },
          destinations: [
            { kind: "s3", name: "bucket", endpoint: `http://127.0.0.1:${s3.port}`, region: "us-east-1", bucket: "feeds", forcePathStyle: true, retries: 0, accessKeyId: "${PF_TEST_S3_ID}", secretAccessKey: "${PF_TEST_S3_SECRET}" },
          ],
        },
      ],
    });
    const result = await runCli(["generate", "--config", tree.configFile, "--log-format", "json"], { env: { ...sandboxEnv(sandbox), PF_TEST_S3_ID: S3_KEY.accessKeyId, PF_TEST_S3_SECRET: S3_KEY.secretAccessKey } });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split("\n").filter((l) => l !== "");
    expect(lines.length).toBeGreaterThan(1);
    for (const [i, line] of lines.entries()) expect(() => JSON.parse(line) as unknown, `stderr line ${i + 1} is not JSON: ${line}`).not.toThrow();
    expect(result.stderr).not.toContain("NodeVersionSupportWarning");
    expect((await readdir(join(s3Dir, "feeds"))).length).toBeGreaterThan(0);
  });
});
