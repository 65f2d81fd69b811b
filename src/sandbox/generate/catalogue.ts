/**
 * The generated catalogue: reference data built once (small, fixed size) and
 * products generated on demand from (seed, index). Nothing per product is held,
 * so a 100,000-product stream costs the memory of one product at a time.
 *
 *   createCatalogue({ seed, products, assetBaseUrl })   a few ms: reference data only
 *     .productJson(i)  the JSON text the sandbox streams for product i (~9 KB, ASCII);
 *                      the fast path, 15-40 us on the 2-core dev machine
 *     .product(i)      the same, parsed: about 3x productJson (fresh object each call;
 *                      hidden facts under HIDDEN)
 *     .products()      all products in index order (= id ASC order)
 *     .id(i), .status(i), .updatedAt(i), ...  cheap facts without generating the product
 *     .media()         all media items in id order
 *     .brands, .organizations, ... reference arrays (shared, do not mutate)
 */
import { idBase, indexOfProductId } from "./codes.js";
import { factCreatedAt, factId, factStatus, factStatusTouchedAt, factUpdatedAt, type FactsContext, type Status } from "./facts.js";
import { qInner } from "./json.js";
import { hash3 } from "./prng.js";
import { generateProduct } from "./product.js";
import { formatParts } from "./product-media.js";
import { buildRecords } from "./records.js";
import { changedJson, createChanges, statusAfter, type ChangeOptions } from "./changes.js";
import { buildReference, type Reference } from "./reference.js";
import { HIDDEN, type CorrectionHidden, type MediaHidden, type OrganizationHidden, type ProductHidden, type UpdateHidden, type Wire, type WithHidden } from "./types.js";

export interface CatalogueOptions {
  seed: number;
  /** Number of products N. */
  products: number;
  /** Photo and leaflet URLs start with this (the sandbox's own base URL, no /v4). */
  assetBaseUrl: string;
  /** A catalogue that changes over time (see changes.ts); `clock` is its moment, Unix seconds. */
  changes?: ChangeOptions & { clock: () => number };
}

export type ProductRecord = WithHidden<ProductHidden>;
export type MediaRecord = WithHidden<MediaHidden>;

export interface Catalogue {
  readonly seed: number;
  /** Products now (grows over time when the catalogue changes). */
  readonly total: number;
  /** True when records change over time: their bytes are not the generator's alone. */
  readonly changing: boolean;
  readonly assetBaseUrl: string;
  /** Product i (0 <= i < total) as sent on the wire (parsed); hidden facts under HIDDEN. */
  product(i: number): ProductRecord;
  /** Product i as the JSON text the sandbox sends (about 7 KB, ASCII, PHP-style escapes). The fast path. */
  productJson(i: number): string;
  /** Products 0..total-1, generated one at a time. */
  products(): Iterable<ProductRecord>;
  /** Cheap facts of product i, without generating it. */
  id(i: number): string;
  status(i: number): Status;
  createdAt(i: number): number;
  updatedAt(i: number): number;
  statusTouchedAt(i: number): number;
  /** Index of a product id of this catalogue, or -1. */
  indexOf(id: string): number;
  /** Media items (photos, frontals, links) of product i, as media/query returns them. */
  mediaOf(i: number): MediaRecord[];
  /** Every media item, in id order (product by product). */
  media(): Iterable<MediaRecord>;
  readonly brands: readonly Wire[];
  readonly productFamilies: readonly Wire[];
  readonly activeIngredients: readonly Wire[];
  readonly publicCategories: readonly Wire[];
  readonly catalogCategories: readonly Wire[];
  readonly organizations: readonly WithHidden<OrganizationHidden>[];
  readonly users: readonly Wire[];
  readonly updates: readonly WithHidden<UpdateHidden>[];
  readonly corrections: readonly WithHidden<CorrectionHidden>[];
  /** Internals the server's filters need (brand owners, ...). */
  readonly reference: Reference;
}

/** Media items as media/query sends them: no product-specific displayOrder/organizations. */
function standaloneMedia(item: Wire, hidden: MediaHidden[]): MediaRecord {
  const { displayOrder: _d, organizations: _o, ...rest } = item;
  const facts = hidden.find((h) => h.id === item.id) as MediaHidden;
  return { ...rest, [HIDDEN]: facts } as MediaRecord;
}

export function createCatalogue(options: CatalogueOptions): Catalogue {
  const { seed, assetBaseUrl } = options;
  const total = options.products;
  const seedHash = hash3(seed, 0x5a9d);
  const facts: FactsContext = { seedHash, idBase: idBase(seedHash) };
  const reference = buildReference(seed);
  const records = buildRecords(seed, total, facts, reference);
  const baseEsc = qInner(assetBaseUrl);
  const ctx = { ...facts, ref: reference, baseEsc, photoFormats: formatParts(baseEsc, false), frontalFormats: formatParts(baseEsc, true) };
  const changes = options.changes ? createChanges(seedHash, options.changes) : undefined;
  const clock = options.changes?.clock;
  const baseJson = (i: number) => generateProduct(ctx, i).json;
  // The moment a product's changes start: `since`, or its appearance for a product added since.
  const startOf = (i: number): number => (i < total ? (options.changes as ChangeOptions).since : (changes as NonNullable<typeof changes>).addedAt(i - total));
  const changesOf = (i: number) => (changes && clock ? changes.of(i, startOf(i), clock()) : { times: [], kinds: [] });
  const productJson = (i: number): string => {
    if (!changes) return baseJson(i);
    return changedJson(baseJson(i), seedHash, i, changesOf(i), i < total ? undefined : startOf(i));
  };
  const product = (i: number): ProductRecord => {
    const { json, hidden } = generateProduct(ctx, i);
    const record = JSON.parse(changes ? productJson(i) : json) as ProductRecord;
    record[HIDDEN] = hidden;
    return record;
  };
  const mediaOf = (i: number): MediaRecord[] => {
    const p = product(i);
    const items = [...(p.photos as Wire[]), ...(p.frontals as Wire[]), ...(p.links as Wire[])];
    return items.map((item) => standaloneMedia(item, p[HIDDEN].media));
  };
  const current = () => total + (changes && clock ? changes.added(clock()) : 0);
  return {
    seed,
    get total() {
      return current();
    },
    changing: changes !== undefined,
    assetBaseUrl,
    product,
    productJson,
    *products() {
      for (let i = 0, n = current(); i < n; i++) yield product(i);
    },
    id: (i) => factId(facts, i),
    status: (i) => (changes ? (statusAfter(factStatus(facts, i), changesOf(i).kinds) as Status) : factStatus(facts, i)),
    createdAt: (i) => (i < total ? factCreatedAt(facts, i) : startOf(i)),
    updatedAt: (i) => changesOf(i).times.at(-1) ?? (i < total ? factUpdatedAt(facts, i) : startOf(i)),
    statusTouchedAt: (i) => factStatusTouchedAt(facts, i),
    indexOf(id) {
      const i = indexOfProductId(facts.idBase, id);
      return i >= 0 && i < current() && factId(facts, i) === id ? i : -1;
    },
    mediaOf,
    *media() {
      for (let i = 0, n = current(); i < n; i++) yield* mediaOf(i);
    },
    brands: reference.brands,
    productFamilies: reference.productFamilies,
    activeIngredients: reference.activeIngredients,
    publicCategories: reference.publicCategories,
    catalogCategories: reference.catalogCategories,
    organizations: reference.organizations,
    users: records.users,
    updates: records.updates,
    corrections: records.corrections,
    reference,
  };
}
