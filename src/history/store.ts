/**
 * Every published version of every feed, kept for "what changed" and "put yesterday's back":
 * output/history/feeds/<sha256>.gz, named by the sha256 of the file as it was published (the
 * manifest's `live.sha256`), so a version published by several runs or channels is kept once.
 * Which runs published which version is in the manifests kept in history/ (publish/manifest.ts):
 * nothing else is needed to find a version, and nothing here can disagree with them.
 *
 * Kept state is checked before use: readKept() inflates a version and compares its digest; a
 * damaged file is never handed out, and prune() removes what no kept run names.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { gunzipSync, createGzip, constants as zlib } from "node:zlib";
import { EXCLUSIVE_FLAGS, renameIntoPlace, temporaryPath } from "../core/atomic-file.js";
import { FEED_HISTORY_DIR } from "../core/layout.js";
import { ensureRealDir } from "../core/safe-path.js";
import { sheetHeader, sheetPath } from "./sheet.js";

const NAME = /^([0-9a-f]{64})\.gz$/;

export function keptPath(outputDir: string, sha256: string): string {
  return join(outputDir, FEED_HISTORY_DIR, `${sha256}.gz`);
}

/** Every kept version: its digest and size on disk (with its item sheet's). Anything else in the folder is left out (and pruned). */
export async function keptVersions(outputDir: string): Promise<{ sha256: string; bytes: number }[]> {
  let names: string[];
  try {
    names = await readdir(join(outputDir, FEED_HISTORY_DIR));
  } catch {
    return [];
  }
  const versions = await Promise.all(
    names.map(async (name) => {
      const sha256 = NAME.exec(name)?.[1];
      if (sha256 === undefined) return undefined;
      const info = await stat(keptPath(outputDir, sha256)).catch(() => undefined);
      const sheet = await stat(sheetPath(outputDir, sha256)).catch(() => undefined);
      return info?.isFile() ? { sha256, bytes: info.size + (sheet?.isFile() ? sheet.size : 0) } : undefined;
    }),
  );
  return versions.filter((v) => v !== undefined);
}

/**
 * Keeps the published file `file` (relative to the output directory) as version `sha256`, unless
 * it is kept already and looks whole (looksWhole); refused when the file on disk is not that version.
 */
export async function keepVersion(outputDir: string, file: string, sha256: string): Promise<"kept" | "already"> {
  const target = keptPath(outputDir, sha256);
  // A damaged copy is kept again: trusted on its name alone, it stayed damaged run after run, and the
  // version could not be put back once replaced. With the published file gone, only the magic bytes
  // can be checked (keeping it again would fail anyway).
  const size = (await stat(join(outputDir, file)).catch(() => undefined))?.size;
  if (await looksWhole(target, size)) return "already";
  // The file is hashed as it is read, as a step of the pipeline (a 'data' listener beside it started
  // the flow before the pipe: chunks hashed, never compressed): a file that is not the version the
  // manifest names is not kept under its name.
  const hash = createHash("sha256");
  const hashed = async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      hash.update(chunk);
      yield chunk;
    }
  };
  await writeKept(outputDir, target, hashed(createReadStream(join(outputDir, file))), () => {
    const digest = hash.digest("hex");
    if (digest !== sha256) throw new Error(`${file} is not the version the manifest names (sha256 ${digest.slice(0, 12)}..., expected ${sha256.slice(0, 12)}...)`);
  });
  return "kept";
}

/**
 * Whether the file at `target` looks like a whole gzip stream of `size` bytes: it starts with gzip's
 * magic bytes, and its trailer's ISIZE (the last 4 bytes, little-endian: the inflated size mod 2^32)
 * is `size`. Cheap (two small reads, whatever the file's size), unlike inflating every kept version on
 * every run: it catches a truncated copy, a file that is not gzip and most others' bytes; what it
 * misses (same length, other bytes) readKept and rollback catch by the digest before any use.
 */
export async function looksWhole(target: string, size: number | undefined): Promise<boolean> {
  let handle;
  try {
    handle = await open(target, "r");
  } catch {
    return false;
  }
  try {
    const info = await handle.stat();
    // 10-byte header and 8-byte trailer at least.
    if (!info.isFile() || info.size < 18) return false;
    const head = Buffer.alloc(2);
    const tail = Buffer.alloc(4);
    await handle.read(head, 0, 2, 0);
    await handle.read(tail, 0, 4, info.size - 4);
    return head[0] === 0x1f && head[1] === 0x8b && (size === undefined || tail.readUInt32LE(0) === size % 2 ** 32);
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

/**
 * Keeps the item sheet a run wrote for version `sha256` (sheet.ts), its header first, unless
 * one is kept already and looks whole (as a kept feed: a damaged sheet left diff and the price
 * gate without the version's items run after run).
 */
export async function keepSheet(outputDir: string, sha256: string, written: { file: string; items: number }): Promise<"kept" | "already"> {
  const target = sheetPath(outputDir, sha256);
  const header = `${sheetHeader(sha256, written.items)}\n`;
  const size = (await stat(written.file).catch(() => undefined))?.size;
  if (await looksWhole(target, size === undefined ? undefined : Buffer.byteLength(header) + size)) return "already";
  const lines = async function* () {
    yield header;
    yield* createReadStream(written.file);
  };
  await writeKept(outputDir, target, lines(), () => undefined);
  return "kept";
}

/**
 * Gzips `chunks` into `target`, whole or not at all: an exclusive temporary beside it, renamed
 * into place once `check` (called when all is read) accepts what was read. Gzip level 1: a run
 * keeps every changed feed, and level 1 is several times faster than the default for a file a
 * third larger.
 */
async function writeKept(outputDir: string, target: string, chunks: AsyncIterable<string | Buffer>, check: () => void): Promise<void> {
  await ensureRealDir(join(outputDir, FEED_HISTORY_DIR));
  const tmp = temporaryPath(target);
  await rm(tmp, { force: true });
  try {
    const handle = await open(tmp, EXCLUSIVE_FLAGS, 0o644);
    await pipeline(chunks, createGzip({ level: zlib.Z_BEST_SPEED }), handle.createWriteStream());
    check();
    await renameIntoPlace(tmp, target);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** A kept version's bytes, checked against its digest; undefined when it is not kept, or damaged (then it is removed). */
export async function readKept(outputDir: string, sha256: string): Promise<Buffer | undefined> {
  let data: Buffer;
  try {
    data = gunzipSync(await readFile(keptPath(outputDir, sha256)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    await rm(keptPath(outputDir, sha256), { force: true });
    return undefined;
  }
  if (createHash("sha256").update(data).digest("hex") === sha256) return data;
  await rm(keptPath(outputDir, sha256), { force: true });
  return undefined;
}

/**
 * Removes every kept version no run in `runs` (newest first: each a list of the digests live
 * after it) names, then the oldest runs' until the rest fit in `maxBytes`. The versions of the
 * first run (live now) stay whatever their size. Anything else in the folder goes too.
 * Returns the digests of the versions removed.
 */
export async function prune(outputDir: string, runs: readonly (readonly string[])[], maxBytes: number): Promise<string[]> {
  const kept = await keptVersions(outputDir);
  const size = new Map(kept.map((v) => [v.sha256, v.bytes]));
  const keep = new Set<string>();
  let total = 0;
  for (const [i, digests] of runs.entries()) {
    const added = digests.filter((d) => size.has(d) && !keep.has(d));
    const bytes = added.reduce((sum, d) => sum + size.get(d)!, 0);
    // The oldest go first: from the first run that does not fit, no older one is kept.
    if (i > 0 && total + bytes > maxBytes) break;
    for (const d of added) keep.add(d);
    total += bytes;
  }
  const removed = kept.map((v) => v.sha256).filter((d) => !keep.has(d));
  let names: string[] = [];
  try {
    names = await readdir(join(outputDir, FEED_HISTORY_DIR));
  } catch {
    // No folder: nothing to remove.
  }
  // Everything but the versions kept and their sheets: a killed run's temporary (nothing else writes
  // here under the run's lock; this run's sheets were kept or dropped before), a stray file, a folder
  // where a version should be, a sheet whose version is gone.
  const keepNames = new Set([...keep].flatMap((d) => [`${d}.gz`, `${d}.items.gz`]));
  await Promise.all(names.filter((name) => !keepNames.has(name)).map((name) => rm(join(outputDir, FEED_HISTORY_DIR, name), { recursive: true, force: true })));
  return removed;
}
