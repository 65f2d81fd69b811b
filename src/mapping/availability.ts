/**
 * availability_date: when a preorder or backorder ships. Google requires it with
 * those two availabilities (answers 6324448, 6324470: "Required if you set
 * availability to preorder or backorder"), ISO 8601 as `YYYY-MM-DDThh:mmZ`;
 * Microsoft takes the Google format (see README, Preset fields and their sources).
 * The date comes from the offers file's `availability_date`; the catalogue has no
 * such field. A channel that requires it (`offers.requireAvailabilityDate`) leaves
 * out such an item without a date (MISSING_AVAILABILITY_DATE) rather than publish
 * it to be disapproved.
 */
import type { Availability } from "./feed-item.js";
import type { Reason } from "./reasons.js";

/** Unix seconds as Google writes availability_date: `2026-12-15T00:00Z` (minutes, UTC). */
export function googleDateTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 16) + "Z";
}

export function needsDate(availability: Availability): boolean {
  return availability === "preorder" || availability === "backorder";
}

/** The item's availabilityDate (only with preorder / backorder), or the reason it cannot be published. */
export function availabilityDate(availability: Availability, seconds: number | undefined, required: boolean): { value?: string; problem?: Reason } {
  if (!needsDate(availability)) return {};
  if (seconds !== undefined) return { value: googleDateTime(seconds) };
  return required ? { problem: { code: "MISSING_AVAILABILITY_DATE", detail: availability } } : {};
}
