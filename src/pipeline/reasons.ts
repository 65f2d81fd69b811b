/**
 * Which exclusions are eligibility (the product is not for this channel: status,
 * prescription, rules) and which are bad data (the product should be there but
 * cannot be published correctly). Only bad data counts towards the gate's
 * rejection threshold: a channel that excludes 40% prescription products is fine.
 */
export const ELIGIBILITY_REASONS: ReadonlySet<string> = new Set([
  "DELETED",
  "REPLACED",
  "STATUS_INACTIVE",
  "STATUS_NO_SELECTION",
  "STATUS_UNKNOWN",
  "OFFICIALLY_DELETED",
  "PRESCRIPTION",
  "MEDICINE",
  "VETERINARY",
  "RULE_EXCLUDED",
  "RULE_NOT_INCLUDED",
  "NO_OFFER",
  "OUT_OF_STOCK",
]);

export function isDataQualityReason(code: string): boolean {
  return !ELIGIBILITY_REASONS.has(code);
}
