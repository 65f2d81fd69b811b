/**
 * The names templates and rules can use. A few derived names (resolved in the
 * channel's locale, or computed by mapping) and otherwise any dotted path over
 * the raw product (`weightWithUnit.unit`, `brands.id`, `seoName.nl`).
 *
 * Derived names: id, status, name, title, brand, brandId, seoName,
 * categoryId (every public category of the product and their ancestors),
 * categoryPath, categoryType (list), prescription, medicine, veterinary,
 * price and salePrice (currency units, VAT included), availability, quantity,
 * hasOffer, gtin, mpn, cip13, acl13, packageContent, locale, country, currency.
 */
import type { Product } from "../catalogue/schemas/product.js";
import type { CompiledChannel } from "./compile.js";
import type { MappingContext } from "./context.js";
import type { Availability } from "./feed-item.js";
import type { ProductFacts } from "./facts.js";
import { resolveLocalized } from "./locale.js";
import { pathGetter, type Getter } from "./rules.js";

/** What one product looks like half-way through mapping for one channel. */
export interface MapState {
  product: Product;
  facts: ProductFacts;
  channel: CompiledChannel;
  context: MappingContext;
  name: string | undefined;
  brand: string | undefined;
  seoName: string | undefined;
  title: string | undefined;
  gtin: string | undefined;
  priceCents: number | undefined;
  salePriceCents: number | undefined;
  availability: Availability | undefined;
  productType: string | undefined;
}

/** A product's state before its item is built: names, prices and the category path come later. */
export function startState(product: Product, facts: ProductFacts, channel: CompiledChannel, context: MappingContext, availability: Availability | undefined): MapState {
  return {
    product, facts, channel, context, name: undefined, brand: undefined, seoName: undefined, title: undefined,
    gtin: undefined, priceCents: undefined, salePriceCents: undefined, availability, productType: undefined,
  };
}

export const DERIVED_FIELDS: Record<string, Getter<MapState>> = {
  id: (s) => s.product.id,
  status: (s) => s.product.status ?? "active",
  name: (s) => s.name,
  title: (s) => s.title,
  brand: (s) => s.brand,
  brandId: (s) => s.facts.brandId,
  seoName: (s) => s.seoName,
  categoryId: (s) => s.facts.categoryIds,
  categoryPath: (s) => s.productType,
  categoryType: (s) => s.facts.categoryTypes,
  prescription: (s) => s.facts.prescription,
  medicine: (s) => s.facts.medicine,
  veterinary: (s) => s.facts.veterinary,
  healthClasses: (s) => s.facts.classes,
  price: (s) => (s.priceCents === undefined ? undefined : s.priceCents / 100),
  salePrice: (s) => (s.salePriceCents === undefined ? undefined : s.salePriceCents / 100),
  availability: (s) => s.availability,
  quantity: (s) => s.facts.offer?.quantity,
  hasOffer: (s) => s.facts.offer !== undefined,
  gtin: (s) => s.gtin,
  mpn: (s) => s.facts.mpn,
  cip13: (s) => s.facts.cip13,
  acl13: (s) => s.facts.acl13,
  packageContent: (s) => s.product.packageContent ?? undefined,
  locale: (s) => s.channel.settings.locale,
  country: (s) => s.channel.settings.country,
  currency: (s) => s.channel.settings.currency,
  /** The shop's url (shop.url, without a trailing /): one channel file serves many shops (docs/shops.md); `{{{shopUrl}}}` inserts it raw. */
  shopUrl: (s) => s.channel.settings.link.shopUrl || undefined,
};

/** Accessor of a rule field: a derived name, else a path over the product. */
export function ruleField(name: string): Getter<MapState> {
  // Own names only: `__proto__` or `constructor` must not find Object.prototype's.
  const derived = Object.hasOwn(DERIVED_FIELDS, name) ? DERIVED_FIELDS[name] : undefined;
  if (derived !== undefined) return derived;
  const get = pathGetter(name);
  return (s) => get(s.product);
}

function toText(value: unknown, chain: readonly string[]): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    const parts = value.map((v) => toText(v, chain)).filter((v): v is string => v !== undefined && v !== "");
    return parts.length === 0 ? undefined : parts.join(", ");
  }
  return resolveLocalized(value, chain)?.value;
}

/** Accessor of a template variable: like ruleField, as text; localized objects resolve along the chain. */
export function templateField(name: string): (s: MapState) => string | undefined {
  const get = ruleField(name);
  if (name === "price" || name === "salePrice") {
    return (s) => {
      const cents = name === "price" ? s.priceCents : s.salePriceCents;
      return cents === undefined ? undefined : (cents / 100).toFixed(2);
    };
  }
  return (s) => toText(get(s), s.channel.chain);
}
