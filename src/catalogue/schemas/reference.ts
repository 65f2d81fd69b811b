/**
 * Reference data read by the unpaged query endpoints: brands, product families,
 * active ingredients, public and catalog categories, organizations.
 * Tolerant like the product schema: only `id` is required, unknown fields pass.
 */
import { z } from "zod";
import { Localized, Meta } from "./common.js";
import { EmbeddedCatalogCategory, EmbeddedPublicCategory } from "./product.js";

/**
 * A brand as the brands query returns it. The spec says `name` is a plain string
 * here (localized when embedded in a product); both shapes are accepted, as
 * wire-facts.md reports clients reading either.
 */
export const Brand = z.looseObject({
  id: z.number(),
  name: z.union([z.string(), Localized]).nullish(),
  logo: z.string().nullish(),
  meta: Meta.nullish(),
});
export type Brand = z.infer<typeof Brand>;

export const ProductFamily = z.looseObject({
  id: z.number(),
  name: Localized.nullish(),
  meta: Meta.nullish(),
});
export type ProductFamily = z.infer<typeof ProductFamily>;

export const ActiveIngredient = z.looseObject({
  id: z.number(),
  name: Localized.nullish(),
  meta: Meta.nullish(),
});
export type ActiveIngredient = z.infer<typeof ActiveIngredient>;

/** Same shape standalone and embedded in a product. */
export const PublicCategory = EmbeddedPublicCategory;
export type PublicCategory = z.infer<typeof PublicCategory>;

export const CatalogCategory = EmbeddedCatalogCategory;
export type CatalogCategory = z.infer<typeof CatalogCategory>;

export const ORGANIZATION_TYPES = ["supplier", "marketing", "medical_professional", "other"] as const;

/** Only for suppliers; every field optional. `country` is ISO 3166 alpha-2. */
export const ContactInformation = z.looseObject({
  address: z.string().nullish(),
  zipCode: z.string().nullish(),
  region: z.string().nullish(),
  city: z.string().nullish(),
  country: z.string().nullish(),
  email: z.string().nullish(),
  url: z.string().nullish(),
});

export const Organization = z.looseObject({
  id: z.number(),
  name: Localized.nullish(),
  /** supplier, marketing, medical_professional, other; kept open so a new type is not a rejection. */
  type: z.string().nullish(),
  meta: Meta.nullish(),
  contactInformation: ContactInformation.nullish(),
});
export type Organization = z.infer<typeof Organization>;
