/**
 * Benchmark of destinations: the 22 feeds of the generated catalogue (11 presets
 * x fr, nl; google's with a .gz twin) pushed to each local server the tests use
 * (s3rver, an ssh2 SFTP server in process, ftp-srv), on 127.0.0.1: wall time of
 * the first push beside a plain local copy of the same files, then what an
 * unchanged re-run uploads (nothing) and how long it takes to find that out.
 *
 *   npx tsx bench/destinations.ts [--products 100000]
 */
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
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
import { startSftp } from "../test/destinations/_sftp-server.js";
import { flag, message, startChild } from "./common.js";

const PRODUCTS = Number(flag("products", "100000"));
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
} finally {
  sandbox.kill();
  await Promise.all([dir, ...Object.values(remoteDir)].map((d) => rm(d, { recursive: true, force: true })));
}
