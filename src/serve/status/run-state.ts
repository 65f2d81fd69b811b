/**
 * The run state the status page shows. It is the same computation as /healthz,
 * /monitor and the alerts (publish/run-state.ts), only named for the page's words:
 *
 *   failed    the last run failed as a whole (no channel published)
 *   degraded  the last run ended but some channel was not published (gate, failure)
 *   stale     the newest feed online is older than serve.maxFeedAgeHours
 *   ok        everything published, recently
 *   none      no run yet
 */
import type { Manifest } from "../../publish/manifest.js";
import { DEFAULT_MAX_FEED_AGE_HOURS, runState as healthState } from "../../publish/run-state.js";

export type RunStateName = "ok" | "degraded" | "failed" | "stale" | "none";

export interface RunState {
  state: RunStateName;
  /** Per channel not published: why (the manifest's words). */
  why: { channel: string; why: string }[];
  /** The newest live feed's publish time, if any. */
  newestFeedAt: string | undefined;
  /** The sentence /healthz and the alerts say. */
  summary: string;
}

export function runState(manifest: Manifest | undefined, now: Date, maxAgeHours: number = DEFAULT_MAX_FEED_AGE_HOURS): RunState {
  const health = healthState(manifest, now, maxAgeHours);
  // As /healthz: stale wins (old feeds are the news), except when no feed was ever
  // published and the run failed, where "stale" would hide the failure.
  const failed = health.run === "failed";
  const state: RunStateName =
    health.status === "no-run" ? "none" : failed && health.newestFeedAt === undefined ? "failed" : health.status === "stale" ? "stale" : failed ? "failed" : health.status;
  return {
    state,
    why: [...health.unpublished.map((u) => ({ channel: u.channel, why: u.reason })), ...health.problems.map((p) => ({ channel: p.channel ?? "", why: p.reason }))],
    newestFeedAt: health.newestFeedAt,
    summary: health.summary,
  };
}
