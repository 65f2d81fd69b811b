/**
 * The one seam between publish and destinations. `generate` calls
 * pushPublished once manifest.json is written (the local publish never waits
 * on a remote server, and a run killed while uploading leaves a true manifest),
 * then the manifest is rewritten with what went out. `push` calls pushFromManifest.
 */
import { join } from "node:path";
import type { LoadedChannel, LoadedConfig } from "../config/types.js";
import type { Logger } from "../log.js";
import { type ChannelEntry, type Manifest, type Problem, writeManifest } from "../publish/manifest.js";
import { runStatusOf } from "../publish/run-state.js";
import type { DestinationConfig } from "./settings.js";
import { type PushJob, type PushOptions, type PushResult, pushChannels } from "./push.js";

/** A channel entry of this run keeps the records of the last push (what the destinations hold), for the destinations still configured. */
export function withLastUploads(entry: ChannelEntry, previous: ChannelEntry | undefined, configured: readonly DestinationConfig[]): ChannelEntry {
  const kept = (previous?.destinations ?? []).filter((r) => configured.some((d) => d.name === r.name && d.kind === r.kind));
  return kept.length > 0 && !entry.destinations ? { ...entry, destinations: kept } : entry;
}

/** The live files of a channel's entry, as the destinations get them. */
function jobOf(channel: LoadedChannel, entry: ChannelEntry, outputDir: string): PushJob | undefined {
  const live = entry.live;
  if (!live || channel.destinations.length === 0) return undefined;
  const files: PushJob["files"] = [{ local: join(outputDir, live.file), name: live.file, bytes: live.bytes, sha256: live.sha256, contentType: entry.contentType }];
  if (live.gzip) files.push({ local: join(outputDir, live.gzip.file), name: live.gzip.file, bytes: live.gzip.bytes, contentType: entry.contentType, contentEncoding: "gzip" });
  return { channel: channel.name, files, destinations: channel.destinations, last: entry.destinations ?? [] };
}

/** The manifest with the push's records on its entries and its problems in place of the pushed channels' old destination problems. */
export function applyPush(manifest: Manifest, pushed: readonly string[], result: PushResult): Manifest {
  const channels = manifest.channels.map((c) => {
    const records = result.records.get(c.name);
    return records ? { ...c, destinations: records } : c;
  });
  const kept = (manifest.problems ?? []).filter((p) => !(p.kind === "destination" && p.channel !== undefined && pushed.includes(p.channel)));
  const problems: Problem[] = [...kept, ...result.problems];
  // A failed run stays failed; otherwise as the run said, with the problems as they are now.
  const status = manifest.status === "failed" ? "failed" : (manifest.unpublished ?? []).length > 0 ? "degraded" : problems.length > 0 ? "degraded" : "ok";
  const { problems: _, ...rest } = manifest;
  return { ...rest, status, ...(problems.length > 0 ? { problems } : {}), channels };
}

/**
 * After generate's local publish: the channels this run published go to their destinations. Returns
 * the manifest as rewritten (or the same one when no published channel has a destination).
 */
export async function pushPublished(input: { config: LoadedConfig; outputDir: string; manifest: Manifest; ran: readonly ChannelEntry[]; logger: Logger }): Promise<Manifest> {
  const { config, outputDir, manifest, logger } = input;
  const published = new Set(input.ran.filter((e) => e.published === true).map((e) => e.name));
  const jobs = config.channels.flatMap((channel) => {
    const entry = published.has(channel.name) ? manifest.channels.find((c) => c.name === channel.name) : undefined;
    const job = entry ? jobOf(channel, entry, outputDir) : undefined;
    return job ? [job] : [];
  });
  if (jobs.length === 0) return manifest;
  let result: PushResult;
  try {
    result = await pushChannels(jobs, { logger });
  } catch (error) {
    // Failures of a destination are records already; this is anything else. The local publish stands.
    const reason = `uploads not done: ${error instanceof Error ? error.message : String(error)}`;
    logger.error("destinations failed", { error: reason });
    result = { records: new Map(), problems: jobs.map((j) => ({ kind: "destination", code: "DESTINATION_INTERNAL", channel: j.channel, reason })) };
  }
  const names = jobs.map((j) => j.channel);
  const pushed = applyPush(manifest, names, result);
  // As the run computed it, from this run's entries only, with the destinations' problems; the run ends now.
  const final = { ...pushed, status: runStatusOf(input.ran, pushed.problems ?? []), endedAt: new Date().toISOString() };
  await writeManifest(outputDir, final);
  return final;
}

/** `pharmafeed push`: the last published files of the chosen channels, again (or what would go, with dryRun). */
export async function pushFromManifest(input: { config: LoadedConfig; outputDir: string; manifest: Manifest } & PushOptions): Promise<{ manifest: Manifest; jobs: PushJob[]; result: PushResult }> {
  const { config, outputDir, manifest, ...options } = input;
  const jobs = config.channels.flatMap((channel) => {
    const entry = manifest.channels.find((c) => c.name === channel.name);
    const job = entry ? jobOf(channel, entry, outputDir) : undefined;
    return job ? [job] : [];
  });
  const result = await pushChannels(jobs, options);
  if (options.dryRun || jobs.length === 0) return { manifest, jobs, result };
  const updated = applyPush(manifest, jobs.map((j) => j.channel), result);
  await writeManifest(outputDir, updated);
  return { manifest: updated, jobs, result };
}
