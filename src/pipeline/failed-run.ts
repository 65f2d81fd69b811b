/**
 * A run that failed as a whole (the source refused, an interruption, an
 * unexpected error) is recorded too: a manifest with status `failed`, the
 * error, and every channel of the run marked not published. The live files of
 * the last good run stay listed, so `serve` keeps serving them while healthz,
 * the status page and the monitor say the run failed.
 */
import type { LoadedChannel, LoadedConfig } from "../config/types.js";
import { isPharmafeedError } from "../errors.js";
import type { Logger } from "../log.js";
import { type ChannelEntry, type Manifest, readPreviousManifest, writeManifest } from "../publish/manifest.js";
import { unpublishedOf } from "../publish/run-state.js";
import { heldFeeds } from "../publish/held-feeds.js";
import { WRITERS } from "../writers/registry.js";
import { clearFailureRecord, writeFailureRecord } from "../publish/failure-record.js";
import { REPORTS_DIR } from "../core/layout.js";

/** The error's stable code, as the CLI reports it. */
export function errorCodeOf(error: unknown, interrupted: boolean): string {
  if (interrupted) return "INTERRUPTED";
  return isPharmafeedError(error) ? error.code : "UNEXPECTED";
}

function failedEntry(channel: LoadedChannel, previous: ChannelEntry | undefined, reason: string): ChannelEntry {
  return {
    name: channel.name,
    preset: channel.preset.name,
    locale: channel.mapping.locale,
    format: channel.format,
    contentType: WRITERS[channel.format].contentType,
    file: channel.outputFile,
    // Nothing of this run was written: counts of zero, the previous live file kept.
    items: 0,
    excluded: {},
    warnings: {},
    fallbacks: {},
    bytes: 0,
    sha256: "",
    published: reason,
    report: `${REPORTS_DIR}/${channel.name}.csv`,
    live: previous?.live ?? null,
  };
}

/** Writes the failed run's manifest; a failure to write it is logged, never hides the run's error. */
export async function recordFailedRun(input: {
  outputDir: string;
  config: LoadedConfig;
  startedAt: Date;
  error: unknown;
  interrupted: boolean;
  logger: Logger;
  /** The offers file this run refused (the status page shows its figures and why, beside the live feeds'). */
  offersRefused?: Manifest["offersRefused"];
}): Promise<void> {
  const { outputDir, config, logger } = input;
  try {
    const previous = (await readPreviousManifest(outputDir))?.manifest;
    const byName = new Map((previous?.channels ?? []).map((c) => [c.name, c]));
    const code = errorCodeOf(input.error, input.interrupted);
    const message = input.error instanceof Error ? input.error.message : String(input.error);
    const entries = config.channels.map((c) => failedEntry(c, byName.get(c.name), `failed: the run failed (${code}); previous file kept`));
    const ran = new Set(entries.map((e) => e.name));
    const kept = (previous?.channels ?? []).filter((c) => !ran.has(c.name) && config.channelNames.includes(c.name));
    // A failed run retires nothing: served channels the config no longer names stay served.
    const held = heldFeeds({ previous: previous?.channels ?? [], configured: config.channelNames, retire: new Set(), force: false });
    const manifest: Manifest = {
      version: 1,
      startedAt: input.startedAt.toISOString(),
      endedAt: new Date().toISOString(),
      status: "failed",
      unpublished: unpublishedOf(entries),
      error: { code, message },
      ...(held.problems.length > 0 ? { problems: held.problems } : {}),
      source: { total: null, received: 0, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 },
      channels: [...entries, ...kept, ...held.held],
      // The offers the live feeds were built with: the next run's offers.maxDropPercent
      // compares with them, not with a refused file (which would disarm the check).
      ...(previous?.offers ? { offers: previous.offers } : {}),
      ...(input.offersRefused ? { offersRefused: input.offersRefused } : {}),
    };
    await writeManifest(outputDir, manifest);
    await clearFailureRecord(outputDir);
  } catch (error) {
    // A full disk: the failure still reaches /healthz, /monitor and the status page (publish/failure-record.ts).
    const unrecorded = (error as Error).message;
    const code = errorCodeOf(input.error, input.interrupted);
    const message = input.error instanceof Error ? input.error.message : String(input.error);
    const kept = await writeFailureRecord(outputDir, { startedAt: input.startedAt.toISOString(), endedAt: new Date().toISOString(), error: { code, message }, unrecorded });
    logger.warn("the failed run could not be recorded in manifest.json", { error: unrecorded, recordedIn: kept ? "a failure record that serve reads" : "nowhere (the exit code and the alerts say it)" });
  }
}
