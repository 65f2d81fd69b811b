/**
 * The cheap facts of product i: id, status and dates. Each comes from its own
 * hash of (seed, i), so a filter or a sort on them (status, updatedSince,
 * touchedAt, ...) runs over 100,000 products without generating any product.
 * product(i) uses the same functions, so both views always agree.
 */
import { between, CATALOGUE_NOW, CATALOGUE_START, DAY } from "./clock.js";
import { productId } from "./codes.js";
import { hash3, unit3 } from "./prng.js";

const SALT = { id: 1, status: 2, created: 3, updated: 4, statusTouched: 5, replacement: 6, cnk: 8, cnkDigits: 9 } as const;

export const STATUS_SHARES = { active: 0.78, inactive: 0.1, replaced: 0.05, no_selection: 0.07 } as const;
export type Status = keyof typeof STATUS_SHARES;

export interface FactsContext {
  seedHash: number;
  idBase: number;
}

export function factId(ctx: FactsContext, i: number): string {
  return productId(ctx.idBase, i, hash3(ctx.seedHash, i, SALT.id));
}

export function factStatus(ctx: FactsContext, i: number): Status {
  const u = unit3(ctx.seedHash, i, SALT.status);
  if (u < STATUS_SHARES.active) return "active";
  if (u < STATUS_SHARES.active + STATUS_SHARES.inactive) return "inactive";
  // Product 0 has no earlier product to be replaced by.
  if (u < STATUS_SHARES.active + STATUS_SHARES.inactive + STATUS_SHARES.replaced) return i === 0 ? "active" : "replaced";
  return "no_selection";
}

export function factCreatedAt(ctx: FactsContext, i: number): number {
  return between(CATALOGUE_START, CATALOGUE_NOW - 90 * DAY, unit3(ctx.seedHash, i, SALT.created));
}

/** meta.updatedAt; a quarter of the catalogue changed in the last 30 days (for incremental syncs). */
export function factUpdatedAt(ctx: FactsContext, i: number): number {
  const created = factCreatedAt(ctx, i);
  const u = unit3(ctx.seedHash, i, SALT.updated);
  if (u < 0.25) return between(CATALOGUE_NOW - 30 * DAY, CATALOGUE_NOW, u * 4);
  return between(created, CATALOGUE_NOW - 30 * DAY, (u - 0.25) / 0.75);
}

export function factStatusTouchedAt(ctx: FactsContext, i: number): number {
  const created = factCreatedAt(ctx, i);
  return between(created, factUpdatedAt(ctx, i), unit3(ctx.seedHash, i, SALT.statusTouched));
}

/** The replacing product of a replaced product: an earlier index, so it depends on (seed, i) only. */
export function factReplacementIndex(ctx: FactsContext, i: number): number {
  return hash3(ctx.seedHash, i, SALT.replacement) % Math.max(1, i);
}

/** Shares of the Belgian products that carry a `cnk`: a valid one (7 digits), or one of 5 digits. */
export const CNK_SHARES = { valid: 0.3, invalid: 0.03 } as const;

/**
 * The `cnk` member of a Belgian product i (",\"cnk\":...") or "": from its own hashes of (seed, i),
 * not from the product's random stream, so adding it moved no other field of any product. A CNK
 * with a leading zero goes as a string (the zero kept), the others as an integer or a string.
 */
export function factCnkJson(ctx: FactsContext, i: number, market: "BE" | "FR"): string {
  if (market !== "BE") return "";
  const u = unit3(ctx.seedHash, i, SALT.cnk);
  const h = hash3(ctx.seedHash, i, SALT.cnkDigits);
  if (u < CNK_SHARES.valid) {
    const digits = String(h % 10_000_000).padStart(7, "0");
    return digits.startsWith("0") || h % 2 === 0 ? `,"cnk":"${digits}"` : `,"cnk":${digits}`;
  }
  if (u < CNK_SHARES.valid + CNK_SHARES.invalid) return `,"cnk":${10_000 + (h % 90_000)}`;
  return "";
}
