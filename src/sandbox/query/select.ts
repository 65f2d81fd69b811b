/**
 * Selection: which records of an indexed collection match, in which order.
 * Only indices and sort keys are held (an index array of at most N entries);
 * records are generated again when written. With the natural order and a
 * match-all filter nothing is held at all.
 */
import type { ParsedQuery } from "./request.js";
import { sortIndices, type SortValue } from "./sorting.js";

export interface Selection {
  total: number;
  /** Collection index of the k-th result (0 <= k < total). */
  at(k: number): number;
}

export interface Indexed<R> {
  size: number;
  /** A reusable row positioned at index i. */
  row(i: number): R;
}

export function select<R>(collection: Indexed<R>, query: ParsedQuery<R>): Selection {
  const { filter, sort } = query;
  const n = collection.size;
  const dir = sort?.dir ?? 1;
  const matchAll = isMatchAll(filter.pred);
  if (!sort?.key && matchAll) {
    return { total: n, at: dir === 1 ? (k) => k : (k) => n - 1 - k };
  }
  const matched: number[] = [];
  const keys: SortValue[] = [];
  const key = sort?.key;
  for (let i = 0; i < n; i++) {
    const row = collection.row(i);
    if (!filter.pred(row)) continue;
    matched.push(i);
    if (key) keys.push(key(row));
  }
  if (key) {
    const ordered = sortIndices(matched, keys, dir);
    return { total: ordered.length, at: (k) => ordered[k] as number };
  }
  const total = matched.length;
  return { total, at: dir === 1 ? (k) => matched[k] as number : (k) => matched[total - 1 - k] as number };
}

const MATCH_ALL_MARK = Symbol("matchAll");
/** Marks the predicate of `{}` so a selection can skip the scan. */
export function markMatchAll<T extends (...args: never[]) => boolean>(pred: T): T {
  (pred as unknown as Record<symbol, boolean>)[MATCH_ALL_MARK] = true;
  return pred;
}
function isMatchAll(pred: unknown): boolean {
  return (pred as Record<symbol, boolean>)[MATCH_ALL_MARK] === true;
}
