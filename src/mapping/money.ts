/**
 * Amounts: source values to integer cents, and cents to the channel's text.
 * Decimals are read from their shortest decimal spelling (what JSON and the
 * offers file carry), never multiplied as floats: 8.2 * 100 is 819.999...
 */
import type { Money } from "./feed-item.js";
import { fail, ok, type Result } from "./reasons.js";

export type PriceUnit = "cents" | "euro";

export interface PriceFormat {
  decimalSeparator: "." | ",";
  currency: "suffix" | "none";
}

const DECIMAL = /^(\d+)(?:[.,](\d+))?$/;

/**
 * A decimal in currency units ("12.99", "12,99", 12.99) to cents. More than two
 * decimals are accepted only when the extra ones are zeros: a price is never
 * rounded silently. No thousands separators, signs or currency symbols.
 */
export function decimalToCents(raw: string | number): Result<number, "INVALID_PRICE"> {
  const text = typeof raw === "number" ? (Number.isFinite(raw) ? String(raw) : "") : raw.trim();
  const m = DECIMAL.exec(text);
  if (m === null) return fail("INVALID_PRICE", String(raw));
  const whole = m[1] ?? "0";
  const frac = (m[2] ?? "").replace(/0+$/, "");
  if (frac.length > 2 || whole.length > 12) return fail("INVALID_PRICE", String(raw));
  return ok(Number(whole) * 100 + Number(frac.padEnd(2, "0")));
}

/** A catalogue price in the source unit to cents; zero and negatives are refused. */
export function sourceToCents(raw: unknown, unit: PriceUnit): Result<number, "INVALID_PRICE"> {
  if (typeof raw !== "number" || !Number.isFinite(raw) || raw <= 0) return fail("INVALID_PRICE", String(raw));
  if (unit === "cents") return Number.isSafeInteger(raw) ? ok(raw) : fail("INVALID_PRICE", `${raw} (cents must be an integer)`);
  return decimalToCents(raw);
}

/** "12.99": cents as a bare decimal with a dot. */
export function centsToAmount(cents: number): string {
  const whole = Math.floor(cents / 100);
  const frac = cents - whole * 100;
  return `${whole}.${frac < 10 ? "0" : ""}${frac}`;
}

export function formatMoney(cents: number, currency: string, format: PriceFormat): Money {
  const amount = centsToAmount(cents);
  const number = format.decimalSeparator === "." ? amount : amount.replace(".", ",");
  const text = format.currency === "suffix" ? `${number} ${currency}` : number;
  return { cents, currency, text, amount };
}
