/** One line that says where a run's products came from, for the summary, the status page and the log. */
import type { Manifest } from "../publish/manifest.js";

/** A duration as people say it: 45 s, 12 min, 3.5 h, 2.1 days. */
export function formatAge(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} days`;
}

/** "snapshot of 2026-01-01T02:00:00.000Z (15 min old)", with the fallback's reason when there was one. */
export function describeSync(sync: NonNullable<Manifest["sync"]>): string {
  const what =
    sync.used === "snapshot"
      ? `snapshot of ${sync.syncedAt} (${formatAge(sync.ageSeconds)} old), no catalogue request`
      : sync.used === "delta"
        ? `delta merged into the snapshot at ${sync.syncedAt}` +
          (sync.delta ? ` (${sync.delta.received ?? 0} products received from the catalogue: ${sync.delta.changed ?? 0} changed, ${sync.delta.added ?? 0} new, ${sync.delta.removed ?? 0} removed)` : "")
        : `full read at ${sync.syncedAt}`;
  const described = sync.fallback ? `${what}; ${sync.requested} asked for, but ${sync.fallback}` : what;
  // A refresh or a delta says how many products it copied from the last run's files (src/rowcache/), or why none.
  const reuse = sync.used === "full" ? undefined : sync.reuse;
  if (!reuse) return described;
  const n = (count: number) => count.toLocaleString("en");
  return reuse.reason !== undefined ? `${described}; every product mapped (${reuse.reason})` : `${described}; ${n(reuse.reused)} products copied from the last run's files, ${n(reuse.mapped)} mapped`;
}

/**
 * The status page's line (plain text: the page escapes it): which source the
 * last run read and how old its sync is at `now`; `fallback` when a delta or a
 * refresh read in full instead, with the reason.
 */
export function syncStatus(sync: NonNullable<Manifest["sync"]>, now: Date): { text: string; fallback?: string } {
  const age = Math.max(0, Math.round((now.getTime() - Date.parse(sync.syncedAt)) / 1000));
  const text = `catalogue: ${sync.used === "snapshot" ? "snapshot" : `${sync.used} read`}, synced ${formatAge(age)} ago`;
  return sync.fallback ? { text, fallback: `${sync.requested} asked for, read in full: ${sync.fallback}` } : { text };
}
