/**
 * Typed builders for filters and sortings, one per filter key of each resource,
 * derived from the zod shapes so they cannot drift from the validation:
 *
 *   filters.products.and(filters.products.status(["active", "inactive"]), filters.products.brand([4, 14]))
 *   sortings.products.name({ direction: "ASC", locale: "fr" })
 *
 * Builders only assemble objects; the client validates the whole body anyway.
 */
import type { z } from "zod";
import type { FilterOf, SortingOf } from "./filter-kit.js";
import { mediaFilterLeaves, mediaSortingKeys } from "./media-filter.js";
import { productFilterLeaves, productSortingKeys } from "./product-filter.js";
import {
  activeIngredientFilterLeaves,
  correctionFilterLeaves,
  correctionSortingKeys,
  namedFilterLeaves,
  namedSortingKeys,
  updateFilterLeaves,
  updateSortingKeys,
  userFilterLeaves,
  userSortingKeys,
} from "./reference-filters.js";

export type FilterBuilders<S extends z.ZodRawShape> = {
  readonly [K in keyof S]-?: (value: z.input<S[K]>) => FilterOf<S>;
} & {
  and(...filters: FilterOf<S>[]): FilterOf<S>;
  or(...filters: FilterOf<S>[]): FilterOf<S>;
  not(filter: FilterOf<S>): FilterOf<S>;
};

export type SortingBuilders<S extends z.ZodRawShape> = {
  readonly [K in keyof S]-?: (value: z.input<S[K]>) => SortingOf<S>;
};

function keyed(keys: string[]): Record<string, (value: unknown) => Record<string, unknown>> {
  return Object.fromEntries(keys.map((key) => [key, (value: unknown) => ({ [key]: value })]));
}

export function filterBuilders<S extends z.ZodRawShape>(leaves: S): FilterBuilders<S> {
  return Object.freeze({
    ...keyed(Object.keys(leaves)),
    and: (...filters: unknown[]) => ({ and: filters }),
    or: (...filters: unknown[]) => ({ or: filters }),
    not: (filter: unknown) => ({ not: filter }),
  }) as unknown as FilterBuilders<S>;
}

export function sortingBuilders<S extends z.ZodRawShape>(keys: S): SortingBuilders<S> {
  return Object.freeze(keyed(Object.keys(keys))) as unknown as SortingBuilders<S>;
}

export const filters = {
  products: filterBuilders(productFilterLeaves),
  media: filterBuilders(mediaFilterLeaves),
  updates: filterBuilders(updateFilterLeaves),
  brands: filterBuilders(namedFilterLeaves),
  productFamilies: filterBuilders(namedFilterLeaves),
  activeIngredients: filterBuilders(activeIngredientFilterLeaves),
  corrections: filterBuilders(correctionFilterLeaves),
  users: filterBuilders(userFilterLeaves),
};

export const sortings = {
  products: sortingBuilders(productSortingKeys),
  media: sortingBuilders(mediaSortingKeys),
  updates: sortingBuilders(updateSortingKeys),
  brands: sortingBuilders(namedSortingKeys),
  productFamilies: sortingBuilders(namedSortingKeys),
  corrections: sortingBuilders(correctionSortingKeys),
  users: sortingBuilders(userSortingKeys),
};
