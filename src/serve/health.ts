/**
 * What /healthz and /monitor say of one output directory: runState (the status page says the
 * same), the manifest's age and how many feeds are served. One function, so that a shop's own
 * /healthz and the line `serve` gives it in the many-shop /healthz and overview cannot disagree.
 */
import { destinationsView } from "../publish/destination-record.js";
import type { Manifest } from "../publish/manifest.js";
import { runState, type RunState } from "../publish/run-state.js";
import { MANIFEST_FILE } from "../core/layout.js";
import type { LiveFeeds } from "./live-feeds.js";

export interface Health {
  state: RunState;
  /** The JSON body of /healthz and /monitor. */
  body: Record<string, unknown>;
  feedsServed: number;
  manifest: Manifest | undefined;
}

export async function healthOf(live: LiveFeeds, now: Date, maxFeedAgeHours: number): Promise<Health> {
  const { manifest, from, feeds } = await live.current();
  const state = runState(manifest, now, maxFeedAgeHours);
  const body = manifest
    ? {
        status: state.status,
        run: manifest.status,
        lastRunEndedAt: manifest.endedAt,
        manifestAgeSeconds: Math.round((now.getTime() - Date.parse(manifest.endedAt)) / 1000),
        feedsServed: feeds.length,
        ...(state.newestFeedAt === undefined ? {} : { newestFeedAt: state.newestFeedAt, newestFeedAgeHours: state.newestFeedAgeHours }),
        maxFeedAgeHours: state.maxFeedAgeHours,
        ...(state.unpublished.length > 0 ? { unpublished: state.unpublished } : {}),
        // What else the run could not do: a served feed the config no longer names, kept state, ...
        ...(state.problems.length > 0 ? { problems: state.problems } : {}),
        ...(state.error ? { error: state.error } : {}),
        ...(state.pinned.length > 0 ? { pinned: state.pinned } : {}),
        // Where the feeds were pushed (S3, SFTP, FTP) and how the last push went.
        ...(manifest.channels.some((c) => c.destinations) ? { destinations: destinationsView(manifest.channels) } : {}),
        summary: state.summary,
        // For a monitor: manifest.json is lost and the feeds come from the last run's copy.
        ...(from !== undefined && from !== MANIFEST_FILE ? { manifestFrom: from } : {}),
      }
    : { status: "no-manifest", feedsServed: 0, summary: state.summary };
  return { state, body, feedsServed: feeds.length, manifest };
}
