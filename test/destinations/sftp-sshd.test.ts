/**
 * SFTP against OpenSSH's own sshd (Debian's openssh-server, on a free port with its
 * own config; skipped with the printed reason where it cannot be installed): the mode
 * an upload gets (0644, or the configured one; never 0666), a missing hostKey said
 * once, and a push killed with SIGKILL in the middle of an upload: its temporary is
 * on the server, listed in output/.destinations-temporaries.json, and the next push
 * removes it: nothing of ours but the target is left.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { watch } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PushJob, pushChannels } from "../../src/destinations/push.js";
import { DestinationConfig } from "../../src/destinations/settings.js";
import { createLogger, silentLogger } from "../../src/log.js";
import { type Sshd, sshdBinary, startSshd } from "./_openssh-sshd.js";
import { LEDGER_FILE } from "../../src/core/layout.js";

const binary = sshdBinary();
if ("reason" in binary) console.log(`sftp-sshd.test.ts skipped: ${binary.reason}`);

describe.skipIf("reason" in binary)("sftp on OpenSSH's sshd: modes, the host key warning, a killed push's temporary", () => {
  let sshd: Sshd;
  let work: string;
  beforeAll(async () => {
    sshd = await startSshd((binary as { path: string }).path);
    work = await mkdtemp(join(tmpdir(), "pf-sshd-work-"));
  });
  afterAll(async () => {
    await sshd?.close();
    await rm(work, { recursive: true, force: true });
  });

  /** A fresh remote directory, local output directory and a job of one file of `bytes` random bytes. */
  async function setup(bytes: number, settings: Record<string, unknown> = {}) {
    const remote = await mkdtemp(join(work, "remote-"));
    const output = await mkdtemp(join(work, "output-"));
    const body = randomBytes(bytes);
    await writeFile(join(output, "feed.xml"), body);
    const destination = { kind: "sftp", name: "sshd", host: "127.0.0.1", port: sshd.port, user: sshd.user, privateKey: sshd.privateKey, hostKey: sshd.hostKeyFingerprint, dir: remote, retries: 0, ...settings };
    const job = (raw = false): PushJob => ({
      channel: "google-fr",
      files: [{ local: join(output, "feed.xml"), name: "feed.xml", bytes, sha256: createHash("sha256").update(body).digest("hex"), contentType: "application/xml" }],
      destinations: [raw ? (destination as never) : DestinationConfig.parse(destination)],
      last: [],
    });
    return { remote, output, body, job };
  }

  it("uploads with mode 0644 by default and the configured mode otherwise, never 0666", async () => {
    for (const [settings, expected] of [[{}, 0o644], [{ mode: "0600" }, 0o600]] as const) {
      const { remote, output, body, job } = await setup(100_000, settings);
      const { problems } = await pushChannels([job()], { logger: silentLogger, outputDir: output });
      expect(problems).toEqual([]);
      expect(await readFile(join(remote, "feed.xml"))).toEqual(body);
      expect((await stat(join(remote, "feed.xml"))).mode & 0o777).toBe(expected);
    }
  });

  it("without hostKey: says once that any host key is accepted, and how to set one", async () => {
    const { output, job } = await setup(1_000, { hostKey: undefined });
    const lines: string[] = [];
    const logger = createLogger({ write: (line) => void lines.push(line) });
    const two = { ...job(), channel: "google-nl" };
    await pushChannels([job(), two], { logger, outputDir: output });
    const warnings = lines.filter((l) => l.includes("no hostKey set"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("ssh-keygen -lf");
  });

  it("a push killed with SIGKILL mid-upload leaves its temporary listed; the next push removes it and puts the file", async () => {
    const { remote, output, body, job } = await setup(256 * 2 ** 20);
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("_push-child.ts", import.meta.url)), JSON.stringify({ jobs: [job(true)], outputDir: output })], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    // Killed once its temporary is on the server with bytes in it.
    await new Promise<void>((resolve) => {
      const watcher = watch(remote, () => {
        void readdir(remote).then(async (names) => {
          const temporary = names.find((n) => n.startsWith(".feed.xml.upload-"));
          if (temporary && (await stat(join(remote, temporary)).catch(() => undefined))?.size) {
            watcher.close();
            resolve();
          }
        });
      });
    });
    child.kill("SIGKILL");
    await exited;
    const left = (await readdir(remote)).filter((n) => n.startsWith(".feed.xml.upload-"));
    expect(left).toHaveLength(1);
    const ledger = JSON.parse(await readFile(join(output, LEDGER_FILE), "utf8")) as Record<string, string[]>;
    expect(Object.values(ledger).flat()).toEqual([join(remote, left[0]!)]);

    const { problems } = await pushChannels([job()], { logger: silentLogger, outputDir: output });
    expect(problems).toEqual([]);
    expect(await readdir(remote)).toEqual(["feed.xml"]);
    expect((await readFile(join(remote, "feed.xml"))).equals(body)).toBe(true);
    expect(JSON.parse(await readFile(join(output, LEDGER_FILE), "utf8"))).toEqual({});
  });
});
