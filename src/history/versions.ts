/**
 * The versions a channel has published, oldest first, read from the manifests kept in history/
 * (publish/manifest.ts): a new version each time the file live after a run is another one. A
 * version put back by `rollback` is published again, so it appears again. `diff` and `rollback`
 * name versions by what a user has at hand: the run that published it, or its digest.
 */
import type { LiveFile, Manifest } from "../publish/manifest.js";

export interface PublishedVersion {
  sha256: string;
  file: string;
  items: number;
  /** When this version was published (its live.publishedAt). */
  publishedAt: string;
  /** The runs after which it was live (their startedAt), oldest first. */
  runs: string[];
  gzip?: LiveFile["gzip"];
  pinned?: LiveFile["pinned"];
}

/** Every version `channel` published, oldest first (manifests oldest first, as readHistory gives them). */
export function versionsOf(manifests: readonly Manifest[], channel: string): PublishedVersion[] {
  const versions: PublishedVersion[] = [];
  for (const manifest of manifests) {
    const live = manifest.channels.find((c) => c.name === channel)?.live;
    if (!live) continue;
    const last = versions.at(-1);
    if (last && last.sha256 === live.sha256 && last.publishedAt === live.publishedAt) {
      if (!last.runs.includes(manifest.startedAt)) last.runs.push(manifest.startedAt);
      continue;
    }
    versions.push({ sha256: live.sha256, file: live.file, items: live.items, publishedAt: live.publishedAt, runs: [manifest.startedAt], ...(live.gzip ? { gzip: live.gzip } : {}), ...(live.pinned ? { pinned: live.pinned } : {}) });
  }
  return versions;
}

/** A version as a user names it: "live", "previous", a run's start time or a prefix of it (2026-11-27, 2026-11-27T02), or a prefix of its digest (7+ hex digits). */
export type VersionRef = string;

export type Resolved = { ok: true; version: PublishedVersion } | { ok: false; why: string };

/**
 * The version `ref` names among `versions` (oldest first). A run time names the version live
 * after the latest run that matches it; a digest prefix must match one version only.
 */
export function resolveVersion(versions: readonly PublishedVersion[], ref: VersionRef): Resolved {
  if (versions.length === 0) return { ok: false, why: "no published version is on record (history/ keeps the manifests of the runs that published)" };
  if (ref === "live") return { ok: true, version: versions.at(-1)! };
  if (ref === "previous") {
    const previous = versions.at(-2);
    return previous ? { ok: true, version: previous } : { ok: false, why: "only one version was published so far" };
  }
  if (/^[0-9a-f]{7,64}$/.test(ref)) {
    const matching = new Map(versions.filter((v) => v.sha256.startsWith(ref)).map((v) => [v.sha256, v]));
    if (matching.size === 1) return { ok: true, version: [...matching.values()][0]! };
    if (matching.size > 1) return { ok: false, why: `${ref} is the start of ${matching.size} versions' digests; give more digits` };
  }
  for (let i = versions.length - 1; i >= 0; i--) if (versions[i]!.runs.some((run) => run.startsWith(ref))) return { ok: true, version: versions[i]! };
  return { ok: false, why: `no run starting with "${ref}" published a version of it (runs on record: ${versions[0]!.runs[0]} to ${versions.at(-1)!.runs.at(-1)})` };
}
