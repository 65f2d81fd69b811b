/**
 * Filters and sortings of the reference lists. Where the spec is silent:
 * brands/product-families search is a case-insensitive substring of the name
 * (any locale); product families sort by name.en (else fr, else nl);
 * public-categories take id, parent and search {query, locale};
 * catalog-categories id, parent, type and search; organizations id, type and
 * search (string); none of the category lists sort (id order).
 */
import type { Wire } from "../generate/types.js";
import { enumFilter, intIds, searchLocalized, searchString, stringIds } from "./common-filters.js";
import type { FilterTable } from "./filter.js";
import { simpleSort, type SortTable } from "./sorting.js";

const idOf = (r: Wire) => r.id;
function nameKey(r: Wire): string {
  const name = r.name;
  if (typeof name === "string") return name.toLowerCase();
  const map = (name ?? {}) as Record<string, string | undefined>;
  return (map.en || map.fr || map.nl || "").toLowerCase();
}

export const BRAND_FILTERS: FilterTable<Wire> = { id: intIds("a brand id", idOf), search: searchString() };
export const NAME_SORTINGS: SortTable<Wire> = { id: simpleSort<Wire>(undefined), name: simpleSort<Wire>(nameKey) };
export const FAMILY_FILTERS: FilterTable<Wire> = { id: intIds("a product family id", idOf), search: searchString() };
export const INGREDIENT_FILTERS: FilterTable<Wire> = { id: intIds("an active ingredient id", idOf), search: searchLocalized() };
export const PUBLIC_CATEGORY_FILTERS: FilterTable<Wire> = {
  id: intIds("a public category id", idOf),
  parent: intIds("a public category id", (r) => r.parent),
  search: searchLocalized(),
};
export const CATALOG_CATEGORY_FILTERS: FilterTable<Wire> = {
  id: stringIds("a catalog category id", idOf),
  parent: stringIds("a catalog category id", (r) => r.parent),
  type: enumFilter(["medicine", "veterinary_medicine", "non_medical"], (r) => r.type),
  search: searchLocalized(),
};
export const ORGANIZATION_FILTERS: FilterTable<Wire> = {
  id: intIds("an organization id", idOf),
  type: enumFilter(["supplier", "marketing", "medical_professional", "other"], (r) => r.type),
  search: searchString(),
};
export const ID_SORTING: SortTable<Wire> = { id: simpleSort<Wire>(undefined) };
