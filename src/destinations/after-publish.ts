/**
 * The one seam between publish and destinations: `generate` runs destinationsHook once
 * manifest.json is written, then the manifest is rewritten with what went out (pipeline/run.ts);
 * `push` calls pushFromManifest.
 */
import { join } from "node:path";
import type { LoadedChannel, LoadedConfig } from "../config/types.js";
import type { Logger } from "../log.js";
import { type ChannelEntry, type Manifest, writeManifest } from "../publish/manifest.js";
import { applyOutcome } from "../publish/run-state.js";
import type { AfterPublishHook, PartOutcome } from "../publish/run-parts.js";
import type { DestinationConfig } from "./settings.js";
import { problemPrefix, type PushJob, type PushOptions, type PushResult, pushChannels } from "./push.js";

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

/** What a push changes in a manifest: the records on the pushed channels' entries, its problems in place of their old destination problems. */
function pushOutcome(manifest: Manifest, jobs: readonly PushJob[], result: PushResult): PartOutcome {
  const pushed = jobs.map((j) => j.channel);
  // A problem of several channels names its destination instead of a channel.
  const destinations = [...new Set(jobs.flatMap((j) => j.destinations.map((d) => problemPrefix(d.name))))];
  const channels = new Map(manifest.channels.flatMap((c) => {
    const records = result.records.get(c.name);
    return records ? [[c.name, { ...c, destinations: records }] as const] : [];
  }));
  return { problems: result.problems, channels, supersedes: (p) => p.kind === "destination" && (p.channel !== undefined ? pushed.includes(p.channel) : destinations.some((d) => p.reason.startsWith(`${d} `) || p.reason.startsWith(`${d}:`))) };
}

/**
 * After generate's local publish (publish/run-parts.ts): the channels this run published go to their
 * destinations. The local publish never waits on a remote server, and a run killed while uploading
 * leaves a true manifest.
 */
/** `signal`: the run's; a stop ends a wait before a retry, and what was not sent is said. */
export function destinationsHook(config: LoadedConfig, logger: Logger, signal?: AbortSignal): AfterPublishHook {
  return {
    name: "destinations",
    async run({ outputDir, manifest, entries, dryRun }) {
      if (dryRun) return { problems: [] };
      const published = new Set(entries.filter((e) => e.published === true).map((e) => e.name));
      const jobs = config.channels.flatMap((channel) => {
        const entry = published.has(channel.name) ? manifest.channels.find((c) => c.name === channel.name) : undefined;
        const job = entry ? jobOf(channel, entry, outputDir) : undefined;
        return job ? [job] : [];
      });
      if (jobs.length === 0) return { problems: [] };
      let result: PushResult;
      try {
        result = await pushChannels(jobs, { logger, outputDir, ...(signal ? { signal } : {}) });
      } catch (error) {
        // Failures of a destination are records already; this is anything else. The local publish stands.
        const reason = `uploads not done: ${error instanceof Error ? error.message : String(error)}`;
        logger.error("destinations failed", { error: reason });
        result = { records: new Map(), problems: jobs.map((j) => ({ kind: "destination", code: "DESTINATION_INTERNAL", channel: j.channel, reason })) };
      }
      return pushOutcome(manifest, jobs, result);
    },
  };
}

/** `pharmafeed push`: the last published files of the chosen channels, again (or what would go, with dryRun). */
export async function pushFromManifest(
  input: { config: LoadedConfig; outputDir: string; manifest: Manifest; write?: (manifest: Manifest) => Promise<void> } & PushOptions,
): Promise<{ manifest: Manifest; jobs: PushJob[]; result: PushResult }> {
  // `write`: how the updated manifest is saved (rollback records its own history copy, not the last run's).
  const { config, outputDir, manifest, write = (m: Manifest) => writeManifest(outputDir, m), ...options } = input;
  const jobs = config.channels.flatMap((channel) => {
    const entry = manifest.channels.find((c) => c.name === channel.name);
    const job = entry ? jobOf(channel, entry, outputDir) : undefined;
    return job ? [job] : [];
  });
  const result = await pushChannels(jobs, { outputDir, ...options });
  if (options.dryRun || jobs.length === 0) return { manifest, jobs, result };
  const updated = applyOutcome(manifest, pushOutcome(manifest, jobs, result));
  await write(updated);
  return { manifest: updated, jobs, result };
}
