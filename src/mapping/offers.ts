/**
 * A pharmacy's own prices and stock, from an optional offers file per run.
 * This file holds the index and the validation of one row; offers-parse.ts
 * reads CSV and JSON into rows. A row is kept whole or refused whole: a row
 * with one bad field is reported (with its line) and not used, because a half
 * offer would publish the catalogue price next to the shop's stock.
 *
 * Prices in the file are decimals in currency units, VAT included ("12.99",
 * "12,99"). Dates are ISO 8601 (UTC when no offset) or Unix seconds; a date-only
 * sale_until lasts to the end of that day, a date-only availability_date starts at 00:00 UTC.
 */
import { parseGtin } from "./gtin.js";
import { decimalToCents } from "./money.js";
import { MAX_PRICE_CENTS, OFFER_CODES, type Offer, OffersIndex } from "./offers-table.js";
import { PHARMACY_CODES } from "./pharmacy-codes.js";
import type { OfferErrorCode } from "./reasons.js";
import { isValidHttpUrl } from "./url.js";
import type { Availability } from "./feed-item.js";

export { type Offer, OFFER_CODES, type OfferCode, OffersIndex, type SharedOffers } from "./offers-table.js";

export interface OfferError {
  line: number;
  reason: OfferErrorCode;
  detail: string;
}

export const OFFER_FIELDS = ["id", "gtin", "cip13", "price", "sale_price", "sale_from", "sale_until", "quantity", "availability", "availability_date", "link", ...OFFER_CODES] as const;
export type OfferField = (typeof OFFER_FIELDS)[number];
const KNOWN = new Set<string>(OFFER_FIELDS);

export function emptyOffersIndex(): OffersIndex {
  return OffersIndex.create();
}

export function isOfferField(name: string): name is OfferField {
  return KNOWN.has(name);
}

/** The offer of a product: by id first, then by any of its GTIN keys. */
export function lookupOffer(index: OffersIndex, productId: string, gtinKeys: Iterable<string>): Offer | undefined {
  const byId = index.byId(productId);
  if (byId !== undefined) return byId;
  for (const key of gtinKeys) {
    const offer = index.byGtin(key);
    if (offer !== undefined) return offer;
  }
  return undefined;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** ISO 8601 or Unix seconds to Unix seconds; `endOfDay` for a date-only sale_until. */
export function parseOfferDate(raw: unknown, endOfDay: boolean): number | undefined {
  if (typeof raw === "number") return Number.isSafeInteger(raw) && raw >= 0 ? raw : undefined;
  if (typeof raw !== "string") return undefined;
  const text = raw.trim();
  if (/^\d{1,12}$/.test(text)) return Number(text);
  const m = ISO.exec(text);
  if (m === null) return undefined;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) => (x === undefined ? undefined : Number(x)));
  if (y === undefined || mo === undefined || d === undefined) return undefined;
  const dateOnly = h === undefined;
  const ms = Date.UTC(y, mo - 1, d, dateOnly ? (endOfDay ? 23 : 0) : (h ?? 0), dateOnly ? (endOfDay ? 59 : 0) : (mi ?? 0), dateOnly ? (endOfDay ? 59 : 0) : (s ?? 0));
  const check = new Date(ms);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
  if ((h ?? 0) > 23 || (mi ?? 0) > 59 || (s ?? 0) > 59) return undefined;
  let offsetMin = 0;
  const zone = m[7];
  if (zone !== undefined && zone !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    offsetMin = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  return Math.floor(ms / 1000) - offsetMin * 60;
}

/**
 * What a refused date should have been: the formats read, and for a spreadsheet's 01/11/2026 that it
 * is day/month/year (month/day when the first number cannot be a month) with the date to write.
 */
export function dateHint(raw: string): string {
  const expected = "expected YYYY-MM-DD (ISO 8601, e.g. 2026-11-01 or 2026-11-01T08:00:00+01:00) or Unix seconds";
  const m = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(raw.trim());
  if (!m) return expected;
  const [a, b, y] = [Number(m[1]), Number(m[2]), m[3]!];
  const dayFirst = a > 12 || b <= 12;
  const [day, month] = dayFirst ? [a, b] : [b, a];
  if (month < 1 || month > 12 || day < 1 || day > 31) return expected;
  const iso = `${y}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return `${expected}; the file has ${dayFirst ? "day/month/year" : "month/day/year"}: write ${iso}`;
}

const AVAILABILITY: Record<string, Availability> = {
  in_stock: "in_stock",
  out_of_stock: "out_of_stock",
  preorder: "preorder",
  backorder: "backorder",
};

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const s = typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : undefined;
  return s === "" ? undefined : s;
}

/**
 * Catalogue ids are short codes (`M34C3D3A5E`): one with a control character
 * (NUL from a binary export) or a CSV delimiter (a row written with another
 * delimiter than the header's) would be kept under a key that matches nothing.
 */
function idProblem(id: string): string | undefined {
  let c: string | undefined;
  for (let i = 0; i < id.length && c === undefined; i++) {
    const code = id.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x2c || code === 0x3b) c = id[i];
  }
  if (c === undefined) return undefined;
  const name = c === "\0" ? "NUL" : c === "\t" ? "a tab" : c === "," || c === ";" ? `'${c}' (a row with another delimiter than the header's?)` : `control character U+${c.charCodeAt(0).toString(16).padStart(4, "0").toUpperCase()}`;
  return `id ${JSON.stringify(id)} contains ${name}`;
}

/**
 * Validate one row (field name -> raw value) and add it to the index. Returns
 * the row's errors; an empty list means it was added.
 */
export function addOfferRow(index: OffersIndex, row: Record<string, unknown>, line: number): OfferError[] {
  const errors: OfferError[] = [];
  const err = (reason: OfferErrorCode, detail: string) => errors.push({ line, reason, detail });
  const offer: Offer = { line };
  const keys: { id?: string; gtin?: string } = {};
  const gtinKeys: string[] = [];

  const id = text(row.id);
  const badId = id === undefined ? undefined : idProblem(id);
  if (badId !== undefined) err("OFFER_BAD_KEY", badId);
  else if (id !== undefined) keys.id = id;
  for (const [field, width] of [["gtin", 14], ["cip13", 13]] as const) {
    const raw = row[field];
    if (text(raw) === undefined) continue;
    const parsed = parseGtin(typeof raw === "number" ? raw : text(raw), width);
    if (parsed.ok) gtinKeys.push(parsed.value.key);
    else err("OFFER_BAD_KEY", `${field} ${parsed.reason.detail ?? ""}`.trim());
  }
  if (keys.id === undefined && gtinKeys.length === 0 && errors.length === 0) err("OFFER_NO_KEY", "no id, gtin or cip13");

  for (const field of ["price", "sale_price"] as const) {
    const raw = text(row[field]);
    if (raw === undefined) continue;
    const cents = decimalToCents(raw);
    if (cents.ok && cents.value > 0 && cents.value <= MAX_PRICE_CENTS) offer[field === "price" ? "priceCents" : "salePriceCents"] = cents.value;
    else err("OFFER_BAD_PRICE", `${field} ${raw}`);
  }
  for (const field of ["sale_from", "sale_until"] as const) {
    const raw = row[field];
    if (text(raw) === undefined) continue;
    const t = parseOfferDate(typeof raw === "number" ? raw : text(raw), field === "sale_until");
    if (t === undefined) err("OFFER_BAD_DATE", `${field} ${text(raw) ?? ""}: ${dateHint(text(raw) ?? "")}`);
    else offer[field === "sale_from" ? "saleFrom" : "saleUntil"] = t;
  }
  if (offer.saleFrom !== undefined && offer.saleUntil !== undefined && offer.saleUntil < offer.saleFrom) {
    err("OFFER_BAD_DATE", "sale_until before sale_from");
  }
  const quantity = text(row.quantity);
  if (quantity !== undefined) {
    if (/^\d{1,9}$/.test(quantity)) offer.quantity = Number(quantity);
    else err("OFFER_BAD_QUANTITY", quantity);
  }
  const availability = text(row.availability);
  if (availability !== undefined) {
    const a = AVAILABILITY[availability.toLowerCase().replace(/[\s-]+/g, "_")];
    if (a === undefined) err("OFFER_BAD_AVAILABILITY", availability);
    else offer.availability = a;
  }
  // When a preorder or backorder ships (Google requires it with those two: answers 6324448, 6324470).
  const availabilityDate = row.availability_date;
  if (text(availabilityDate) !== undefined) {
    const t = parseOfferDate(typeof availabilityDate === "number" ? availabilityDate : text(availabilityDate), false);
    if (t === undefined) err("OFFER_BAD_DATE", `availability_date ${text(availabilityDate) ?? ""}: ${dateHint(text(availabilityDate) ?? "")}`);
    else offer.availabilityDate = t;
  }
  const link = text(row.link);
  if (link !== undefined) {
    if (isValidHttpUrl(link)) offer.link = link;
    else err("OFFER_BAD_LINK", link);
  }
  for (const kind of OFFER_CODES) {
    const raw = text(row[kind]);
    if (raw === undefined) continue;
    const checked = PHARMACY_CODES[kind].check(raw);
    if (checked.ok) (offer.codes ??= {})[kind] = checked.value;
    else err("OFFER_BAD_CODE", checked.detail);
  }
  const taken = index.taken(keys.id, gtinKeys);
  if (errors.length > 0) {
    // Kept under its keys when no other row has them: its product is then handled by
    // offers.whenRefused instead of looking like one the shop does not list. An accepted row
    // for the same product, before or after it, is the one used.
    if (taken === undefined && (keys.id !== undefined || gtinKeys.length > 0)) index.add({ line, refused: errors[0]!.reason }, keys.id, gtinKeys);
    return errors;
  }
  if (taken === "accepted") return [{ line, reason: "OFFER_DUPLICATE", detail: keys.id ?? gtinKeys[0] ?? "" }];
  if (offer.availability === undefined && offer.quantity !== undefined) {
    offer.availability = offer.quantity > 0 ? "in_stock" : "out_of_stock";
  }
  index.add(offer, keys.id, gtinKeys);
  return [];
}

