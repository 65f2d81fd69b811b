/**
 * The tests' own reading of generated products: an evaluation of each filter
 * written from the spec and the documented choices, independent of the
 * server's filter code (nothing from src/sandbox/query is imported here).
 */
import { CATALOGUE_NOW_FOR_TESTS } from "./values.js";

export type P = Record<string, unknown>;
export type Cat = { id: unknown; parent: unknown };

export const arr = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);
export const ids = (v: unknown): unknown[] => arr(v).map((x) => x.id);

/** Digits of a wire code without leading zeros; arrays flattened. */
export function codes(v: unknown): string[] {
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return list.map((x) => String(x).replace(/^0+(?=\d)/, ""));
}

/** Every ancestor id (self included) of each category, from the reference list. */
export function chains(categories: readonly Cat[]): Map<unknown, unknown[]> {
  const parentOf = new Map(categories.map((c) => [c.id, c.parent]));
  const out = new Map<unknown, unknown[]>();
  for (const c of categories) {
    const chain = [c.id];
    let p = parentOf.get(c.id);
    while (p !== null && p !== undefined) {
      chain.push(p);
      p = parentOf.get(p);
    }
    out.set(c.id, chain);
  }
  return out;
}

export function speciesCodes(p: P): string[] {
  return arr(p.allowedSpecies).map((s) => String((s.name as Record<string, string>).en).toLowerCase().replace(/ /g, "_"));
}

/** narcotic as documented: medicines with ATC N02A* yes, N05BA* assimilated, other medicines no, the rest unknown. */
export function narcotic(p: P): string {
  const medicine = arr(p.catalogCategories).some((c) => c.type === "medicine");
  if (!medicine) return "unknown";
  const atc = String(p.atc ?? "");
  return atc.startsWith("N02A") ? "yes" : atc.startsWith("N05BA") ? "assimilated" : "no";
}

export function hasText(map: unknown, locale?: string): boolean {
  if (typeof map !== "object" || map === null) return false;
  const values = locale ? [(map as Record<string, unknown>)[locale]] : Object.values(map);
  return values.some((v) => typeof v === "string" && v !== "");
}

export const minimumContent = (p: P) => arr(p.photos).length > 0 && arr(p.descriptions).length > 0 && arr(p.publicCategories).length > 0;

export const pastDeletion = (p: P) => typeof p.officialDeletionAt === "number" && p.officialDeletionAt <= CATALOGUE_NOW_FOR_TESTS;
