/**
 * A push killed with SIGKILL in the middle of an upload, then a clean push: nothing of
 * ours is left on the server. FTP (ftp-srv): the killed push's temporary is on the
 * server and listed in output/.destinations-temporaries.json; the next login removes
 * it. S3 (moto, skipped with the reason where it is not installed): the killed push's
 * multipart upload is open (billed on AWS); the next push aborts it. (SFTP on OpenSSH's
 * sshd: sftp-sshd.test.ts.)
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { watch } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HeadObjectCommand, ListMultipartUploadsCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PushJob, pushChannels } from "../../src/destinations/push.js";
import { DestinationConfig } from "../../src/destinations/settings.js";
import { silentLogger } from "../../src/log.js";
import { startFtp } from "./_ftp-server.js";
import { MOTO_KEY, motoCommand, startMoto } from "./_moto-server.js";
import { LEDGER_FILE } from "../../src/core/layout.js";

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "pf-dest-killed-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** An output directory with one feed of `bytes` random bytes, and the push job sending it to `destination`. */
async function feed(bytes: number, destination: Record<string, unknown>) {
  const output = await mkdtemp(join(work, "output-"));
  const body = randomBytes(bytes);
  await writeFile(join(output, "feed.xml"), body);
  const job: PushJob = {
    channel: "google-fr",
    files: [{ local: join(output, "feed.xml"), name: "feed.xml", bytes, sha256: createHash("sha256").update(body).digest("hex"), contentType: "application/xml" }],
    destinations: [destination as never],
    last: [],
  };
  const parsed = (): PushJob => ({ ...job, destinations: [DestinationConfig.parse(destination)] });
  return { output, body, job, parsed };
}

/** The push in a child process; resolves with a function that kills it with SIGKILL and waits for its end. */
function pushInChild(job: PushJob, output: string) {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("_push-child.ts", import.meta.url)), JSON.stringify({ jobs: [job], outputDir: output })], { stdio: ["ignore", "ignore", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return async () => {
    child.kill("SIGKILL");
    await exited;
  };
}

describe("a push killed with SIGKILL, then a clean push", () => {
  it("FTP: the temporary left by the killed push is removed by the next one", async () => {
    const root = await mkdtemp(join(work, "ftp-"));
    const server = await startFtp(root, { feeds: "ftp-password" });
    try {
      const { output, body, job, parsed } = await feed(128 * 2 ** 20, { kind: "ftp", name: "ftp", host: "127.0.0.1", port: server.port, user: "feeds", password: "ftp-password", retries: 0 });
      const kill = pushInChild(job, output);
      // Killed once its temporary is on the server with bytes in it.
      await new Promise<void>((resolve) => {
        const watcher = watch(root, () => {
          void readdir(root).then(async (names) => {
            const temporary = names.find((n) => n.startsWith(".feed.xml.upload-"));
            if (temporary && (await stat(join(root, temporary)).catch(() => undefined))?.size) {
              watcher.close();
              resolve();
            }
          });
        });
      });
      await kill();
      expect((await readdir(root)).filter((n) => n.startsWith(".feed.xml.upload-"))).toHaveLength(1);
      const { problems } = await pushChannels([parsed()], { logger: silentLogger, outputDir: output });
      expect(problems).toEqual([]);
      expect(await readdir(root)).toEqual(["feed.xml"]);
      expect((await readFile(join(root, "feed.xml"))).equals(body)).toBe(true);
      expect(JSON.parse(await readFile(join(output, LEDGER_FILE), "utf8"))).toEqual({});
    } finally {
      await server.close();
    }
  });

  const moto = motoCommand();
  if ("reason" in moto) console.log(`killed-push.test.ts: the S3 case is skipped: ${moto.reason}`);

  it.skipIf("reason" in moto)("S3: the multipart upload left open by the killed push is aborted by the next one", async () => {
    const server = await startMoto((moto as { command: string[] }).command, await mkdtemp(join(work, "moto-")), "feeds");
    const client = new S3Client({ region: "us-east-1", endpoint: `http://127.0.0.1:${server.port}`, forcePathStyle: true, credentials: { ...MOTO_KEY } });
    try {
      const destination = { kind: "s3", name: "s3", endpoint: `http://127.0.0.1:${server.port}`, bucket: "feeds", prefix: "feeds/", forcePathStyle: true, partSizeMb: 5, retries: 0, ...MOTO_KEY };
      const { output, job, parsed, body } = await feed(96 * 2 ** 20, destination);
      const open = async () => (await client.send(new ListMultipartUploadsCommand({ Bucket: "feeds", Prefix: "feeds/" }))).Uploads ?? [];
      const kill = pushInChild(job, output);
      // Each answer is awaited before the next question: no timer, the loop ends when the upload is open.
      while ((await open()).length === 0);
      await kill();
      expect((await open()).map((u) => u.Key)).toEqual(["feeds/feed.xml"]);
      const { problems } = await pushChannels([parsed()], { logger: silentLogger, outputDir: output });
      expect(problems).toEqual([]);
      expect(await open()).toEqual([]);
      expect((await client.send(new HeadObjectCommand({ Bucket: "feeds", Key: "feeds/feed.xml" }))).ContentLength).toBe(body.length);
    } finally {
      client.destroy();
      await server.close();
    }
  });
});
