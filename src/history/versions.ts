/**
 * The versions a channel has published, oldest first, read from the manifests kept in history/
 * (publish/manifest.ts). A version is a distinct file (a digest): consecutive runs that left the
 * same file live are one version, whatever publish time each recorded, so "previous" is always
 * another file than the live one. A version put back by `rollback` is published again, so it
 * appears again. `diff` and `rollback` name versions by what a user has at hand: the time it was
 * published (as they print it), the run after which it was live, or its digest.
 */
import type { LiveFile, Manifest } from "../publish/manifest.js";

export interface PublishedVersion {
  sha256: string;
  file: string;
  items: number;
  /** When this version was published (its first live.publishedAt in this stretch). */
  publishedAt: string;
  /** Every live.publishedAt recorded for it in this stretch, oldest first: a run that publishes the same bytes again records its own. */
  publishTimes: string[];
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
    // The same bytes again (a run that changed nothing, a release): the same version, live longer.
    if (last && last.sha256 === live.sha256) {
      if (!last.runs.includes(manifest.startedAt)) last.runs.push(manifest.startedAt);
      if (!last.publishTimes.includes(live.publishedAt)) last.publishTimes.push(live.publishedAt);
      continue;
    }
    versions.push({
      sha256: live.sha256,
      file: live.file,
      items: live.items,
      publishedAt: live.publishedAt,
      publishTimes: [live.publishedAt],
      runs: [manifest.startedAt],
      ...(live.gzip ? { gzip: live.gzip } : {}),
      ...(live.pinned ? { pinned: live.pinned } : {}),
    });
  }
  return versions;
}

/**
 * A version as a user names it: "live", "previous", a time or its beginning (2026-11-27,
 * 2026-11-27T02) matching when it was published or a run after which it was live, or a prefix of
 * its digest (7+ hex digits, either case).
 */
export type VersionRef = string;

export type Resolved = { ok: true; version: PublishedVersion } | { ok: false; why: string };

/** Why `ref` names nothing whatever is on record, or undefined: a check the commands make before anything else. */
export function badReference(ref: VersionRef): string | undefined {
  // "" is the beginning of every time: it would name the live version, silently.
  return ref.trim() === "" ? "an empty version reference names no version: give previous, live, a time (2026-11-27) or a digest prefix (7+ hex digits)" : undefined;
}

/** Whether a time `ref` names `version`: the beginning of a publish time of it, or of a run's start after which it was live. */
function matchesTime(version: PublishedVersion, ref: string): boolean {
  return version.publishTimes.some((t) => t.startsWith(ref)) || version.runs.some((run) => run.startsWith(ref));
}

/**
 * The version `ref` names among `versions` (oldest first). A time names the latest version it
 * matches; a digest prefix must match one version only.
 */
export function resolveVersion(versions: readonly PublishedVersion[], ref: VersionRef): Resolved {
  const bad = badReference(ref);
  if (bad !== undefined) return { ok: false, why: bad };
  if (versions.length === 0) return { ok: false, why: "no published version is on record (history/ keeps the manifests of the runs that published)" };
  if (ref === "live") return { ok: true, version: versions.at(-1)! };
  if (ref === "previous") {
    // Consecutive versions differ (versionsOf): the one before the live one is another file.
    const previous = versions.at(-2);
    return previous ? { ok: true, version: previous } : { ok: false, why: "only one version was published so far" };
  }
  if (/^[0-9a-f]{7,64}$/i.test(ref)) {
    const prefix = ref.toLowerCase();
    const matching = new Map(versions.filter((v) => v.sha256.startsWith(prefix)).map((v) => [v.sha256, v]));
    if (matching.size === 1) return { ok: true, version: [...matching.values()][0]! };
    if (matching.size > 1) return { ok: false, why: `${ref} is the start of ${matching.size} versions' digests; give more digits` };
  }
  for (let i = versions.length - 1; i >= 0; i--) if (matchesTime(versions[i]!, ref)) return { ok: true, version: versions[i]! };
  return {
    ok: false,
    why: `no run starting with "${ref}" published a version of it, nor was one published at such a time (runs on record: ${versions[0]!.runs[0]} to ${versions.at(-1)!.runs.at(-1)})`,
  };
}
