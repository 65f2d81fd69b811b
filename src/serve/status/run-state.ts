/**
 * The run state the status page shows, read from the manifest through this one
 * function, so that the manifest's own vocabulary can change without the page
 * noticing: `status` was ok | partial | failed and becomes ok | degraded | failed
 * with a `why` per channel; both are read here.
 *
 *   failed    the run failed as a whole (no channel published)
 *   degraded  the run ended but some channel was not published (gate, failure)
 *   stale     the newest feed online is older than STALE_HOURS: the nightly job stopped
 *   ok        everything published, recently
 */
import type { Manifest } from "../../publish/manifest.js";

export const STALE_HOURS = 36;

export type RunStateName = "ok" | "degraded" | "failed" | "stale" | "none";

export interface RunState {
  state: RunStateName;
  /** Per channel not published: why (the manifest's words). */
  why: { channel: string; why: string }[];
  /** The newest live feed's publish time, if any. */
  newestFeedAt: string | undefined;
}

/** A channel entry as any manifest version writes it: `published` true or why not, maybe a `why` of its own. */
interface AnyChannel {
  name: string;
  published: true | string;
  why?: unknown;
  live: { publishedAt: string } | null;
}

export function runState(manifest: Manifest | undefined, now: Date): RunState {
  if (!manifest) return { state: "none", why: [], newestFeedAt: undefined };
  const channels = manifest.channels as unknown as AnyChannel[];
  const why = channels
    .filter((c) => c.published !== true)
    .map((c) => ({ channel: c.name, why: typeof c.why === "string" && c.why !== "" ? c.why : String(c.published) }));
  const newest = channels
    .map((c) => c.live?.publishedAt)
    .filter((t): t is string => typeof t === "string")
    .sort()
    .at(-1);
  const status = manifest.status as string;
  let state: RunStateName = status === "failed" ? "failed" : status === "partial" || status === "degraded" || why.length > 0 ? "degraded" : "ok";
  if (state !== "failed" && (newest === undefined || now.getTime() - Date.parse(newest) > STALE_HOURS * 3600_000)) state = "stale";
  return { state, why, newestFeedAt: newest };
}
