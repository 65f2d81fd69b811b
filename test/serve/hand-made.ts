/**
 * A hand-made output directory: feed files and a manifest.json listing them
 * as live, written the way generate writes (temporary name, then rename), for
 * the tests that need control over sizes and timing (big files, the window
 * between a file's rename and the manifest's).
 */
import { createHash } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type ChannelEntry, type Manifest } from "../../src/publish/manifest.js";
import { MANIFEST_FILE } from "../../src/core/layout.js";

export interface HandFeed {
  name: string;
  file: string;
  content: Buffer;
  gzip?: boolean;
}

export const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** Renames into place like AtomicOutput.publish(). */
export async function publishFile(dir: string, file: string, content: Buffer): Promise<void> {
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${file}.tmp-${process.pid}`);
  await writeFile(tmp, content);
  await rename(tmp, join(dir, file));
}

export function manifestFor(feeds: readonly HandFeed[], publishedAt: Date): Manifest {
  const at = publishedAt.toISOString();
  const channels: ChannelEntry[] = feeds.map((f) => {
    const hash = sha256(f.content);
    const gz = f.gzip ? { file: `${f.file}.gz`, bytes: gzipSync(f.content).length } : undefined;
    return {
      name: f.name,
      preset: "generic-ndjson",
      locale: "fr",
      format: "ndjson",
      contentType: "application/x-ndjson; charset=utf-8",
      file: f.file,
      items: f.content.toString("utf8").split("\n").filter(Boolean).length,
      excluded: {},
      warnings: {},
      fallbacks: {},
      bytes: f.content.length,
      sha256: hash,
      published: true,
      live: { file: f.file, items: 0, bytes: f.content.length, sha256: hash, publishedAt: at, ...(gz ? { gzip: gz } : {}) },
    };
  });
  return {
    version: 1,
    startedAt: at,
    endedAt: at,
    status: "ok",
    source: { total: 0, received: 0, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 },
    channels,
  };
}

export async function publishManifest(dir: string, manifest: Manifest): Promise<void> {
  await publishFile(dir, MANIFEST_FILE, Buffer.from(JSON.stringify(manifest)));
}

/** The feeds' files (and gzip twins), then the manifest: generate's order. */
export async function publishAll(dir: string, feeds: readonly HandFeed[], publishedAt = new Date()): Promise<Manifest> {
  for (const f of feeds) {
    if (f.gzip) await publishFile(dir, `${f.file}.gz`, gzipSync(f.content));
    await publishFile(dir, f.file, f.content);
  }
  const manifest = manifestFor(feeds, publishedAt);
  await publishManifest(dir, manifest);
  return manifest;
}

/** `lines` NDJSON lines of about 100 bytes, each naming `version`. */
export function ndjson(lines: number, version: string): Buffer {
  const line = (i: number) => `${JSON.stringify({ id: `p${i}`, version, title: "x".repeat(60) })}\n`;
  return Buffer.from(Array.from({ length: lines }, (_, i) => line(i)).join(""));
}
