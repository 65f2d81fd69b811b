/**
 * What a product says independently of any channel, computed once per product
 * and shared by every channel: GTINs, flags, the chosen category, the
 * VAT, the offer. Channels then only do locale-, format- and template-work.
 */
import type { Product } from "../catalogue/schemas/product.js";
import { productClasses, type ProductClass } from "../policy/index.js";
import { ancestors } from "./categories.js";
import type { BrandRecord, CategoryNode, MappingContext } from "./context.js";
import { parseGtin, productGtins, type ProductGtins } from "./gtin.js";
import { productWeight, type Measure } from "./measures.js";
import { nationalCodes, type NationalCodes } from "./national-codes.js";
import { lookupOffer, type Offer } from "./offers.js";
import { intern } from "./locale-cache.js";
import { perProduct } from "./product-cache.js";
import type { Result } from "./reasons.js";
import { normalizeVat } from "./vat.js";

export interface ProductFacts {
  gtins: ProductGtins;
  cip13: string | undefined;
  acl13: string | undefined;
  /** The national pharmacy codes that pass their checks, and a CODE_INVALID warning per refused one. */
  national: NationalCodes;
  /** supplierReference, trimmed. */
  mpn: string | undefined;
  prescription: boolean;
  /** The product's health classes (src/policy/classes.ts): what the policy table decides on. */
  classes: ProductClass[];
  /** Catalog category types of the product (medicine, veterinary_medicine, non_medical). */
  categoryTypes: string[];
  medicine: boolean;
  veterinary: boolean;
  /** medicine > veterinary_medicine > the first type. */
  categoryType: string | undefined;
  /** The deepest public category of the product. */
  category: number | undefined;
  /** Its ancestors, leaf first (Google mapping walks them). */
  categoryAncestors: number[];
  /** Every public category of the product and their ancestors (for rules). */
  categoryIds: number[];
  /** Embedded categories the context's tree lacks. */
  extraCategories: Map<number, CategoryNode> | undefined;
  brandId: number | undefined;
  /** Raw brand names (string or localized) to try in order: the product's, then the context's brand. */
  brandNames: BrandRecord["name"][];
  /** Undefined when the product has no vat. */
  vat: Result<number, "INVALID_VAT"> | undefined;
  /** Undefined when there is no offers file or no row for the product. */
  offer: Offer | undefined;
  /** The offer's sale dates as ISO 8601, for the item. */
  saleFrom: string | undefined;
  saleUntil: string | undefined;
  weight: Measure | undefined;
}

/** Unix seconds as ISO 8601 without milliseconds. */
export function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(".000Z", "Z");
}

function code13(raw: unknown): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw[0] : raw;
  const parsed = parseGtin(value, 13);
  return parsed.ok && parsed.value.key[0] === "0" ? parsed.value.key.slice(1) : undefined;
}

function categoryFacts(product: Product, context: MappingContext) {
  const embedded = product.publicCategories ?? [];
  let extra: Map<number, CategoryNode> | undefined;
  for (const c of embedded) {
    if (!context.categories.has(c.id)) (extra ??= new Map()).set(c.id, c);
  }
  let category: number | undefined;
  let categoryAncestors: number[] = [];
  const all = new Set<number>();
  for (const c of embedded) {
    const ids = ancestors(context, c.id, extra);
    for (const id of ids) all.add(id);
    if (ids.length > categoryAncestors.length) [category, categoryAncestors] = [c.id, ids];
  }
  return { category, categoryAncestors, categoryIds: [...all], extraCategories: extra };
}

/** The facts no offers file changes: computed once per product for every shop of a run (product-cache.ts). */
type CatalogueFacts = Omit<ProductFacts, "offer" | "national" | "saleFrom" | "saleUntil">;

function catalogueFacts(product: Product, context: MappingContext): CatalogueFacts {
  const gtins = productGtins(product);
  const types: string[] = [];
  for (const c of product.catalogCategories ?? []) {
    if (typeof c.type === "string" && c.type !== "" && !types.includes(c.type)) types.push(c.type);
  }
  const medicine = types.includes("medicine");
  const veterinary = types.includes("veterinary_medicine");
  const brand = product.brands?.[0];
  const brandNames = brand === undefined ? [] : [brand.name, context.brands.get(brand.id)?.name].filter((n) => n !== null && n !== undefined);
  const mpn = typeof product.supplierReference === "string" ? product.supplierReference.trim() : "";
  const categories = categoryFacts(product, context);
  const cip13 = code13(product.cip13);
  const acl13 = code13(product.acl13);
  return {
    gtins,
    cip13,
    acl13,
    mpn: mpn === "" ? undefined : mpn,
    prescription: product.prescription === true,
    classes: productClasses(product),
    categoryTypes: types,
    medicine,
    veterinary,
    categoryType: medicine ? "medicine" : veterinary ? "veterinary_medicine" : types[0],
    category: categories.category,
    categoryAncestors: categories.categoryAncestors,
    categoryIds: categories.categoryIds,
    extraCategories: categories.extraCategories,
    brandId: brand?.id,
    brandNames,
    vat: product.vat === null || product.vat === undefined ? undefined : normalizeVat(product.vat),
    weight: productWeight(product),
  };
}

const CATALOGUE_FACTS = intern("catalogue facts");

export function computeFacts(product: Product, context: MappingContext): ProductFacts {
  const base = perProduct(context.memo.catalogue, product, CATALOGUE_FACTS, () => catalogueFacts(product, context));
  // The shop's own: its offer, the national codes it may add, the offer's sale dates.
  const offer = context.offers === undefined ? undefined : lookupOffer(context.offers, product.id, base.gtins.valid.map((g) => g.key));
  return {
    ...base,
    national: nationalCodes(product, base.cip13, base.acl13, offer?.codes),
    offer,
    saleFrom: offer?.saleFrom === undefined ? undefined : isoSeconds(offer.saleFrom),
    saleUntil: offer?.saleUntil === undefined ? undefined : isoSeconds(offer.saleUntil),
  };
}

/** computeFacts, memoised for the last product (map a product for all channels in a row). */
export function productFacts(product: Product, context: MappingContext): ProductFacts {
  const last = context.memo.last;
  if (last.product === product && last.facts !== undefined) return last.facts;
  const facts = computeFacts(product, context);
  last.product = product;
  last.facts = facts;
  return facts;
}
