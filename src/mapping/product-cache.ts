/**
 * What is computed once per product and reused until the next one: by the channels of a run
 * (mapped one after the other), and, for what no offers file changes (the product's facts, its
 * descriptions as text, its photos), by every shop of a run of many (docs/shops.md): their
 * contexts share one `memo.catalogue` token, and each shop's context stays the owner of what its
 * offers decide (the whole mapping, locale-cache.ts sharedMapping).
 */
import type { Product } from "../catalogue/schemas/product.js";

interface ProductCache {
  product: Product | undefined;
  /** By key (small integers: hashing a long key string on every call cost more than it saved). */
  values: Map<number, unknown>;
  /** HTML -> text of the product's descriptions (text.ts), for every channel and shop. */
  html: Map<string, string>;
  /** Report lines by what they say (pipeline/channel-mapper.ts): the same exclusion in another channel or shop is the same line. */
  lines: Map<string, string>;
}

const caches = new WeakMap<object, ProductCache>();

function cacheOf(owner: object, product: Product): ProductCache {
  let cache = caches.get(owner);
  if (!cache) caches.set(owner, (cache = { product: undefined, values: new Map(), html: new Map(), lines: new Map() }));
  if (cache.product !== product) {
    cache.product = product;
    cache.values.clear();
    cache.html.clear();
    cache.lines.clear();
  }
  return cache;
}

/** The value under `key` for this product and owner, computed once per product. */
export function perProduct<T>(owner: object, product: Product, key: number, compute: () => T): T {
  const cache = cacheOf(owner, product);
  if (cache.values.has(key)) return cache.values.get(key) as T;
  const value = compute();
  cache.values.set(key, value);
  return value;
}

/** The product's HTML -> text memo under this owner. */
export function productHtml(owner: object, product: Product): Map<string, string> {
  return cacheOf(owner, product).html;
}

/** The product's report lines under this owner, by what they say. */
export function productLines(owner: object, product: Product): Map<string, string> {
  return cacheOf(owner, product).lines;
}
