/**
 * The cache across runs: output/images/index.json maps a cache key (media id,
 * its updatedAt, the source URL's path and the processing settings) to the file
 * made from it, so a nightly run downloads and converts only new or changed
 * photos. The index is rewritten atomically after each run; an index that is
 * missing, unreadable or of another version is an empty cache (everything is
 * processed again, nothing is lost but time).
 *
 * Pruning is deliberately narrow: entries no run used for `retainDays` are
 * dropped, and a file is deleted only when an index listed it (so the cache
 * made it) and no remaining entry refers to it. Nothing else in the folder is
 * ever touched.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { ImageSource } from "../mapping/feed-item.js";
import { replaceFile } from "../core/atomic-file.js";

export const INDEX_FILE = "index.json";
/** The names the pipeline gives its files: a content hash and the format's extension. */
export const IMAGE_NAME = /^[0-9a-f]{32}\.(?:jpg|png|webp)$/;

const Entry = z
  .object({
    file: z.string().regex(IMAGE_NAME),
    mediaId: z.number(),
    updatedAt: z.number().optional(),
    width: z.number().int().min(1),
    height: z.number().int().min(1),
    bytes: z.number().int().min(0),
    /** When a run last used it (ISO 8601). */
    usedAt: z.string(),
  })
  .strict();
export type CacheEntry = z.infer<typeof Entry>;

const IndexFile = z.object({ version: z.literal(1), entries: z.record(z.string(), Entry) }).strict();

/** The part of the URL that names the rendition; the host (a CDN, the sandbox's port) may change freely. */
function renditionOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** The cache key of one photo under one channel's settings. */
export function cacheKey(source: ImageSource, settingsId: string): string {
  const text = JSON.stringify([source.mediaId, source.updatedAt ?? null, renditionOf(source.url), settingsId]);
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

export class ImageIndex {
  private constructor(
    private readonly dir: string,
    private readonly entries: Map<string, CacheEntry>,
    /** Files some index listed: the only ones pruning may delete. */
    private readonly owned: Set<string>,
  ) {}

  /** Reads the index of `dir`; entries whose file is gone are dropped. */
  static async load(dir: string): Promise<ImageIndex> {
    const present = new Set(await readdir(dir).catch(() => [] as string[]));
    let parsed: z.infer<typeof IndexFile> | undefined;
    try {
      const result = IndexFile.safeParse(JSON.parse(await readFile(join(dir, INDEX_FILE), "utf8")));
      if (result.success) parsed = result.data;
    } catch {
      // Missing or not JSON: an empty cache.
    }
    const entries = new Map<string, CacheEntry>();
    const owned = new Set<string>();
    for (const [key, entry] of Object.entries(parsed?.entries ?? {})) {
      owned.add(entry.file);
      if (present.has(entry.file)) entries.set(key, entry);
    }
    return new ImageIndex(dir, entries, owned);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry of `key`, marked as used by this run. */
  use(key: string, now: string): CacheEntry | undefined {
    const entry = this.entries.get(key);
    if (entry) entry.usedAt = now;
    return entry;
  }

  set(key: string, entry: CacheEntry): void {
    this.entries.set(key, entry);
    this.owned.add(entry.file);
  }

  /**
   * Drops entries unused since `now - retainDays`, writes the index atomically,
   * then deletes the files it owned that no entry refers to any more (after the
   * write, so the index never names a deleted file). Returns the deleted names.
   */
  async save(now: Date, retainDays: number): Promise<string[]> {
    const cutoff = now.getTime() - retainDays * 86_400_000;
    for (const [key, entry] of this.entries) {
      const used = Date.parse(entry.usedAt);
      if (!(used >= cutoff)) this.entries.delete(key);
    }
    const referenced = new Set([...this.entries.values()].map((e) => e.file));
    const target = join(this.dir, INDEX_FILE);
    await replaceFile(target, JSON.stringify({ version: 1, entries: Object.fromEntries(this.entries) }));
    const orphans = [...this.owned].filter((name) => !referenced.has(name) && IMAGE_NAME.test(name));
    await Promise.all(orphans.map((name) => rm(join(this.dir, name), { force: true })));
    for (const name of orphans) this.owned.delete(name);
    return orphans;
  }
}
