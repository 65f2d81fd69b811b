/**
 * Benchmark of destinations: the 22 feeds of the generated catalogue (11 presets
 * x fr, nl; google's with a .gz twin) pushed to each local server the tests use
 * (s3rver, an ssh2 SFTP server in process, ftp-srv), on 127.0.0.1: wall time of
 * the first push beside a plain local copy of the same files, then what an
 * unchanged re-run uploads (nothing) and how long it takes to find that out.
 *
 * Then SFTP against OpenSSH's own sshd (test/destinations/_openssh-sshd.ts): our
 * push (--force, temporary name, posix-rename, size check) beside the clients a user
 * would pick on the same files and server, `sftp -b` (OpenSSH's) and `curl -T`
 * (libssh2's, where curl speaks sftp), one after the other in each of --runs runs;
 * medians, their ratios to `sftp -b`, and the push's ratio in each run.
 *
 *   npx tsx bench/destinations.ts [--products 100000] [--runs 5]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/load.js";
import { pushFromManifest } from "../src/destinations/after-publish.js";
import { DestinationConfig } from "../src/destinations/settings.js";
import { silentLogger } from "../src/log.js";
import { runGenerate } from "../src/pipeline/run.js";
import { DEMO_KEY } from "../src/sandbox/index.js";
import { startFtp } from "../test/destinations/_ftp-server.js";
import { S3_KEY, startS3 } from "../test/destinations/_s3-server.js";
import { sshdBinary, startSshd } from "../test/destinations/_openssh-sshd.js";
import { startSftp } from "../test/destinations/_sftp-server.js";
import { flag, message, startChild } from "./common.js";

const PRODUCTS = Number(flag("products", "100000"));
const RUNS = Number(flag("runs", "5"));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Seconds `work` takes, once. */
async function timedOnce(work: () => Promise<unknown>): Promise<number[]> {
  const started = performance.now();
  await work();
  return [(performance.now() - started) / 1000];
}

/** Our push, `sftp -b` and `curl -T` to OpenSSH's sshd, the same files, one after another. */
async function againstOpenssh(config: Awaited<ReturnType<typeof loadConfig>>, manifest: Awaited<ReturnType<typeof runGenerate>>["manifest"], files: string[], bytes: number): Promise<void> {
  const binary = sshdBinary();
  if ("reason" in binary) return void console.log(`\nOpenSSH sshd: skipped, ${binary.reason}`);
  const sshd = await startSshd(binary.path);
  const remote = await mkdtemp(join(tmpdir(), "pharmafeed-bench-sshd-"));
  try {
    const ssh = ["-i", sshd.keyFile, "-P", String(sshd.port), "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"];
    const batch = `${remote}.batch`;
    await writeFile(batch, files.map((f) => `put ${join(config.outputDir, f)} ${join(remote, "sftp-b-" + f)}`).join("\n") + "\n");
    const destination = DestinationConfig.parse({ kind: "sftp", name: "bench", retries: 0, timeoutMs: 120_000, host: "127.0.0.1", port: sshd.port, user: sshd.user, privateKey: sshd.privateKey, hostKey: sshd.hostKeyFingerprint, dir: remote });
    const withDestination = { ...config, channels: config.channels.map((c) => ({ ...c, destinations: [destination] })) };
    const curlSpeaksSftp = /\bsftp\b/.test(execFileSync("curl", ["-V"], { encoding: "utf8" }).split("\n").find((l) => l.startsWith("Protocols:")) ?? "");
    const sides: [string, () => Promise<unknown>][] = [
      ["pharmafeed push (fastPut, temporary + posix-rename, size checked)", async () => {
        const { result } = await pushFromManifest({ config: withDestination, outputDir: config.outputDir, manifest, logger: silentLogger, force: true });
        if (result.problems.length > 0) throw new Error(result.problems.map((p) => p.reason).join("; "));
      }],
      ["sftp -b (OpenSSH)", async () => execFileSync("sftp", ["-b", batch, ...ssh, `${sshd.user}@127.0.0.1`], { stdio: "pipe" })],
    ];
    if (curlSpeaksSftp) {
      sides.push(["curl -T (libssh2)", async () => execFileSync("curl", ["-sS", "--fail", "-k", "--key", sshd.keyFile, "--pubkey", `${sshd.keyFile}.pub`, "-u", `${sshd.user}:`, "-T", `{${files.map((f) => join(config.outputDir, f)).join(",")}}`, `sftp://127.0.0.1:${sshd.port}${remote}/`], { stdio: "pipe" })]);
    } else {
      console.log("curl -T: skipped, this curl does not speak sftp (curl -V lists no sftp)");
    }
    // In turn within each run, so that a load from elsewhere on the machine falls on every side alike.
    const seconds = sides.map((): number[] => []);
    for (let run = 0; run < RUNS; run++) {
      for (const [i, [, work]] of sides.entries()) seconds[i]!.push(...(await timedOnce(work)));
    }
    const results = sides.map(([name], i): [string, number] => [name, median(seconds[i]!)]);
    const reference = results.find(([name]) => name.startsWith("sftp -b"))![1];
    const perRun = seconds[0]!.map((s, run) => s / seconds[1]![run]!);
    // ssh -V says its version on stderr.
    console.log(`\nOpenSSH sshd (${spawnSync("ssh", ["-V"], { encoding: "utf8" }).stderr.trim()}), ${files.length} files, ${(bytes / 2 ** 20).toFixed(1)} MB, median of ${RUNS} runs:`);
    for (const [name, medianSeconds] of results) {
      console.log(`  ${name.padEnd(66)} ${medianSeconds.toFixed(2).padStart(6)} s  ${(bytes / 2 ** 20 / medianSeconds).toFixed(0).padStart(4)} MB/s  ${(medianSeconds / reference).toFixed(2)}x sftp -b`);
    }
    console.log(`  push / sftp -b in each run: ${perRun.map((r) => r.toFixed(2)).join(", ")} (median ${median(perRun).toFixed(2)}x)`);
  } finally {
    await sshd.close();
    await Promise.all([rm(remote, { recursive: true, force: true }), rm(`${remote}.batch`, { force: true })]);
  }
}
const PASSWORD = "bench-password";
const env = { ...process.env, BENCH_KEY_ID: DEMO_KEY.id, BENCH_KEY_SECRET: DEMO_KEY.secret };

const sandbox = startChild("./sandbox-child.ts", ["sandbox", String(PRODUCTS), "1"]);
const dir = await mkdtemp(join(tmpdir(), "pharmafeed-destinations-"));
const remotes = await Promise.all(["s3", "sftp", "ftp", "copy"].map(async (k) => [k, await mkdtemp(join(tmpdir(), `pharmafeed-bench-${k}-`))] as const));
const remoteDir = Object.fromEntries(remotes);
try {
  const { url } = await message<{ url: string }>(sandbox);
  await message(startChild("./generate-child.ts", ["config", url, dir]));
  const config = await loadConfig(join(dir, "pharmafeed.json"), { env });
  const { manifest } = await runGenerate({ config, logger: silentLogger, force: true });
  sandbox.kill();
  const files = manifest.channels.flatMap((c) => (c.live ? [c.live.file, ...(c.live.gzip ? [c.live.gzip.file] : [])] : []));
  const bytes = manifest.channels.reduce((sum, c) => sum + (c.live?.bytes ?? 0) + (c.live?.gzip?.bytes ?? 0), 0);
  console.log(`${PRODUCTS.toLocaleString("en")} products: ${files.length} files, ${(bytes / 2 ** 20).toFixed(1)} MB`);

  let started = performance.now();
  await mkdir(remoteDir["copy"]!, { recursive: true });
  for (const f of files) await copyFile(join(config.outputDir, f), join(remoteDir["copy"]!, f));
  const copySeconds = (performance.now() - started) / 1000;
  console.log(`plain local copy (fs.copyFile, one after the other): ${copySeconds.toFixed(2)} s`);

  const s3 = await startS3(remoteDir["s3"]!, "feeds");
  const sftp = await startSftp(remoteDir["sftp"]!, { feeds: PASSWORD });
  const ftp = await startFtp(remoteDir["ftp"]!, { feeds: PASSWORD });
  const common = { name: "bench", retries: 0, timeoutMs: 120_000 };
  const destinations: Record<string, DestinationConfig> = {
    s3: DestinationConfig.parse({ kind: "s3", ...common, endpoint: `http://127.0.0.1:${s3.port}`, bucket: "feeds", forcePathStyle: true, ...S3_KEY }),
    sftp: DestinationConfig.parse({ kind: "sftp", ...common, host: "127.0.0.1", port: sftp.port, user: "feeds", password: PASSWORD }),
    ftp: DestinationConfig.parse({ kind: "ftp", ...common, host: "127.0.0.1", port: ftp.port, user: "feeds", password: PASSWORD }),
  };
  console.log("\nkind   first push        vs copy   unchanged re-run (uploaded)");
  let current = manifest;
  for (const [kind, destination] of Object.entries(destinations)) {
    const withDestination = { ...config, channels: config.channels.map((c) => ({ ...c, destinations: [destination] })) };
    started = performance.now();
    const first = await pushFromManifest({ config: withDestination, outputDir: config.outputDir, manifest: current, logger: silentLogger });
    const firstSeconds = (performance.now() - started) / 1000;
    const failed = first.result.problems.map((p) => p.reason);
    started = performance.now();
    const again = await pushFromManifest({ config: withDestination, outputDir: config.outputDir, manifest: first.manifest, logger: silentLogger });
    const againSeconds = (performance.now() - started) / 1000;
    const records = [...again.result.records.values()].flat();
    const uploaded = records.reduce((n, r) => n + r.uploaded, 0);
    const uploadedBytes = records.reduce((n, r) => n + r.uploadedBytes, 0);
    console.log(
      `${kind.padEnd(6)} ${firstSeconds.toFixed(2).padStart(6)} s (${(bytes / 2 ** 20 / firstSeconds).toFixed(1)} MB/s) ${(firstSeconds / copySeconds).toFixed(0).padStart(5)}x   ${againSeconds.toFixed(2)} s (${uploaded} files, ${uploadedBytes} bytes)` +
        (failed.length > 0 ? `  FAILED: ${failed.join("; ")}` : ""),
    );
    // Each kind starts from the run's manifest: its own records only.
    current = manifest;
  }
  await Promise.all([s3.close(), sftp.close(), ftp.close()]);
  await againstOpenssh(config, manifest, files, bytes);
} finally {
  sandbox.kill();
  await Promise.all([dir, ...Object.values(remoteDir)].map((d) => rm(d, { recursive: true, force: true })));
}
