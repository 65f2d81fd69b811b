/** News items (updates), corrections and users, as their query endpoints return them. */
import { z } from "zod";
import { Localized, Meta } from "./common.js";

export const NEWS_TYPES = ["product", "organization", "public_category", "brand"] as const;

export const NewsItem = z.looseObject({
  id: z.number(),
  /** product, organization, public_category, brand (the filter's values); kept open. */
  type: z.string().nullish(),
  /** Service ID of the organization that created it. */
  organization: z.number().nullish(),
  title: Localized.nullish(),
  /** Entries carry `locales[]`; their other fields are not documented and pass through. */
  content: z.array(z.looseObject({ locales: z.array(z.string()).nullish() })).nullish(),
  meta: Meta.nullish(),
  /** Only for type product. */
  products: z.array(z.string()).nullish(),
  /** Only for type brand. */
  brands: z.array(z.number()).nullish(),
  /** Only for type public_category. */
  categories: z.array(z.number()).nullish(),
});
export type NewsItem = z.infer<typeof NewsItem>;

/**
 * The record's status is documented as open, in_progress, solved, closed while the
 * filter takes open, in_progress, handled: kept an open string.
 */
export const Correction = z.looseObject({
  id: z.number(),
  product: z.string().nullish(),
  locale: z.string().nullish(),
  type: z.string().nullish(),
  text: z.string().nullish(),
  status: z.string().nullish(),
  meta: Meta.nullish(),
});
export type Correction = z.infer<typeof Correction>;

export const User = z.looseObject({
  id: z.number(),
  name: z.string().nullish(),
  organization: z.number().nullish(),
  meta: Meta.nullish(),
});
export type User = z.infer<typeof User>;
