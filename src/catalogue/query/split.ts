/**
 * The spec allows at most 1000 identifier codes per request. A larger list is
 * split into several filters, each within the limit, whose results the caller
 * merges without duplicates. Splitting is exact only where the filter is
 * monotone in the list (not under `not`): there, "matches one of the codes"
 * is the union of "matches one of the codes of chunk i".
 */
import { IDENTIFIER_LIMIT } from "./resources.js";
import { formatPath } from "./validate.js";

interface IdList {
  path: (string | number)[];
  key: string;
  values: unknown[];
  negated: boolean;
}

export type SplitResult =
  | { ok: true; value: { filters: unknown[]; splitPath?: string } }
  | { ok: false; reason: string; path: string };

function collect(node: unknown, keys: ReadonlySet<string>, path: (string | number)[], negated: boolean, out: IdList[]): void {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === "and" || key === "or") {
      if (Array.isArray(value)) value.forEach((child, i) => collect(child, keys, [...path, key, i], negated, out));
    } else if (key === "not") {
      collect(value, keys, [...path, key], true, out);
    } else if (keys.has(key)) {
      out.push({ path: [...path, key], key, values: Array.isArray(value) ? value : [value], negated });
    }
  }
}

function replaceAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(root)) return root.map((child, i) => (i === head ? replaceAt(child, rest, value) : child));
  const object = root as Record<string, unknown>;
  return { ...object, [head]: replaceAt(object[head], rest, value) };
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * `sortIdsBy`: when the split list is the resource's own `id` filter and the
 * sorting is by id, chunks are cut from sorted codes so that concatenating the
 * chunks' results keeps the requested order (best effort: it assumes the
 * service orders ids as code points / numbers do).
 */
export function splitIdentifiers(
  filter: unknown,
  identifierFilters: readonly string[],
  options: { sortIdsBy?: "ASC" | "DESC"; limit?: number } = {},
): SplitResult {
  const limit = options.limit ?? IDENTIFIER_LIMIT;
  const lists: IdList[] = [];
  collect(filter, new Set(identifierFilters), ["filter"], false, lists);
  const total = lists.reduce((sum, list) => sum + list.values.length, 0);
  if (total <= limit) return { ok: true, value: { filters: [filter] } };

  const splittable = lists.filter((list) => !list.negated).sort((a, b) => b.values.length - a.values.length);
  const target = splittable[0];
  const largest = [...lists].sort((a, b) => b.values.length - a.values.length)[0];
  if (!target) {
    const where = formatPath(largest?.path ?? ["filter"]);
    return { ok: false, path: where, reason: `${total} identifier codes (limit ${limit}) in lists under "not", which cannot be split` };
  }
  let values = [...new Set(target.values)];
  const room = limit - (total - target.values.length);
  if (room < 1) {
    return {
      ok: false,
      path: formatPath(target.path),
      reason: `${total} identifier codes (limit ${limit}): even after splitting ${formatPath(target.path)}, the other lists hold ${total - target.values.length}`,
    };
  }
  if (options.sortIdsBy && target.key === "id") {
    values = values.sort(compare);
    if (options.sortIdsBy === "DESC") values.reverse();
  }
  const filters: unknown[] = [];
  const relative = target.path.slice(1);
  for (let start = 0; start < values.length; start += room) {
    filters.push(replaceAt(filter, relative, values.slice(start, start + room)));
  }
  return { ok: true, value: { filters, splitPath: formatPath(target.path) } };
}
