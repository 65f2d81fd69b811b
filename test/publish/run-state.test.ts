/** runState: the one function behind /healthz, /monitor, the status page header and the alerts. */
import { describe, expect, it } from "vitest";
import { Manifest, type ChannelEntry } from "../../src/publish/manifest.js";
import { runState, runStatusOf, unpublishedOf, WOULD_PUBLISH } from "../../src/publish/run-state.js";

const NOW = new Date("2026-11-25T12:00:00.000Z");

function entry(name: string, published: true | string, publishedAt: string | null = "2026-11-25T02:16:00.000Z"): ChannelEntry {
  return {
    name, preset: "google", locale: "fr", format: "xml", contentType: "application/xml; charset=utf-8", file: `${name}.xml`,
    items: 10, excluded: {}, warnings: {}, fallbacks: {}, bytes: 10, sha256: "ab", published,
    live: publishedAt === null ? null : { file: `${name}.xml`, items: 10, bytes: 10, sha256: "ab", publishedAt },
  };
}

function manifest(channels: ChannelEntry[], extra: Record<string, unknown> = {}): Manifest {
  return Manifest.parse({
    version: 1, startedAt: "2026-11-25T02:15:00.000Z", endedAt: "2026-11-25T02:16:00.000Z", status: runStatusOf(channels),
    source: { total: 10, received: 10, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 }, channels, ...extra,
  });
}

describe("runStatusOf and unpublishedOf", () => {
  it("ok only when every channel run was published; failed when none; degraded between", () => {
    expect(runStatusOf([entry("a", true), entry("b", true)])).toBe("ok");
    expect(runStatusOf([entry("a", true), entry("b", "gate: items dropped 30.0%")])).toBe("degraded");
    expect(runStatusOf([entry("a", "failed: disk full"), entry("b", "gate: x")])).toBe("failed");
    expect(runStatusOf([])).toBe("failed");
    // A dry run's status says what the real run's would be.
    expect(runStatusOf([entry("a", WOULD_PUBLISH), entry("b", WOULD_PUBLISH)])).toBe("ok");
    expect(unpublishedOf([entry("a", true), entry("b", "gate: x"), entry("c", "failed: y"), entry("d", WOULD_PUBLISH)])).toEqual([
      { channel: "b", kind: "gate", reason: "gate: x" },
      { channel: "c", kind: "failed", reason: "failed: y" },
    ]);
  });

  it("a run that published every channel but reports a problem beside them is degraded, and every surface says why", () => {
    const problems = [{ kind: "state" as const, code: "STATE_NOT_WRITTEN", reason: "the snapshot was not written: disk full" }];
    expect(runStatusOf([entry("a", true)], problems)).toBe("degraded");
    expect(runStatusOf([entry("a", "failed: x")], problems)).toBe("failed");
    const m = manifest([entry("a", true)], { status: "degraded", problems });
    const state = runState(m, NOW);
    expect(state.status).toBe("degraded");
    expect(state.problems).toEqual(problems);
    expect(state.summary).toBe("Degraded: the last run published all 1 feed; the snapshot was not written: disk full.");
  });

  it("reads a manifest of an older version's 'partial' as degraded", () => {
    expect(Manifest.parse({ ...manifest([entry("a", true)]), status: "partial" }).status).toBe("degraded");
  });
});

describe("runState", () => {
  it("no-run without a manifest", () => {
    expect(runState(undefined, NOW)).toMatchObject({ status: "no-run", alert: true });
  });

  it("ok, degraded, stale", () => {
    expect(runState(manifest([entry("a", true)]), NOW, 36)).toMatchObject({ status: "ok", alert: false, newestFeedAgeHours: 9.7, summary: "OK: the last run published all 1 feed." });
    const degraded = runState(manifest([entry("a", true), entry("b", "gate: items dropped 30.0%")]), NOW, 36);
    expect(degraded).toMatchObject({ status: "degraded", run: "degraded", alert: true, unpublished: [{ channel: "b", kind: "gate" }] });
    expect(degraded.summary).toBe("Degraded: the last run left 1 feed unpublished: b (gate: items dropped 30.0%).");
    // Stale wins over the run's status: nothing fresh is online.
    expect(runState(manifest([entry("a", true)]), NOW, 6)).toMatchObject({ status: "stale", run: "ok", alert: true });
    expect(runState(manifest([entry("a", "failed: x", null)]), NOW, 36)).toMatchObject({ status: "stale", summary: expect.stringMatching(/^Stale: no feed is online;/) as unknown as string });
  });

  it("a run that failed as a whole names its error", () => {
    const failed = manifest([entry("a", "failed: the run failed (SOURCE_AUTH); previous file kept")], { status: "failed", error: { code: "SOURCE_AUTH", message: "HTTP 401" } });
    expect(runState(failed, NOW, 36)).toMatchObject({ status: "degraded", run: "failed", error: { code: "SOURCE_AUTH" }, summary: "Degraded: the last run failed: SOURCE_AUTH: HTTP 401." });
  });
});

describe("a feed pinned by rollback", () => {
  it("is said by every surface from the rollback on (summary, the state's list), before a run holds it", () => {
    const pinned = entry("google-fr", true);
    pinned.live = { ...pinned.live!, pinned: { at: "2026-11-25T09:00:00.000Z", command: "pharmafeed rollback --channel google-fr", versionOf: "2026-11-24T02:16:00.000Z" } };
    const state = runState(manifest([pinned, entry("idealo-fr", true)]), NOW);
    expect(state.status).toBe("ok");
    expect(state.pinned).toEqual([{ channel: "google-fr", at: "2026-11-25T09:00:00.000Z", command: "pharmafeed rollback --channel google-fr" }]);
    expect(state.summary).toContain("Pinned by rollback: google-fr since 2026-11-25T09:00:00.000Z (`pharmafeed rollback --channel google-fr`).");
    expect(runState(manifest([entry("idealo-fr", true)]), NOW).summary).not.toContain("Pinned");
  });
});
