/**
 * What `generate` does once the run is over, whatever its outcome: with
 * `--log-format json` one last `run summary` event (the table is for people
 * and stays out of a JSON log); then the alerts of the `notify` section. Its
 * exit code is the one cli.ts returns, from the same error.
 */
import type { LoadedConfig } from "../config/types.js";
import { exitCodeFor, isPharmafeedError, PharmafeedError } from "../errors.js";
import type { Logger } from "../log.js";
import type { GenerateResult } from "../pipeline/run.js";
import { summaryEvent } from "../pipeline/summary.js";
import { unpublishedOf } from "../publish/run-state.js";
import { notify, runAlert } from "../notify/index.js";

export interface RunEnd {
  logger: Logger;
  config: LoadedConfig;
  /** The run's result, unless it failed as a whole. */
  result?: GenerateResult;
  /** The error the run ends with (its exit code), if any. */
  outcome?: unknown;
  /** A dry run alerts nobody. */
  dryRun: boolean;
  /** The last run died without finishing (runwatch/watch.ts): the summary event says so. */
  previousDied?: { startedAt: string; diedAt: string; message: string };
}

function errorOf(outcome: unknown): { code: string; message: string } | undefined {
  if (outcome === undefined) return undefined;
  if (isPharmafeedError(outcome)) return { code: outcome.code, message: outcome.message };
  return { code: "UNEXPECTED", message: outcome instanceof Error ? (outcome.stack ?? outcome.message) : String(outcome) };
}

/**
 * Logs the summary event (JSON logs) and returns the error to throw, marked as
 * reported so that cli.ts does not write a second final line.
 */
export async function endRun(end: RunEnd): Promise<unknown> {
  const { logger, outcome } = end;
  const exitCode = outcome === undefined ? 0 : exitCodeFor(outcome);
  const error = errorOf(outcome);
  // Alerts first, so that a JSON log still ends with the summary; a failing notifier is logged, never thrown.
  if (error && !end.dryRun) {
    const alert = runAlert({
      shop: end.config.shop.name,
      ...(end.config.notify?.statusUrl ? { statusUrl: end.config.notify.statusUrl } : {}),
      ...(end.result ? { manifest: end.result.manifest } : {}),
      channels: end.config.channels.map((c) => c.name),
      // The whole message (an offers file's refusal lists its reasons on the lines after the first), not a stack.
      error: { code: error.code, message: error.code === "UNEXPECTED" ? error.message.split("\n")[0]! : error.message },
      exitCode,
      configFile: end.config.file,
      ...(end.config.shopId ? { shopId: end.config.shopId } : {}),
      ...(isPharmafeedError(outcome) && typeof outcome.context["forceHelps"] === "boolean" ? { forceHelps: outcome.context["forceHelps"] } : {}),
      ...(end.config.notify ? { language: end.config.notify.language } : {}),
    });
    await notify(end.config.notify, alert, logger);
  }
  if (logger.format !== "json") return outcome;
  const fields = summaryEvent({
    ...(end.result ? { manifest: end.result.manifest } : {}),
    channels: end.config.channels.map((c) => c.name),
    exitCode,
    ...(error ? { error } : {}),
  });
  if (end.previousDied) fields["previousRun"] = { status: "died", startedAt: end.previousDied.startedAt, diedAt: end.previousDied.diedAt };
  if (exitCode === 0) logger.info("run summary", fields);
  else logger.error("run summary", fields);
  if (outcome === undefined) return undefined;
  const marked = isPharmafeedError(outcome) ? outcome : new PharmafeedError("INTERNAL", error!.message, { cause: outcome });
  marked.context["reported"] = true;
  return marked;
}

/** Throws the run's error when a channel failed or was gated (the exit code); returns when every channel was published. */
export function runOutcome({ manifest }: GenerateResult): void {
  // This run's channels only: a channel `--channel` left alone keeps its entry, and the verdict in it
  // is an earlier run's (a review found a pinned channel's old gate made a run of another exit 5).
  const unpublished = manifest.unpublished ?? unpublishedOf(manifest.channels);
  // By the reason's first word, as before: a dry run's "would not publish (gate ...)" is no failure of the dry run.
  const failed = unpublished.filter((u) => u.reason.startsWith("failed"));
  if (failed.length > 0) {
    throw new PharmafeedError("CHANNEL_FAILED", `${failed.length} channel(s) failed: ${failed.map((u) => `${u.channel} (${u.reason})`).join("; ")}`);
  }
  const gated = unpublished.filter((u) => u.reason.startsWith("gate"));
  if (gated.length > 0) {
    throw new PharmafeedError("GATE_TRIPPED", `not published, previous file kept: ${gated.map((u) => `${u.channel} (${u.reason})`).join("; ")}`);
  }
  const problems = manifest.problems ?? [];
  if (problems.length > 0) {
    throw new PharmafeedError("RUN_DEGRADED", `every feed was published, but: ${problems.map((p) => (p.channel ? `${p.channel}: ${p.reason}` : p.reason)).join("; ")}`);
  }
}
