/**
 * A feed that was served is never dropped as a side effect (issue 23, point 1). A channel the
 * config no longer names (renamed, a typo, a file deleted) would otherwise vanish from the
 * manifest, and `serve` would answer 404 at the URL the marketplace has registered, while every
 * surface said ok. Instead its last good file stays listed and served, and the run is degraded
 * (a Problem of kind "served": exit 8, alert, status page) until someone retires it on purpose:
 * `generate --retire <channel>` (or `--force`, which publishes what the run produced).
 *
 * Except a feed no marketplace ever fetched (issue 34, point 2): `serve` remembers every fetch
 * (serve-state.json), and a feed it never saw fetched (a typo's file, published once) cannot be
 * registered anywhere: it is retired by the next run and said once (manifest.retired, the summary,
 * the log). When serve keeps no state, or the feed went to a destination (S3, SFTP, FTP) where
 * marketplaces fetch unseen, nothing is known and the feed is held.
 *
 *   previous manifest ─┬─ configured channels ─────────────> entries of this run (or kept)
 *                      └─ not configured, with a live file ─> held (+ Problem) | retired
 */
import { closest, distance } from "fastest-levenshtein";
import type { ChannelEntry, Problem } from "./manifest.js";

export const SERVED_NOT_CONFIGURED = "SERVED_NOT_CONFIGURED";

export interface HeldInput {
  /** The last run's entries (manifest.json or its copy). */
  previous: readonly ChannelEntry[];
  /** Every channel name of the config (not only those of a --channel run). */
  configured: readonly string[];
  /** Channels to stop serving on purpose (`--retire`). */
  retire: ReadonlySet<string>;
  /** `--force`: this run's outcome is what marketplaces get, held feeds included. */
  force: boolean;
  /** Channels a marketplace fetched from serve (serve/fetched.ts); undefined when serve keeps no state. */
  fetched?: ReadonlySet<string> | undefined;
}

/** A held feed retired because no marketplace ever fetched it. */
export interface AutoRetired {
  channel: string;
  file: string;
  reason: string;
}

export interface Held {
  /** Entries kept as they were: their live file stays listed and served. */
  held: ChannelEntry[];
  /** One per held entry, saying where it is served, why it is held and how to retire it. */
  problems: Problem[];
  /** Served channels dropped on purpose by this run. */
  retired: string[];
  /** Served channels dropped because no marketplace ever fetched them. */
  unfetched: AutoRetired[];
}

/** A configured name close to `name` that the last run did not have (a rename or a typo), if any. */
export function renamedTo(name: string, configured: readonly string[], previous: readonly ChannelEntry[]): string | undefined {
  const fresh = configured.filter((c) => !previous.some((p) => p.name === c));
  if (fresh.length === 0) return undefined;
  const near = closest(name, fresh);
  return distance(name, near) <= Math.max(2, Math.floor(name.length / 3)) ? near : undefined;
}

export function heldFeeds(input: HeldInput): Held {
  const out: Held = { held: [], problems: [], retired: [], unfetched: [] };
  for (const entry of input.previous) {
    // Nothing online: nothing a marketplace fetches can be lost.
    if (input.configured.includes(entry.name) || !entry.live) continue;
    if (input.retire.has(entry.name) || input.force) {
      out.retired.push(entry.name);
      continue;
    }
    const near = renamedTo(entry.name, input.configured, input.previous);
    const pushed = (entry.destinations ?? []).length > 0;
    if (input.fetched && !input.fetched.has(entry.name) && !pushed) {
      out.unfetched.push({
        channel: entry.name,
        file: entry.live.file,
        reason: `the config no longer names channel "${entry.name}"${near ? ` (now "${near}"?)` : ""} and no marketplace ever fetched ${entry.live.file}: no longer served`,
      });
      continue;
    }
    out.held.push(entry);
    out.problems.push({
      kind: "served",
      code: SERVED_NOT_CONFIGURED,
      channel: entry.name,
      ...(near ? { near } : {}),
      reason:
        `the config no longer names channel "${entry.name}"${near ? ` (renamed to "${near}"? "${entry.name}" was fetched by a marketplace: register the new URL there first)` : ""}; ` +
        `its last good file ${entry.live.file} stays online at /feeds/${entry.live.file}. ` +
        `To stop serving it on purpose: pharmafeed generate --retire ${entry.name}`,
    });
  }
  return out;
}
