/** Small matchers shared by the filter tables. */
import type { Wire } from "../generate/types.js";
import { digitCode } from "./params.js";

/** true when some entry's `id` is in `set`. */
export function anyId(list: unknown, set: ReadonlySet<unknown>): boolean {
  if (!Array.isArray(list)) return false;
  for (const entry of list as Wire[]) if (set.has(entry.id)) return true;
  return false;
}

/** A wire code (string, integer or list of them) as normalised digit strings. */
export function codesOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const v of list) {
    const code = digitCode(v);
    if (code !== undefined) out.push(code);
  }
  return out;
}

export function anyCode(value: unknown, set: ReadonlySet<string>): boolean {
  for (const code of codesOf(value)) if (set.has(code)) return true;
  return false;
}

/** Public category ids with all their ancestors, so a filter on a parent matches its subtree. */
export function ancestorsOf(categories: readonly Wire[]): Map<unknown, unknown[]> {
  const parent = new Map<unknown, unknown>();
  for (const c of categories) parent.set(c.id, c.parent);
  const out = new Map<unknown, unknown[]>();
  for (const c of categories) {
    const chain: unknown[] = [];
    let at: unknown = c.id;
    while (at !== null && at !== undefined && chain.length < 20) {
      chain.push(at);
      at = parent.get(at);
    }
    out.set(c.id, chain);
  }
  return out;
}

/** true when a category in `list` or one of its ancestors is in `set`. */
export function inTree(list: unknown, set: ReadonlySet<unknown>, ancestors: Map<unknown, unknown[]>): boolean {
  if (!Array.isArray(list)) return false;
  for (const entry of list as Wire[]) {
    for (const id of ancestors.get(entry.id) ?? [entry.id]) if (set.has(id)) return true;
  }
  return false;
}

/** Text in a localized value: the locale's string, or any locale's when none is given. */
export function localizedText(value: unknown, locale: string | undefined): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  const map = value as Record<string, unknown>;
  if (locale !== undefined) return typeof map[locale] === "string" ? [map[locale] as string] : [];
  return Object.values(map).filter((v): v is string => typeof v === "string");
}
