/**
 * Sortings: an object with one key, whose value is "ASC" or "DESC" (name takes
 * {direction, locale}). Ties are broken by the record's natural order (id ASC
 * for products), so paging is stable.
 */
import { got } from "../server/errors.js";
import { isPlainObject, violation, type ParseContext } from "./params.js";

export type SortValue = number | string;

export interface SortKey<T> {
  /** undefined: natural order (the record's id order). */
  key?: (item: T) => SortValue;
  /** 1 ascending, -1 descending. */
  dir: 1 | -1;
  /** Whether `key` needs the full record. */
  heavy: boolean;
}

export interface SortDef<T> {
  parse(ctx: ParseContext, path: string, value: unknown): SortKey<T> | undefined;
}
export type SortTable<T> = Record<string, SortDef<T>>;

export function direction(ctx: ParseContext, path: string, value: unknown): 1 | -1 | undefined {
  if (value === "ASC") return 1;
  if (value === "DESC") return -1;
  return violation(ctx, path, `expected "ASC" or "DESC", got ${got(value)}`);
}

/** A sorting by `key` with a plain ASC/DESC value. */
export function simpleSort<T>(key: ((item: T) => SortValue) | undefined, heavy = false): SortDef<T> {
  return {
    parse(ctx, path, value) {
      const dir = direction(ctx, path, value);
      return dir === undefined ? undefined : { key, dir, heavy };
    },
  };
}

export function compileSorting<T>(table: SortTable<T>, ctx: ParseContext, path: string, value: unknown): SortKey<T> | undefined {
  if (!isPlainObject(value)) return violation(ctx, path, `expected a sorting object such as {"id": "ASC"}, got ${got(value)}`);
  const keys = Object.keys(value);
  if (keys.length !== 1) return violation(ctx, path, `a sorting holds exactly one key (${Object.keys(table).join(", ")}), got ${got(keys)}`);
  const key = keys[0] as string;
  const def = table[key];
  if (!def) return violation(ctx, `${path}.${key}`, `unknown sorting; this endpoint sorts by ${Object.keys(table).join(", ")}`);
  return def.parse(ctx, `${path}.${key}`, value[key]);
}

/**
 * Sorts `indices` in place by `keys` (parallel to indices) and direction; ties
 * keep natural order (ascending index), whatever the direction.
 */
export function sortIndices(indices: number[], keys: SortValue[], dir: 1 | -1): number[] {
  const order = indices.map((_, k) => k);
  order.sort((a, b) => {
    const x = keys[a] as SortValue;
    const y = keys[b] as SortValue;
    if (x < y) return -dir;
    if (x > y) return dir;
    return (indices[a] as number) - (indices[b] as number);
  });
  return order.map((k) => indices[k] as number);
}
