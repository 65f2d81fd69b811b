/**
 * The names a layout can use: the FeedItem's for item templates and columns,
 * FeedMeta's for XML headers and footers. Typed against the interfaces, so a
 * field added to FeedItem without its shape here does not compile.
 */
import { ANY, list, object, SCALAR, type Shape } from "../mapping/field-shapes.js";
import type { FeedItem } from "../mapping/feed-item.js";
import type { FeedMeta } from "./types.js";

const MONEY = object({ cents: SCALAR, currency: SCALAR, text: SCALAR, amount: SCALAR });
const MEASURE = object({ value: SCALAR, unit: SCALAR, text: SCALAR });

/**
 * Every FeedItem field must be here (a field added without its shape does not compile).
 * `imageSources` is removed before a row is written (feed-item.ts), so no layout sees it.
 * Names FeedItem does not have yet are allowed: fields added on other branches
 * (landingPageUrl, currentPrice, ...) stay known whichever lands first.
 */
const ITEM_FIELDS: Record<Exclude<keyof FeedItem, "imageSources">, Shape> & Record<string, Shape> = {
  id: SCALAR,
  title: SCALAR,
  description: SCALAR,
  link: SCALAR,
  imageLink: SCALAR,
  additionalImageLinks: list(SCALAR),
  price: MONEY,
  salePrice: MONEY,
  salePriceFrom: SCALAR,
  salePriceUntil: SCALAR,
  availability: SCALAR,
  availabilityDate: SCALAR,
  stockQuantity: SCALAR,
  condition: SCALAR,
  brand: SCALAR,
  gtin: SCALAR,
  gtins: list(SCALAR),
  mpn: SCALAR,
  identifierExists: SCALAR,
  googleProductCategory: SCALAR,
  categoryPath: list(SCALAR),
  productType: SCALAR,
  categoryType: SCALAR,
  weight: MEASURE,
  packageContent: SCALAR,
  unitPricingMeasure: MEASURE,
  cip13: SCALAR,
  acl13: SCALAR,
  codes: object({ cnk: SCALAR, cip7: SCALAR, cip13: SCALAR, acl13: SCALAR, pzn: SCALAR, zi: SCALAR, aic: SCALAR, cn: SCALAR }),
  policy: object({ minAge: SCALAR, maxQuantity: SCALAR }),
  leafletUrl: SCALAR,
  prescription: SCALAR,
  locale: SCALAR,
  fallbacks: ANY,
  custom: ANY,
  landingPageUrl: SCALAR,
  currentPrice: MONEY,
  salePriceEffectiveDate: SCALAR,
  unitPricingBaseMeasure: MEASURE,
  unitPrice: MONEY,
};

/**
 * The item a channel's layout renders. `customNames` closes `custom.<name>` to the
 * channel's own custom fields; undefined leaves it open (the built-in layouts name
 * optional custom fields such as idealo's `custom.deliveryCosts`).
 */
export function itemShape(customNames?: readonly string[]): Shape {
  if (customNames === undefined) return object(ITEM_FIELDS);
  return object({ ...ITEM_FIELDS, custom: object(Object.fromEntries(customNames.map((n) => [n, SCALAR]))) });
}

export const META_SHAPE: Shape = object({
  channel: SCALAR,
  title: SCALAR,
  link: SCALAR,
  description: SCALAR,
  generatedAt: SCALAR,
  locale: SCALAR,
  country: SCALAR,
} satisfies Record<keyof FeedMeta, Shape>);
