/**
 * One truth for every surface: the manifest's run status, `/healthz`,
 * `/monitor`, the status page header, the CLI summary and the alerts all say
 * what these functions compute, so they cannot disagree.
 *
 *   entries of a run ─> runStatusOf / unpublishedOf ─> manifest.status, .unpublished
 *   manifest + clock ─> runState ─> ok | degraded | stale | no-run
 */
import type { ChannelEntry, Manifest, Problem, RunStatus, Unpublished } from "./manifest.js";
import type { PartOutcome } from "./run-parts.js";

/** Default of `serve.maxFeedAgeHours`: a nightly run plus a day's margin for one missed night. */
export const DEFAULT_MAX_FEED_AGE_HOURS = 36;

/** A dry run's `published` text for a channel the real run would publish: counted as published, so a dry run's status says what the real run's would be. */
export const WOULD_PUBLISH = "dry run: would publish";

function publishes(entry: ChannelEntry): boolean {
  return entry.published === true || entry.published === WOULD_PUBLISH;
}

/** Gate and failure reasons start with these words (channel-run.ts). */
function kindOf(reason: string): Unpublished["kind"] {
  if (reason.startsWith("gate") || reason.startsWith("dry run: would not publish (gate")) return "gate";
  if (reason.startsWith("failed")) return "failed";
  return "other";
}

/** The channels of a run that were not published, and why. */
export function unpublishedOf(entries: readonly ChannelEntry[]): Unpublished[] {
  return entries.flatMap((e) => (publishes(e) || e.published === true ? [] : [{ channel: e.name, kind: kindOf(e.published), reason: e.published }]));
}

/**
 * ok: every channel run was published and nothing else went wrong; failed: none was (or no channel
 * ran); degraded otherwise (a channel left out, or a problem beside the channels, see Problem).
 */
export function runStatusOf(entries: readonly ChannelEntry[], problems: readonly Problem[] = []): RunStatus {
  const published = entries.filter(publishes).length;
  if (entries.length > 0 && published === entries.length) return problems.length > 0 ? "degraded" : "ok";
  return published === 0 ? "failed" : "degraded";
}

/**
 * A part of the run that came after the manifest (publish/run-parts.ts: a sink or a hook) added
 * problems or updated channel entries: the manifest with them, its status by runStatusOf's rule
 * (a failed run stays failed; a run that left a channel unpublished stays degraded; otherwise
 * problems make it degraded).
 */
export function applyOutcome(manifest: Manifest, outcome: PartOutcome): Manifest {
  const channels = outcome.channels ? manifest.channels.map((c) => outcome.channels!.get(c.name) ?? c) : manifest.channels;
  const kept = (manifest.problems ?? []).filter((p) => !outcome.supersedes?.(p));
  const listed = new Set(kept.map(problemKey));
  const problems = [...kept, ...outcome.problems.filter((p) => !listed.has(problemKey(p)))];
  const published = (manifest.unpublished ?? unpublishedOf(channels)).length === 0;
  const status = manifest.status === "failed" ? "failed" : published ? (problems.length > 0 ? "degraded" : "ok") : "degraded";
  const { problems: _, ...rest } = manifest;
  return { ...rest, status, ...(problems.length > 0 ? { problems } : {}), channels };
}

function problemKey(p: Problem): string {
  return `${p.kind}|${p.code}|${p.channel ?? ""}|${p.reason}`;
}

export type HealthStatus = "ok" | "degraded" | "stale" | "no-run";

export interface RunState {
  /**
   * ok: the last run published every channel and the newest feed is recent;
   * degraded: the last run left a channel unpublished or failed; stale: the
   * newest feed is older than the bound (or there is none), whatever the run
   * said; no-run: no manifest yet.
   */
  status: HealthStatus;
  /** The manifest's own status, when there is one. */
  run?: RunStatus;
  /** A monitor should alert: anything but ok. */
  alert: boolean;
  /** The newest publish time of a live feed. */
  newestFeedAt?: string;
  /** Its age in hours (one decimal). */
  newestFeedAgeHours?: number;
  maxFeedAgeHours: number;
  unpublished: Unpublished[];
  /** What else the last run could not do (manifest.problems). */
  problems: Problem[];
  error?: { code: string; message: string };
  /** Feeds put back by `pharmafeed rollback` and pinned (the manifest's live.pinned): runs do not replace them until released. */
  pinned: { channel: string; at: string; command: string }[];
  /** One sentence for a person (status page header, alert text). */
  summary: string;
}

function newestLive(manifest: Manifest): string | undefined {
  let newest: string | undefined;
  for (const c of manifest.channels) {
    const at = c.live?.publishedAt;
    if (at !== undefined && (newest === undefined || Date.parse(at) > Date.parse(newest))) newest = at;
  }
  return newest;
}

function describe(status: HealthStatus, manifest: Manifest, unpublished: readonly Unpublished[], ageHours: number | undefined, maxAgeHours: number): string {
  // A held feed (the config no longer names it, held-feeds.ts) was not published by this run: not counted as one.
  const held = new Set((manifest.problems ?? []).flatMap((p) => (p.kind === "served" && p.channel ? [p.channel] : [])));
  const ran = manifest.channels.filter((c) => !held.has(c.name)).length;
  const listed = unpublished.map((u) => `${u.channel} (${u.reason})`).join("; ");
  const problems = manifest.problems ?? [];
  const runPart =
    manifest.status !== "failed" && unpublished.length === 0
      ? `the last run published all ${ran} feed${ran === 1 ? "" : "s"}`
      : manifest.error
        ? `the last run failed: ${manifest.error.code}: ${manifest.error.message}`
        : `the last run left ${unpublished.length} feed${unpublished.length === 1 ? "" : "s"} unpublished: ${listed}`;
  const problemPart = problems.length === 0 ? "" : `; ${problems.map((p) => (p.channel ? `${p.channel}: ${p.reason}` : p.reason)).join("; ")}`;
  if (status === "stale") {
    const age = ageHours === undefined ? "no feed is online" : `the newest feed is ${ageHours.toFixed(1)} h old (more than ${maxAgeHours} h)`;
    return `Stale: ${age}; ${runPart}${problemPart}.`;
  }
  return `${status === "ok" ? "OK" : "Degraded"}: ${runPart}${problemPart}.`;
}

/** What the last run and the age of the feeds mean now; healthz, /monitor and the status page all use it. */
export function runState(manifest: Manifest | undefined, now: Date, maxAgeHours: number = DEFAULT_MAX_FEED_AGE_HOURS): RunState {
  if (!manifest) {
    return { status: "no-run", alert: true, maxFeedAgeHours: maxAgeHours, unpublished: [], problems: [], pinned: [], summary: "No run yet: run pharmafeed generate." };
  }
  const unpublished = manifest.unpublished ?? unpublishedOf(manifest.channels);
  const newestFeedAt = newestLive(manifest);
  const ageHours = newestFeedAt === undefined ? undefined : Math.max(0, Math.round((now.getTime() - Date.parse(newestFeedAt)) / 360_000) / 10);
  // Compared in milliseconds: the rounded age would call 36 h 1 min "36.0" and not stale.
  const stale = newestFeedAt === undefined || now.getTime() - Date.parse(newestFeedAt) > maxAgeHours * 3_600_000;
  const status: HealthStatus = stale ? "stale" : manifest.status === "ok" ? "ok" : "degraded";
  const pinned = manifest.channels.flatMap((c) => (c.live?.pinned ? [{ channel: c.name, at: c.live.pinned.at, command: c.live.pinned.command }] : []));
  // Said from the rollback on, before a run holds the feed (which then makes the run degraded).
  const pins = pinned.length === 0 ? "" : ` Pinned by rollback: ${pinned.map((p) => `${p.channel} since ${p.at} (\`${p.command}\`)`).join("; ")}.`;
  return {
    status,
    run: manifest.status,
    alert: status !== "ok",
    ...(newestFeedAt === undefined ? {} : { newestFeedAt, newestFeedAgeHours: ageHours }),
    maxFeedAgeHours: maxAgeHours,
    unpublished,
    problems: manifest.problems ?? [],
    ...(manifest.error ? { error: manifest.error } : {}),
    pinned,
    summary: describe(status, manifest, unpublished, ageHours, maxAgeHours) + pins,
  };
}
