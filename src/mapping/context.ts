/**
 * Run-wide data, loaded once and shared by every channel of a run: the public
 * category tree, brands, the offers file, the clock and the price unit, plus
 * memos the hot loop fills lazily (category paths per locale chain, HTML text,
 * per-product facts). Mapping only reads the data; the memos never change a
 * result, they only avoid computing it twice.
 */
import type { Localized } from "../catalogue/schemas/common.js";
import type { Product } from "../catalogue/schemas/product.js";
import type { ProductFacts } from "./facts.js";
import type { PriceUnit } from "./money.js";
import { OffersIndex, type SharedOffers } from "./offers-table.js";
import { Clock } from "./clock.js";

export interface CategoryNode {
  id: number;
  parent?: number | null | undefined;
  name?: Localized | null | undefined;
}

export interface BrandRecord {
  id: number;
  /** Plain string (brands query) or localized (embedded in products). */
  name?: string | Localized | null | undefined;
}

export interface CategoryPath {
  names: string[];
  /** Set when some level's name came from a fallback locale. */
  fallbackLocale?: string;
}

export interface MappingContext {
  readonly categories: ReadonlyMap<number, CategoryNode>;
  readonly brands: ReadonlyMap<number, BrandRecord>;
  /** Undefined when the run has no offers file: every product then uses catalogue data. */
  readonly offers: OffersIndex | undefined;
  /** The run's time (Unix seconds, `clock.now`); compare through `clock.reached()` only (see clock.ts). */
  readonly clock: Clock;
  /** Unit of the catalogue's price fields: cents (the service's real unit) or euro (the spec's wording). */
  readonly priceUnit: PriceUnit;
  readonly memo: {
    /** Category id -> ids from it up to the root. */
    ancestors: Map<number, number[]>;
    /** Locale chain key -> category id -> localized path. */
    paths: Map<string, Map<number, CategoryPath>>;
    /**
     * Channel-independent facts of the last product, and its descriptions as
     * text (HTML -> text). A run maps each product for every channel in a row,
     * so one slot hits every time after the first channel; a WeakMap over all
     * products cost more than it saved, and a run-wide HTML memo held up to
     * 4,096 descriptions (~14 MB per thread) for hits that real catalogues,
     * with a description per product, do not give.
     */
    last: { product: Product | undefined; facts: ProductFacts | undefined };
    /**
     * The owner of what is computed once per product whatever the offers (product-cache.ts): the
     * same object in the contexts of every shop of a run (buildContext's `sharedWith`).
     */
    catalogue: object;
  };
}

export interface ContextInput {
  /** Public categories as returned by public-categories/query ({id, name, parent}). */
  categories?: Iterable<CategoryNode>;
  /** Brands as returned by brands/query ({id, name}). */
  brands?: Iterable<BrandRecord>;
  /** The index, or its shared arrays as a worker thread receives them (OffersIndex.share()). */
  offers?: OffersIndex | SharedOffers;
  /** A Date or Unix seconds; default: the current time. */
  now?: Date | number;
  priceUnit?: PriceUnit;
}

/**
 * `sharedWith`: another shop's context of the same run (the same catalogue and reference lists):
 * this one shares its reference data, its memos and what it computes once per product whatever
 * the offers; only its offers, its clock and its last facts are its own.
 */
export function buildContext(input: ContextInput = {}, sharedWith?: MappingContext): MappingContext {
  if (sharedWith) {
    const now = input.now instanceof Date ? Math.floor(input.now.getTime() / 1000) : (input.now ?? sharedWith.clock.now);
    return {
      categories: sharedWith.categories,
      brands: sharedWith.brands,
      offers: input.offers === undefined || input.offers instanceof OffersIndex ? input.offers : OffersIndex.from(input.offers),
      clock: new Clock(now),
      priceUnit: input.priceUnit ?? sharedWith.priceUnit,
      memo: { ancestors: sharedWith.memo.ancestors, paths: sharedWith.memo.paths, last: { product: undefined, facts: undefined }, catalogue: sharedWith.memo.catalogue },
    };
  }
  const categories = new Map<number, CategoryNode>();
  for (const c of input.categories ?? []) categories.set(c.id, c);
  const brands = new Map<number, BrandRecord>();
  for (const b of input.brands ?? []) brands.set(b.id, b);
  const now = input.now instanceof Date ? Math.floor(input.now.getTime() / 1000) : (input.now ?? Math.floor(Date.now() / 1000));
  return {
    categories,
    brands,
    offers: input.offers === undefined || input.offers instanceof OffersIndex ? input.offers : OffersIndex.from(input.offers),
    clock: new Clock(now),
    priceUnit: input.priceUnit ?? "cents",
    memo: { ancestors: new Map(), paths: new Map(), last: { product: undefined, facts: undefined }, catalogue: {} },
  };
}
