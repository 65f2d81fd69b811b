/**
 * Public category paths and Google taxonomy ids. The tree comes from the
 * context (public-categories/query); categories embedded in a product fill in
 * ids the tree lacks. Parent links are followed with a cycle guard.
 */
import { decodeEntities } from "./entities.js";
import type { CategoryNode, CategoryPath, MappingContext } from "./context.js";
import { resolveLocalized } from "./locale.js";

const MAX_DEPTH = 32;

/** The category and its ancestors, leaf first. `extra` holds nodes embedded in the product. */
export function ancestors(context: MappingContext, id: number, extra?: ReadonlyMap<number, CategoryNode>): number[] {
  const cached = context.memo.ancestors.get(id);
  if (cached !== undefined) return cached;
  const ids: number[] = [];
  let usedExtra = false;
  let current: number | null | undefined = id;
  while (current !== null && current !== undefined && ids.length < MAX_DEPTH && !ids.includes(current)) {
    ids.push(current);
    let node: CategoryNode | undefined = context.categories.get(current);
    if (node === undefined) {
      node = extra?.get(current);
      usedExtra = true;
    }
    current = node?.parent;
  }
  // Paths built from one product's embedded data are not shared with others.
  if (!usedExtra) context.memo.ancestors.set(id, ids);
  return ids;
}

/** Localized names from the root down to `id`; levels without a name in the chain are left out. */
export function categoryPath(
  context: MappingContext,
  id: number,
  chain: readonly string[],
  chainKey: string,
  extra?: ReadonlyMap<number, CategoryNode>,
): CategoryPath {
  let byId = context.memo.paths.get(chainKey);
  const hit = byId?.get(id);
  if (hit !== undefined) return hit;
  const ids = ancestors(context, id, extra);
  const names: string[] = [];
  let fallbackLocale: string | undefined;
  let usedExtra = false;
  for (let i = ids.length - 1; i >= 0; i--) {
    const cid = ids[i] as number;
    let node = context.categories.get(cid);
    if (node === undefined) {
      node = extra?.get(cid);
      usedExtra = true;
    }
    const name = resolveLocalized(node?.name, chain);
    if (name === undefined) continue;
    names.push(decodeEntities(name.value).trim());
    if (name.locale !== chain[0]) fallbackLocale ??= name.locale;
  }
  const path: CategoryPath = fallbackLocale === undefined ? { names } : { names, fallbackLocale };
  if (!usedExtra) {
    if (byId === undefined) context.memo.paths.set(chainKey, (byId = new Map()));
    byId.set(id, path);
  }
  return path;
}

/** The taxonomy id of the nearest mapped ancestor (the category itself first). */
export function googleCategory(ids: readonly number[], map: Readonly<Record<string, string | number>>): string | undefined {
  for (const id of ids) {
    const hit = map[String(id)];
    if (hit !== undefined) return String(hit);
  }
  return undefined;
}
