/**
 * A channel's identifiers for one product: the main GTIN at the channel's
 * width, every usable GTIN, and identifier_exists. A bad code is never
 * published: next to a valid one it is dropped with a warning, alone it is the
 * reason the product is left out, unless the channel publishes products
 * without a valid GTIN (Google's rule below, or optional GTINs).
 *
 * identifier_exists follows Google's rule (Merchant Center help, answer 6324478):
 * `no` only when the product has no valid GTIN and does not have both brand and
 * MPN. Brand + MPN without a GTIN is a complete identification, sent without
 * identifier_exists; Google disapproves `no` where an identifier exists.
 */
import type { ProductFacts } from "./facts.js";
import { formatGtin, primaryGtin, usableGtins } from "./gtin.js";
import type { Reason, WarningCode } from "./reasons.js";
import type { ChannelMapping } from "./settings.js";

export interface ChannelIdentifiers {
  gtin: string | undefined;
  gtins: string[];
  identifierExists: boolean;
  warnings: Reason<WarningCode>[];
  problem: Reason | undefined;
}

export function channelIdentifiers(facts: ProductFacts, brand: string | undefined, settings: ChannelMapping["gtin"]): ChannelIdentifiers {
  const { output } = settings;
  const codes = usableGtins(facts.gtins.valid, output);
  if (codes.length > 0) {
    const main = primaryGtin(codes, output);
    const gtin = main === undefined ? undefined : formatGtin(main, output);
    let gtins = codes.map((c) => formatGtin(c, output));
    if (gtin !== undefined && gtins[0] !== gtin) gtins = [gtin, ...gtins.filter((g) => g !== gtin)];
    const warnings = facts.gtins.invalid.map((bad): Reason<WarningCode> => ({ code: "GTIN_DROPPED", detail: bad }));
    return { gtin, gtins, identifierExists: true, warnings, problem: undefined };
  }
  const identifierExists = brand !== undefined && facts.mpn !== undefined;
  const none = { gtin: undefined, gtins: [], identifierExists, warnings: [], problem: undefined };
  if (settings.allowIdentifierExistsNo || !settings.required) return none;
  let problem: Reason;
  if (facts.gtins.valid.length > 0) {
    problem = { code: "INVALID_GTIN", detail: `${facts.gtins.valid.map((c) => c.digits).join("; ")} (no 13-digit form)` };
  } else if (facts.gtins.invalid.length > 0) {
    problem = { code: "INVALID_GTIN", detail: facts.gtins.invalid.join("; ") };
  } else {
    problem = { code: "MISSING_GTIN" };
  }
  return { ...none, problem };
}
