/**
 * A channel's identifiers for one product: the main GTIN at the channel's
 * width, every usable GTIN, and identifier_exists. A bad code is never
 * published: next to a valid one it is dropped with a warning, alone it is the
 * reason the product is left out (unless the channel accepts identifier_exists=no
 * with brand + mpn, or makes GTINs optional).
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
  const none = { gtin: undefined, gtins: [], identifierExists: false, warnings: [], problem: undefined };
  const sayNo = settings.allowIdentifierExistsNo && brand !== undefined && facts.mpn !== undefined;
  if (sayNo || !settings.required) return none;
  const extra = settings.allowIdentifierExistsNo ? " (identifier_exists=no needs brand and mpn)" : "";
  let problem: Reason;
  if (facts.gtins.valid.length > 0) {
    problem = { code: "INVALID_GTIN", detail: `${facts.gtins.valid.map((c) => c.digits).join("; ")} (no 13-digit form)${extra}` };
  } else if (facts.gtins.invalid.length > 0) {
    problem = { code: "INVALID_GTIN", detail: facts.gtins.invalid.join("; ") + extra };
  } else {
    problem = extra === "" ? { code: "MISSING_GTIN" } : { code: "MISSING_GTIN", detail: extra.trim() };
  }
  return { ...none, problem };
}
