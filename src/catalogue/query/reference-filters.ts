/**
 * Filters and sortings of the reference-data queries: updates, brands, product
 * families, active ingredients, corrections, users. Public categories, catalog
 * categories and organizations are named by the spec without their filters: their
 * filter and sorting are any JSON object, sent as given (see OpenObject).
 */
import { z } from "zod";
import { Direction, filterSchema, oneOrMany, sortingSchema, TimestampFilter } from "./filter-kit.js";
import { NEWS_TYPES } from "../schemas/activity.js";

const Str = z.string().min(1);
const IntId = z.number().int().min(0);

export const updateFilterLeaves = {
  /** One ID (the spec says integer, not a list). */
  id: IntId,
  organization: oneOrMany(IntId),
  newsType: oneOrMany(z.enum(NEWS_TYPES)),
  createdAt: TimestampFilter,
  updatedSince: TimestampFilter,
  locale: oneOrMany(Str),
  product: oneOrMany(Str),
  publicCategory: oneOrMany(IntId),
  brand: oneOrMany(IntId),
  targetGroup: oneOrMany(Str),
};
export const UpdateFilter = filterSchema(updateFilterLeaves);
export type UpdateFilter = z.input<typeof UpdateFilter>;
export const UPDATE_IDENTIFIER_FILTERS = ["organization", "product", "publicCategory", "brand"] as const;
export const updateSortingKeys = { id: Direction, createdAt: Direction, sortOrder: Direction };
export const UpdateSorting = sortingSchema(updateSortingKeys);
export type UpdateSorting = z.input<typeof UpdateSorting>;

/** Brands and product families share filters and sortings. */
export const namedFilterLeaves = { id: oneOrMany(IntId), search: z.string() };
export const BrandFilter = filterSchema(namedFilterLeaves);
export type BrandFilter = z.input<typeof BrandFilter>;
export const ProductFamilyFilter = BrandFilter;
export type ProductFamilyFilter = BrandFilter;
export const NAMED_IDENTIFIER_FILTERS = ["id"] as const;
export const namedSortingKeys = { id: Direction, name: Direction };
export const BrandSorting = sortingSchema(namedSortingKeys);
export type BrandSorting = z.input<typeof BrandSorting>;
export const ProductFamilySorting = BrandSorting;
export type ProductFamilySorting = BrandSorting;

/** Active ingredients: no sorting at all. */
export const activeIngredientFilterLeaves = {
  id: oneOrMany(IntId),
  search: z.strictObject({ query: z.string(), locale: Str }),
};
export const ActiveIngredientFilter = filterSchema(activeIngredientFilterLeaves);
export type ActiveIngredientFilter = z.input<typeof ActiveIngredientFilter>;

export const correctionFilterLeaves = {
  /** One product ID. */
  product: Str,
  /** The filter's values (the record's status uses solved/closed instead of handled). */
  status: z.enum(["open", "in_progress", "handled"]),
  organization: IntId,
  search: z.string(),
  locale: oneOrMany(Str),
  type: Str,
  /** User ID. */
  createdBy: IntId,
  createdAt: TimestampFilter,
};
export const CorrectionFilter = filterSchema(correctionFilterLeaves);
export type CorrectionFilter = z.input<typeof CorrectionFilter>;
export const correctionSortingKeys = { touchedAt: Direction };
export const CorrectionSorting = sortingSchema(correctionSortingKeys);
export type CorrectionSorting = z.input<typeof CorrectionSorting>;

export const userFilterLeaves = {
  id: oneOrMany(IntId),
  organization: IntId,
  /** VAT number of the linked organization. */
  vatNr: Str,
  finessNr: Str,
  /** CIP-GERS number of the linked organization. */
  cipNr: z.union([Str, z.number().int().min(0)]),
};
export const UserFilter = filterSchema(userFilterLeaves);
export type UserFilter = z.input<typeof UserFilter>;
export const userSortingKeys = { id: Direction };
export const UserSorting = sortingSchema(userSortingKeys);
export type UserSorting = z.input<typeof UserSorting>;
