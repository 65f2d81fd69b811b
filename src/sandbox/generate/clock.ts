/**
 * Generated timestamps are fixed, never Date.now(): the same seed must give the
 * same bytes on every run. "Now" for the catalogue is 2026-01-01T00:00:00Z.
 */
export const CATALOGUE_NOW = 1767225600;
/** The oldest record: 2012-01-01. */
export const CATALOGUE_START = 1325376000;
export const DAY = 86400;

/** A timestamp between `from` and `until` at fraction u (0..1), whole seconds. */
export function between(from: number, until: number, u: number): number {
  return Math.floor(from + (until - from) * u);
}
