/** Shared helpers of the image tests: sandboxes, image fetches, pixel reads, generate runs. */
import { request } from "undici";
import sharp from "sharp";
import { loadConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import { runGenerate, type GenerateOptions } from "../../src/pipeline/run.js";
import { startSandbox, type SandboxHandle, type SandboxOptionsInput } from "../../src/sandbox/index.js";
import { writeConfig, type ChannelFileJson, type ConfigOptions, type E2eConfig } from "../e2e/config.js";

export const UA = "pharmafeed-tests/1.0 (tests@example.com)";
export const PUBLIC = "https://feeds.pharmacy.example";

const sandboxes: SandboxHandle[] = [];

export async function sandboxOf(options: SandboxOptionsInput = {}): Promise<SandboxHandle> {
  const sandbox = await startSandbox({ rateLimit: 100_000, ...options });
  sandboxes.push(sandbox);
  return sandbox;
}

export async function closeSandboxes(): Promise<void> {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
}

/** Requests the sandbox answered on photo URLs so far. */
export function mediaRequests(sandbox: SandboxHandle): number {
  let count = 0;
  for (const [path, n] of sandbox.stats.byPath) if (path.startsWith("/media/")) count += n;
  return count;
}

export async function get(url: string, headers: Record<string, string> = { "user-agent": UA }, method: "GET" | "HEAD" = "GET") {
  const response = await request(url, { method, headers });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, headers: response.headers, body };
}

/** RGBA of one pixel (alpha 255 when the image has none). */
export async function pixel(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 4;
  return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
}

/**
 * Down the middle column, the pixel a few rows past the first one that is not
 * the light background (past the edge that resampling blends).
 */
export async function firstInk(image: Buffer): Promise<number[]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y: number) => {
    const i = (y * info.width + Math.floor(info.width / 2)) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  for (let y = 0; y < info.height; y++) if (at(y).some((v) => v < 200)) return at(Math.min(info.height - 1, y + 4));
  return [];
}

export const near = (a: readonly number[], b: readonly number[]) => b.length === a.length && b.every((v, i) => Math.abs((a[i] as number) - v) < 30);

/** A lenient channel (the gate lifted: generated data has many rejections on purpose). */
export function channel(name: string, extra: Record<string, unknown> = {}, preset = "meta"): ChannelFileJson {
  return { name, preset, locale: "fr", link: { template: "https://shop.example/p/{{id}}" }, gate: { maxRejectedPercent: 100 }, ...extra };
}

/** The images settings of a channel that processes its photos, frontals first (they are transparent PNGs). */
export function processing(process: Record<string, unknown> = {}, images: Record<string, unknown> = {}): Record<string, unknown> {
  return { images: { photoTypes: ["frontal", "packshot", "productshot"], ...images, process: { size: 800, ...process } } };
}

export const FAST_IMAGES = { retry: { baseMs: 1, maxMs: 5 } } as const;

export interface Generate {
  tree: E2eConfig;
  run(extra?: Partial<GenerateOptions>): ReturnType<typeof runGenerate>;
}

/** A config tree over `sandbox`; run() generates into its output directory. */
export async function setup(sandbox: SandboxHandle, options: ConfigOptions & { publicBaseUrl?: string | null } = {}): Promise<Generate> {
  const publicBaseUrl = options.publicBaseUrl === undefined ? PUBLIC : options.publicBaseUrl;
  const tree = await writeConfig({ ...options, main: { output: { dir: "../out", ...(publicBaseUrl === null ? {} : { publicBaseUrl }) }, ...options.main } });
  const env = { CATALOGUE_API_BASE_URL: sandbox.url, CATALOGUE_API_KEY_ID: sandbox.keyId, CATALOGUE_API_KEY_SECRET: sandbox.keySecret };
  const config = await loadConfig(tree.configFile, { env });
  return { tree, run: (extra = {}) => runGenerate({ config, logger: silentLogger, images: FAST_IMAGES, ...extra }) };
}
