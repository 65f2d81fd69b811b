/**
 * The access rules of a feed the manifest still lists but the config no longer names (a held
 * feed, publish/held-feeds.ts). serve keeps the rules it knew for as long as it runs; after a
 * restart it has only the config, so it borrows those of the channel the old one was most likely
 * renamed to (a close name), or the common rule when every channel is open. Otherwise the feed is
 * not served: guessing could open a protected feed to anyone.
 */
import { closest, distance } from "fastest-levenshtein";
import type { AccessConfig } from "../config/schema.js";

export function heldAccess(name: string, known: ReadonlyMap<string, AccessConfig>): AccessConfig | undefined {
  const names = [...known.keys()];
  if (names.length === 0) return undefined;
  const near = closest(name, names);
  if (distance(name, near) <= Math.max(2, Math.floor(name.length / 3))) return known.get(near);
  return [...known.values()].every((a) => a.mode === "open") ? { mode: "open" } : undefined;
}
