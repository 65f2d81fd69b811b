/** What the summary and the status page say about a run's source. */
import { describe, expect, it } from "vitest";
import type { Manifest } from "../../src/publish/manifest.js";
import { formatSummary } from "../../src/pipeline/summary.js";
import { syncStatus } from "../../src/snapshot/describe.js";

const manifest = (sync: Manifest["sync"]): Manifest => ({
  version: 1,
  startedAt: "2026-01-01T12:00:00.000Z",
  endedAt: "2026-01-01T12:00:05.000Z",
  status: "ok",
  source: { total: 10, received: 10, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 },
  sync,
  channels: [],
});

describe("the source of a run, as shown", () => {
  it("in the summary: the source, the sync time and age, the delta's counts, a fallback's reason", () => {
    expect(formatSummary(manifest({ requested: "snapshot", used: "snapshot", syncedAt: "2026-01-01T11:45:00.000Z", ageSeconds: 900 }))).toContain(
      "catalogue: snapshot of 2026-01-01T11:45:00.000Z (15 min old), no catalogue request",
    );
    expect(formatSummary(manifest({ requested: "delta", used: "delta", syncedAt: "2026-01-01T12:00:00.000Z", ageSeconds: 0, delta: { changed: 3, added: 1, removed: 2, received: 6, bytes: 100 } }))).toContain(
      "catalogue: delta merged into the snapshot at 2026-01-01T12:00:00.000Z (6 products received from the catalogue: 3 changed, 1 new, 2 removed)",
    );
    // The products mapped came from the merged snapshot, not all over the wire.
    expect(formatSummary(manifest({ requested: "delta", used: "delta", syncedAt: "2026-01-01T12:00:00.000Z", ageSeconds: 0 }))).toContain("source: 10 products from the snapshot of 10,");
    expect(formatSummary(manifest({ requested: "full", used: "full", syncedAt: "2026-01-01T12:00:00.000Z", ageSeconds: 0 }))).toContain("source: 10 products received of 10,");
    expect(formatSummary(manifest({ requested: "delta", used: "full", fallback: "no snapshot yet", syncedAt: "2026-01-01T12:00:00.000Z", ageSeconds: 0 }))).toContain(
      "catalogue: full read at 2026-01-01T12:00:00.000Z; delta asked for, but no snapshot yet",
    );
  });

  it("in the summary: how many products a refresh copied from the last run's files, or why it mapped them all", () => {
    const sync = { requested: "snapshot", used: "snapshot", syncedAt: "2026-01-01T11:45:00.000Z", ageSeconds: 900 } as const;
    expect(formatSummary(manifest({ ...sync, reuse: { reused: 77263, mapped: 778 } }))).toContain("no catalogue request; 77,263 products copied from the last run's files, 778 mapped");
    expect(formatSummary(manifest({ ...sync, reuse: { reused: 0, mapped: 10, reason: "--no-reuse" } }))).toContain("no catalogue request; every product mapped (--no-reuse)");
    const delta = { requested: "delta", used: "delta", syncedAt: "2026-01-01T12:00:00.000Z", ageSeconds: 0, delta: { changed: 3, added: 1, removed: 0, received: 4, bytes: 100 } } as const;
    expect(formatSummary(manifest({ ...delta, reuse: { reused: 9996, mapped: 4 } }))).toContain("1 new, 0 removed); 9,996 products copied from the last run's files, 4 mapped");
    expect(formatSummary(manifest({ requested: "full", used: "full", syncedAt: sync.syncedAt, ageSeconds: 0, reuse: { reused: 0, mapped: 10, reason: "the run reads the catalogue" } }))).not.toContain("mapped");
  });

  it("on the status page: the source and the sync's age at the page's time, a fallback's reason apart", () => {
    const now = new Date("2026-01-01T12:30:00.000Z");
    expect(syncStatus({ requested: "snapshot", used: "snapshot", syncedAt: "2026-01-01T12:00:00.000Z", ageSeconds: 60 }, now)).toEqual({ text: "catalogue: snapshot, synced 30 min ago" });
    expect(syncStatus({ requested: "delta", used: "full", fallback: "no snapshot yet", syncedAt: "2026-01-01T12:29:30.000Z", ageSeconds: 0 }, now)).toEqual({
      text: "catalogue: full read, synced 30 s ago",
      fallback: "delta asked for, read in full: no snapshot yet",
    });
  });
});
