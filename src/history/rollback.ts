/**
 * `pharmafeed rollback`: a kept version (store.ts) put back as a channel's served file, the way a run
 * publishes one (the caller holds the output lock):
 *
 *   kept <sha>.gz ─gunzip─> AtomicOutput (hashed, .gz twin) ─ digest checked ─> journal entry ─> rename
 *     ─> manifest.json (the channel's live entry: the version, pinned) ─> a dated copy in history/
 *
 * A reader sees the old file or the version put back, whole; serve's ETag follows the manifest's
 * digest; a kill after the rename is rolled forward from the journal by the next run. The version is
 * pinned: runs still build the channel's file, compare it and say so, but do not publish it until
 * `rollback --release`. Destinations are pushed by the command afterwards, as a run's hook would.
 */
import { createReadStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { AtomicOutput } from "../core/atomic-output.js";
import { replaceFile } from "../core/atomic-file.js";
import { MANIFEST_FILE } from "../core/layout.js";
import { PharmafeedError } from "../errors.js";
import { JournalWriter } from "../publish/journal.js";
import { type ChannelEntry, type LiveFile, type Manifest, readHistory, readPreviousManifest, recordInHistory } from "../publish/manifest.js";
import { keptPath } from "./store.js";
import { type PublishedVersion, resolveVersion, versionsOf } from "./versions.js";

export interface RollbackInput {
  outputDir: string;
  channel: string;
  /** Also write the `.gz` twin (the channel's `gzip` setting). */
  gzip: boolean;
  /** The version to put back (versions.ts VersionRef); default: the one live before the live one. */
  to?: string;
  /** The command as typed, for every surface that says the feed is pinned. */
  command: string;
  now: Date;
}

export interface RollbackDone {
  manifest: Manifest;
  version: PublishedVersion;
  /** What was served before. */
  replaced: LiveFile;
  /** The manifest read: manifest.json, or the history/ copy that stood in for it (readPreviousManifest). */
  from: string;
}

const nothingPublished = (outputDir: string, why: string) => new PharmafeedError("USAGE", `nothing is published in ${outputDir} (${why}): run pharmafeed generate first`, { context: { file: outputDir } });

/**
 * Refuses an output directory where nothing can be published, before its lock is taken: a missing
 * one would be "cannot create lock", a regular file ENOTDIR, neither saying what is wrong.
 */
export async function assertOutputDir(outputDir: string): Promise<void> {
  const info = await stat(outputDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
    throw error;
  });
  if (!info) throw nothingPublished(outputDir, "no such folder");
  if (!info.isDirectory()) throw nothingPublished(outputDir, "it is not a folder");
}

/**
 * The channel's live entry, from manifest.json or, when it is missing or unreadable, the newest
 * readable copy in history/, as serve and generate do: serve still answers that copy's files, so
 * they are what a rollback replaces and a release unpins (and manifest.json is written again).
 */
async function liveEntry(outputDir: string, channel: string): Promise<{ manifest: Manifest; entry: ChannelEntry & { live: LiveFile }; from: string }> {
  const read = await readPreviousManifest(outputDir);
  if (!read) throw nothingPublished(outputDir, `no readable ${MANIFEST_FILE}, nor a copy in history/`);
  const { manifest, from } = read;
  const entry = manifest.channels.find((c) => c.name === channel);
  if (!entry?.live) throw new PharmafeedError("USAGE", `channel ${channel} has no published file in ${outputDir}`, { context: { channel } });
  return { manifest, entry: entry as ChannelEntry & { live: LiveFile }, from };
}

/**
 * Saves a manifest a rollback or a release changed: a dated copy in history/ under its time (`at`),
 * so the last run's own copy stays as it was (history shows that run, then this change), then
 * manifest.json. The copy is the newest, and the one serve and the next run read when manifest.json
 * is lost: without it a released pin would come back from the rollback's copy.
 */
export async function saveRolledBack(outputDir: string, manifest: Manifest, at: string): Promise<void> {
  await recordInHistory(outputDir, { ...manifest, startedAt: at, endedAt: at });
  await replaceFile(join(outputDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

function withLive(manifest: Manifest, channel: string, live: LiveFile): Manifest {
  return { ...manifest, channels: manifest.channels.map((c) => (c.name === channel ? { ...c, live } : c)) };
}

export async function rollBack(input: RollbackInput): Promise<RollbackDone> {
  const { outputDir, channel, now } = input;
  const { manifest, entry, from } = await liveEntry(outputDir, channel);
  const live = entry.live;
  if (live.pinned && input.to === undefined) {
    throw new PharmafeedError("USAGE", `${channel} is pinned already (since ${live.pinned.at}, by \`${live.pinned.command}\`): name the version with --to, or release it with --release`, { context: { channel } });
  }
  const versions = versionsOf(await readHistory(outputDir), channel);
  const resolved = resolveVersion(versions, input.to ?? "previous");
  if (!resolved.ok) throw new PharmafeedError("USAGE", `${channel}: ${input.to ?? "previous"}: ${resolved.why}`, { context: { channel } });
  const version = resolved.version;
  // Putting the live file back over itself would change nothing but pin it: refused.
  if (version.sha256 === live.sha256) {
    throw new PharmafeedError("USAGE", `${channel}: ${input.to ?? "previous"} is the version served now (published at ${live.publishedAt}, sha256 ${live.sha256.slice(0, 12)}): nothing to put back`, { context: { channel } });
  }
  // Another name is another URL: the marketplace fetches the live file's, which must stay.
  if (version.file !== live.file) {
    throw new PharmafeedError("USAGE", `${channel}: that version was published as ${version.file}, the channel is served as ${live.file} now; putting it back would move the feed's URL`, { context: { channel } });
  }
  const out = new AtomicOutput(join(outputDir, live.file), { gzip: input.gzip });
  let stats;
  try {
    await pipeline(createReadStream(keptPath(outputDir, version.sha256)), createGunzip(), async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) {
        const pending = out.writeBytes(chunk);
        if (pending) await pending;
      }
    });
    stats = await out.finish();
  } catch (error) {
    await out.abort().catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    // Not a whole gzip stream (truncated, not gzip): damaged, so removed as a wrong digest is; an
    // error of the file system (ours to write, or the copy's to open) says nothing of the copy.
    const damaged = typeof code === "string" && code.startsWith("Z_");
    if (damaged) await rm(keptPath(outputDir, version.sha256), { force: true });
    const message = (error as Error).message;
    const why = code === "ENOENT" ? "is no longer kept in history/feeds (pruned)" : damaged ? `cannot be read back: its kept copy is damaged (${message}) and was removed` : `cannot be read back: ${message}`;
    throw new PharmafeedError("STORE_INVALID", `${channel}: the version published at ${version.publishedAt} ${why}`, { cause: error, context: { channel } });
  }
  // Kept state is checked before use: bytes that are not that version are never served (and not kept).
  if (stats.sha256 !== version.sha256) {
    await out.abort().catch(() => undefined);
    await rm(keptPath(outputDir, version.sha256), { force: true });
    throw new PharmafeedError("STORE_INVALID", `${channel}: the kept copy of the version published at ${version.publishedAt} is damaged (its digest is not the version's) and was removed`, { context: { channel } });
  }
  const publishedAt = now.toISOString();
  const back: LiveFile = {
    file: live.file,
    items: version.items,
    bytes: stats.bytes,
    sha256: stats.sha256,
    publishedAt,
    ...(stats.gzip ? { gzip: { file: `${live.file}.gz`, bytes: stats.gzip.bytes } } : {}),
    pinned: { at: publishedAt, command: input.command, versionOf: version.publishedAt },
  };
  // Said before it is done, as a run does: a kill after the rename leaves a file the journal describes.
  const journal = new JournalWriter(outputDir, publishedAt);
  await journal.record({ ...entry, live: back });
  await out.publish();
  const updated = withLive(manifest, channel, back);
  await saveRolledBack(outputDir, updated, publishedAt);
  await journal.remove();
  return { manifest: updated, version, replaced: live, from };
}

/** `rollback --release`: the channel's live version stays, unpinned; the next run publishes as usual. */
export async function release(input: { outputDir: string; channel: string; now: Date }): Promise<{ manifest: Manifest; was?: LiveFile["pinned"]; from: string }> {
  const { manifest, entry, from } = await liveEntry(input.outputDir, input.channel);
  const { pinned, ...live } = entry.live;
  if (!pinned) return { manifest, from };
  const updated = withLive(manifest, input.channel, live);
  await saveRolledBack(input.outputDir, updated, input.now.toISOString());
  return { manifest: updated, was: pinned, from };
}
