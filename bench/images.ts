/**
 * Image pipeline throughput: a generate run with one channel that processes
 * its main images (download from the sandbox + sharp + atomic write + cache
 * index, through the ordered FIFO), beside a bare sharp loop over the same
 * source files read from disk (same rotate / resize / flatten / encode,
 * written to disk) with the same number of pipelines at once. Both start from
 * an empty cache every run; runs alternate sides; medians are printed.
 *
 *   npx tsx bench/images.ts [--images 500] [--runs 3]
 *
 * Goal: pipeline >= 0.8x the bare loop's images/s, with both cores used
 * (CPU time of this process over wall time > 1.2 cores). The sandbox runs in
 * a child process (bench/sandbox-child.ts) and has every image encoded and
 * cached before timing, so its CPU is not this process's but it does share
 * the machine, as an image host never would.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseCsv } from "csv-parse/sync";
import pLimit from "p-limit";
import sharp from "sharp";
import { request } from "undici";
import { loadConfig } from "../src/config/load.js";
import { ImageRunOptions } from "../src/images/options.js";
import { silentLogger } from "../src/log.js";
import { runGenerate } from "../src/pipeline/run.js";
import { flag } from "./common.js";

const IMAGES = Number(flag("images", "500"));
const RUNS = Number(flag("runs", "3"));
const SEED = 1;
/** Products streamed: with seed 1, 35.2% of them pass the meta preset's rules with a photo (1250 gave 440). */
const PRODUCTS = Math.round(IMAGES / 0.352);
const UA = "pharmafeed-bench/1.0 (bench@pharmafeed.test)";
const PROCESS = { size: 800, format: "jpeg", quality: 85, maxAdditional: 0 } as const;
const PARALLEL = ImageRunOptions.parse({}).conversions;

function startSandbox(): { child: ChildProcess; url: Promise<string> } {
  const child = fork(fileURLToPath(new URL("./sandbox-child.ts", import.meta.url)), ["sandbox", String(PRODUCTS), String(SEED)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const url = new Promise<string>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { url: string }).url));
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return { child, url };
}

/** A processing channel, and the same channel without processing whose feed lists the source URLs. */
async function writeConfig(root: string): Promise<string> {
  await mkdir(join(root, "config", "channels"), { recursive: true });
  const main = {
    source: { baseUrl: "https://api.catalogue.invalid", keyId: "${CATALOGUE_API_KEY_ID}", keySecret: "${CATALOGUE_API_KEY_SECRET}", contact: "bench@pharmafeed.test", rateLimit: 1_000_000 },
    shop: { name: "Bench pharmacy", url: "https://shop.example/" },
    output: { dir: "../out", publicBaseUrl: "https://feeds.example" },
    channels: ["channels/meta.json", "channels/plain.json"],
  };
  // Frontals first: transparent PNGs are the work this pipeline exists for.
  const images = { photoTypes: ["frontal", "packshot"], maxAdditional: 0 };
  const channel = { preset: "meta", locale: "fr", link: { template: "https://shop.example/p/{{id}}" }, gate: { maxRejectedPercent: 100 } };
  await writeFile(join(root, "config", "pharmafeed.json"), JSON.stringify(main));
  await writeFile(join(root, "config", "channels", "meta.json"), JSON.stringify({ ...channel, name: "meta", images: { ...images, process: PROCESS } }));
  await writeFile(join(root, "config", "channels", "plain.json"), JSON.stringify({ ...channel, name: "plain", images }));
  return join(root, "config", "pharmafeed.json");
}

interface Sample {
  images: number;
  seconds: number;
  /** CPU seconds of this process (user + system) over wall seconds. */
  cores: number;
}

async function timed(body: () => Promise<number>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const images = await body();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { images, seconds, cores: (used.user + used.system) / 1e6 / seconds };
}

/** The same work without the pipeline: read, convert, write, PARALLEL at once. */
async function bareLoop(files: string[], outDir: string): Promise<number> {
  const limit = pLimit(PARALLEL);
  await Promise.all(
    files.map((file, i) =>
      limit(async () => {
        const input = await readFile(file);
        const output = await sharp(input, { failOn: "error" })
          .rotate()
          .resize(PROCESS.size, PROCESS.size, { fit: "inside", withoutEnlargement: true })
          .flatten({ background: "#ffffff" })
          .jpeg({ quality: PROCESS.quality })
          .toBuffer();
        await writeFile(join(outDir, `${i}.jpg`), output);
      }),
    ),
  );
  return files.length;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const sandbox = startSandbox();
  const root = await mkdtemp(join(tmpdir(), "pharmafeed-bench-images-"));
  try {
    const url = await sandbox.url;
    const env = { CATALOGUE_API_BASE_URL: url, CATALOGUE_API_KEY_ID: "demo", CATALOGUE_API_KEY_SECRET: "demo-secret-not-for-production" };
    const configFile = await writeConfig(root);
    const outputDir = join(root, "out");
    const generate = async (only: string[]) => {
      await rm(outputDir, { recursive: true, force: true });
      const result = await runGenerate({ config: await loadConfig(configFile, { env, only }), logger: silentLogger });
      if (!result.images || result.images.failed > 0) throw new Error(`image failures: ${JSON.stringify(result.images)}`);
      return result.images.conversions;
    };

    // Untimed: the sandbox encodes and caches every image; the plain feed names the sources for the bare loop.
    process.stdout.write(`warming up: ${PRODUCTS} products through the sandbox...\n`);
    const warm = await generate(["meta", "plain"]);
    const rows = parseCsv(await readFile(join(outputDir, "plain.csv"), "utf8"), { columns: true }) as Record<string, string>[];
    const sourceDir = join(root, "sources");
    await mkdir(sourceDir);
    const files: string[] = [];
    for (const [i, row] of rows.entries()) {
      const response = await request(row["image_link"]!, { headers: { "user-agent": UA } });
      const file = join(sourceDir, String(i));
      await writeFile(file, Buffer.from(await response.body.arrayBuffer()));
      files.push(file);
    }
    if (files.length !== warm) throw new Error(`the pipeline converted ${warm} images, the bare loop has ${files.length}`);
    process.stdout.write(`${warm} images (main image of each item, ${PROCESS.size}px JPEG); ${PARALLEL} sharp pipelines at once (sharp.concurrency() = ${sharp.concurrency()}, ${availableParallelism()} cores)\n\n`);

    const pipeline: Sample[] = [];
    const bare: Sample[] = [];
    const bareOut = join(root, "bare");
    for (let run = 0; run < RUNS; run++) {
      pipeline.push(await timed(() => generate(["meta"])));
      await rm(bareOut, { recursive: true, force: true });
      await mkdir(bareOut);
      bare.push(await timed(() => bareLoop(files, bareOut)));
      const [p, b] = [pipeline.at(-1)!, bare.at(-1)!];
      process.stdout.write(`run ${run + 1}: pipeline ${(p.images / p.seconds).toFixed(1)} img/s (${p.cores.toFixed(2)} cores)   bare sharp ${(b.images / b.seconds).toFixed(1)} img/s (${b.cores.toFixed(2)} cores)\n`);
    }
    const rate = (samples: Sample[]) => median(samples.map((s) => s.images / s.seconds));
    const [pRate, bRate] = [rate(pipeline), rate(bare)];
    const cores = median(pipeline.map((s) => s.cores));
    // Per CPU-second varies much less than wall-clock rates on a machine shared with others.
    const perCpu = (samples: Sample[]) => median(samples.map((s) => s.images / (s.seconds * s.cores)));
    process.stdout.write(
      `\nmedian of ${RUNS} runs, ${warm} images:\n` +
        `  pipeline (download + convert + write + index, in generate)  ${pRate.toFixed(1)} images/s, ${cores.toFixed(2)} cores busy\n` +
        `  bare sharp loop (read + convert + write)                    ${bRate.toFixed(1)} images/s, ${median(bare.map((s) => s.cores)).toFixed(2)} cores busy\n` +
        `  ratio ${(pRate / bRate).toFixed(2)}x (goal >= 0.8x); both cores used: ${cores > 1.2 ? "yes" : "no"} (goal > 1.2 cores)\n` +
        `  per CPU-second: pipeline ${perCpu(pipeline).toFixed(1)} images, bare loop ${perCpu(bare).toFixed(1)} images (${(perCpu(pipeline) / perCpu(bare)).toFixed(2)}x)\n`,
    );
  } finally {
    sandbox.child.send("exit");
    await rm(root, { recursive: true, force: true });
  }
}

void main();
