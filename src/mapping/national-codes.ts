/**
 * The catalogue's national pharmacy codes, checked (pharmacy-codes.ts), for the item's `codes`.
 *
 *   cnk ────────────── CNK check ──┐
 *   cipOrAcl7 ──────── CIP7 check ─┼─> { cnk?, cip7?, cip13?, acl13? }  +  CODE_INVALID per refused code
 *   facts.cip13/acl13 ─ CIP13/ACL13 check (prefix 3400 / 3401) ─┤
 *   offers file's cnk, pzn, zi, aic, cn, cip7 (checked when read) ─┘  fill what the catalogue lacks
 *
 * Computed once per product (facts.ts). A refused code is left out with a warning, never a reason
 * to exclude the product; none of these codes ever goes into mpn or gtin from here.
 */
import type { Product } from "../catalogue/schemas/product.js";
import type { OfferCode } from "./offers-table.js";
import { PHARMACY_CODES, type PharmacyCodeKind } from "./pharmacy-codes.js";
import type { Reason, WarningCode } from "./reasons.js";

/** The checked codes of an item: normalised digits, present only when the code passes its check. */
export interface ItemCodes {
  /** Belgian CNK, 7 digits. */
  cnk?: string;
  /**
   * French 7-digit code from `cipOrAcl7`. A CIP7 and an ACL7 have the same format (7 digits, no
   * prefix or check digit tells them apart), so the value is published as cip7 whichever it is.
   */
  cip7?: string;
  /** The item's cip13, when it also has the CIP13 prefix 3400. */
  cip13?: string;
  /** The item's acl13, when it also has the ACL13 prefix 3401. */
  acl13?: string;
  /** German/Austrian PZN, 8 digits (a PZN-7 padded), from the offers file. */
  pzn?: string;
  /** Dutch ZI-nummer, 8 digits, from the offers file. */
  zi?: string;
  /** Italian AIC, 9 digits, from the offers file. */
  aic?: string;
  /** Spanish Código Nacional, 7 digits (6 + check), from the offers file. */
  cn?: string;
}

export interface NationalCodes {
  codes: ItemCodes;
  /** Whether any code passed (the item carries `codes` only then). */
  any: boolean;
  warnings: Reason<WarningCode>[];
}

/** A wire code (string, integer, or a list of either: the first counts) as text; undefined when absent. */
function rawText(raw: unknown): string | undefined {
  const value: unknown = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value === "string") return value.trim() === "" ? undefined : value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  return undefined;
}

/**
 * `cip13` / `acl13` are the values facts.ts validated as GTIN-13s (what item.cip13 / item.acl13
 * carry); a raw value that was not a valid GTIN-13 is checked as it came, for the warning's detail.
 */
export function nationalCodes(
  product: Product,
  cip13: string | undefined,
  acl13: string | undefined,
  fromOffers?: Partial<Record<OfferCode, string>>,
): NationalCodes {
  const codes: ItemCodes = {};
  const warnings: Reason<WarningCode>[] = [];
  const take = (key: keyof ItemCodes, kind: PharmacyCodeKind, raw: unknown) => {
    const text = rawText(raw);
    if (text === undefined) return;
    const r = PHARMACY_CODES[kind].check(text);
    if (r.ok) codes[key] = r.value;
    else warnings.push({ code: "CODE_INVALID", detail: r.detail });
  };
  const take13 = (key: "cip13" | "acl13", validated: string | undefined, raw: unknown) => {
    if (validated === undefined) {
      const text = rawText(raw);
      if (text === undefined) return;
      const r = PHARMACY_CODES[key].check(text);
      warnings.push({ code: "CODE_INVALID", detail: r.ok ? `${key} ${text}: not a valid GTIN-13` : r.detail });
      return;
    }
    const r = PHARMACY_CODES[key].check(validated);
    if (r.ok) codes[key] = r.value;
    else warnings.push({ code: "CODE_INVALID", detail: r.detail });
  };
  take("cnk", "cnk", product.cnk);
  take("cip7", "cip7", product.cipOrAcl7);
  take13("cip13", cip13, product.cip13);
  take13("acl13", acl13, product.acl13);
  // The shop's own codes fill what the catalogue does not give (or gives refused): the catalogue is
  // the shared reference, the offers file one shop's till.
  for (const [kind, code] of Object.entries(fromOffers ?? {}) as [OfferCode, string][]) codes[kind] ??= code;
  return { codes, any: Object.keys(codes).length > 0, warnings };
}
