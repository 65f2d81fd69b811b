/**
 * Every reason a product is left out of a channel (or an offers row is refused),
 * as stable UPPER_SNAKE codes. The run report counts products per code, so a code
 * is never renamed; the one-line descriptions are what the README table shows.
 */
export const REASONS = {
  // Eligibility: the product is not meant to be sold on this channel.
  DELETED: "The product is marked deleted in the catalogue.",
  REPLACED: "Status `replaced`; detail is the replacement product id.",
  STATUS_INACTIVE: "Status `inactive`.",
  STATUS_NO_SELECTION: "Status `no_selection`.",
  STATUS_UNKNOWN: "A status value this version does not know; detail is the value.",
  OFFICIALLY_DELETED: "`officialDeletionAt` is in the past; detail is the date.",
  POLICY_DENIED: "A row of the health policy table (docs/policy.md) leaves the product out on this channel and country; detail: the product's class, the row (channel country class), its verdict, source and verified date, and why (a deny, a certification the shop does not list, a limit). Replaces PRESCRIPTION, MEDICINE and VETERINARY of earlier versions.",
  RULE_EXCLUDED: "Matched one of the channel's exclude rules; detail is the rule name.",
  RULE_NOT_INCLUDED: "Did not match the channel's include rule.",
  NO_OFFER: "The offers file has no row for the product and the channel's policy is `skip`.",
  OUT_OF_STOCK: "Out of stock and the channel excludes out-of-stock items.",
  // Content: the product cannot be published correctly.
  MISSING_TITLE: "No name in the channel's locale chain (or the title template renders empty).",
  MISSING_DESCRIPTION: "No usable description in the locale chain and the channel requires one.",
  MISSING_LINK: "The link template needs a value the product lacks, or no absolute http(s) URL results.",
  MISSING_BRAND: "No brand name and the channel requires one.",
  MISSING_CODE: "No checked national pharmacy code of a kind the channel requires (`codes.required`, e.g. a PZN for medizinfuchs); detail names the kind.",
  INVALID_ID: "The id template renders empty or longer than the channel's limit.",
  MISSING_GTIN: "No GTIN at all and the channel requires one (beslist; Google-like channels publish it with identifier_exists=no).",
  INVALID_GTIN: "GTIN codes present but none valid (length, check digit, restricted or coupon prefix); detail lists them.",
  NO_PRICE: "None of the channel's price sources has a value.",
  INVALID_PRICE: "A price field has a value that is not a positive amount in the source unit (cents: an integer); detail names it.",
  INVALID_VAT: "A price needs VAT and `vat` is not 21, 0.21 or 2100 style; detail is the value.",
  NO_IMAGE: "No photo passes the channel's locale, target group, type, format and size rules.",
  IMAGE_FAILED: "The channel processes images (`images.process`, `onError: exclude`) and the main image could not be downloaded or converted; detail says why.",
  MAPPING_ERROR: "The product does not have the wire schema's shape (mapping expects schema-validated products); detail is the message.",
  MISSING_CATEGORY: "No category path in the channel's locale chain, no `categories.defaultPath`, and the channel requires one (Kelkoo).",
  MISSING_AVAILABILITY_DATE: "The offer says preorder or backorder without an `availability_date`, and the channel requires one (`offers.requireAvailabilityDate`: Google, Microsoft); detail is the availability.",
  MISSING_LANGUAGE: "The name (or a required description) exists only in other languages than the channel's, and the channel does not opt in to a fallback for that field; detail names the field and the languages found.",
  OFFER_REFUSED: "The product's row in the offers file was refused (a bad price, date, quantity, availability or link) and the channel's `offers.whenRefused` is `exclude` (the default); detail gives the row's line and code.",
  IMPLAUSIBLE_PRICE: "The offers file's price is more than `offers.maxPriceRatio` times (default 5) the catalogue's `publicPrice`, or less than its fraction (\"189900\" for 1,899.00: cents in the euros column?); detail gives both.",
} as const;

export type ReasonCode = keyof typeof REASONS;

/**
 * Reasons that say the product is not for this channel (status, prescription,
 * rules, offers policy), as opposed to bad data that keeps a product out that
 * should be in. The publish gate counts only the latter.
 */
export const ELIGIBILITY_REASONS: ReadonlySet<string> = new Set<ReasonCode>([
  "DELETED",
  "REPLACED",
  "STATUS_INACTIVE",
  "STATUS_NO_SELECTION",
  "STATUS_UNKNOWN",
  "OFFICIALLY_DELETED",
  "POLICY_DENIED",
  "RULE_EXCLUDED",
  "RULE_NOT_INCLUDED",
  "NO_OFFER",
  "OUT_OF_STOCK",
  // Written for another market's language: not bad data, not for this feed.
  "MISSING_LANGUAGE",
]);

export function isDataQualityReason(code: string): boolean {
  return !ELIGIBILITY_REASONS.has(code);
}
export const REASON_CODES = Object.keys(REASONS) as ReasonCode[];

/** Observations on an item that is published anyway; counted in the run report too. */
export const WARNINGS = {
  GTIN_DROPPED: "An invalid GTIN was left out while a valid one was published; detail is the code.",
  VAT_IGNORED: "`vat` is invalid but a price source that includes VAT was used; detail is the value.",
  PRICE_SOURCE_SKIPPED: "A price source had a bad value and the next one was used; detail names it.",
  SALE_IGNORED: "The offer's sale price is not below the price; detail is the sale price.",
  DESCRIPTION_TRUNCATED: "The description was cut at the channel's limit.",
  TITLE_TRUNCATED: "The title was cut at the channel's limit.",
  IMAGE_FALLBACK: "An image could not be downloaded or converted and the catalogue's URL was published instead (`onError: original`).",
  IMAGE_DROPPED: "An additional image could not be downloaded or converted and was left out (`onError: exclude`).",
  UNIT_MEASURE_MISMATCH: "The quantity in the name disagrees with the package content (\"25 ml\" sold as 225 ml): no unit price is published rather than a wrong one; detail gives both.",
  OFFER_NOT_USED: "The product's offers row was refused or its price is implausible, and the channel's `offers.whenRefused` is `catalogue`: published at the catalogue's price and availability; detail says why.",
  CODE_INVALID: "A national pharmacy code (`cnk`, `cipOrAcl7`, `cip13`, `acl13`) fails its check and is left out of `codes`; detail says why (\"CNK 12345: 5 digits, expected 7\").",
} as const;
export type WarningCode = keyof typeof WARNINGS;

/** Problems of one row of an offers file. */
export const OFFER_ERRORS = {
  OFFER_PARSE: "The file (or this row) is not valid CSV / JSON.",
  OFFER_UNKNOWN_FIELD: "A column or key the offers format does not define (typo?).",
  OFFER_NO_KEY: "The row has none of id, gtin, cip13.",
  OFFER_BAD_KEY: "The gtin / cip13 is not a valid GTIN.",
  OFFER_DUPLICATE: "A second row for the same product key; the first one is kept.",
  OFFER_BAD_PRICE: "price or sale_price is not a positive decimal with at most two decimals.",
  OFFER_BAD_DATE: "sale_from, sale_until or availability_date is not an ISO 8601 date or Unix seconds, or until < from.",
  OFFER_BAD_QUANTITY: "quantity is not a non-negative integer.",
  OFFER_BAD_AVAILABILITY: "availability is not in_stock, out_of_stock, preorder or backorder.",
  OFFER_BAD_LINK: "link is not an absolute http(s) URL.",
  OFFER_BAD_CODE: "A national pharmacy code column (cnk, pzn, zi, aic, cn, cip7) fails its format or check digit (docs/pharmacy-codes.md).",
} as const;
export type OfferErrorCode = keyof typeof OFFER_ERRORS;

export interface Reason<C extends string = ReasonCode> {
  code: C;
  /** Short human text: the bad value, the replacement id, the rule name. */
  detail?: string;
}

/** What every pure mapping function returns where data can be bad. */
export type Result<T, C extends string = ReasonCode> = { ok: true; value: T } | { ok: false; reason: Reason<C> };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail<C extends string>(code: C, detail?: string): { ok: false; reason: Reason<C> } {
  return { ok: false, reason: detail === undefined ? { code } : { code, detail } };
}
