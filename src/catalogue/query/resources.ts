/**
 * The resources of the API v4 that the client reads: endpoint, record schema,
 * filter and sorting schemas, which filters take identifier lists, and what the
 * query body requires. One table, so the client, the validation and the fetch
 * command agree.
 */
import type { z } from "zod";
import { ActiveIngredient, Brand, CatalogCategory, Organization, ProductFamily, PublicCategory } from "../schemas/reference.js";
import { Correction, NewsItem, User } from "../schemas/activity.js";
import { MediaItem } from "../schemas/media.js";
import { Product } from "../schemas/product.js";
import { OpenObject } from "./filter-kit.js";
import { MEDIA_IDENTIFIER_FILTERS, MediaFilter, MediaSorting } from "./media-filter.js";
import { PRODUCT_IDENTIFIER_FILTERS, ProductFilter, ProductSorting } from "./product-filter.js";
import {
  ActiveIngredientFilter,
  BrandFilter,
  BrandSorting,
  CorrectionFilter,
  CorrectionSorting,
  NAMED_IDENTIFIER_FILTERS,
  UPDATE_IDENTIFIER_FILTERS,
  UpdateFilter,
  UpdateSorting,
  UserFilter,
  UserSorting,
} from "./reference-filters.js";

type Need = "required" | "optional";

export interface ResourceDef {
  /** Path segment under /v4 (also the resource name of `queryAll` and `pharmafeed fetch`). */
  readonly path: string;
  readonly record: z.ZodType;
  readonly filter: z.ZodType;
  /** null: the endpoint takes no sorting. */
  readonly sorting: z.ZodType | null;
  readonly body: { filter: Need; sorting: Need; page: Need };
  /** Filters whose values count toward the 1000 identifier codes of one request. */
  readonly identifierFilters: readonly string[];
  /** Has a /stream endpoint. */
  readonly stream: boolean;
  /** The query's meta.total stops at 10,000 (products, media). */
  readonly windowed: boolean;
}

const referenceBody = { filter: "optional", sorting: "optional", page: "optional" } as const;

function reference(path: string, record: z.ZodType, filter: z.ZodType, sorting: z.ZodType | null, ids: readonly string[]): ResourceDef {
  return { path, record, filter, sorting, body: referenceBody, identifierFilters: ids, stream: false, windowed: false };
}

const OPEN_IDENTIFIERS = ["id"] as const;

export const RESOURCES = {
  products: {
    path: "products",
    record: Product,
    filter: ProductFilter,
    sorting: ProductSorting,
    body: { filter: "required", sorting: "required", page: "required" },
    identifierFilters: PRODUCT_IDENTIFIER_FILTERS,
    stream: true,
    windowed: true,
  },
  media: {
    path: "media",
    record: MediaItem,
    filter: MediaFilter,
    sorting: MediaSorting,
    body: { filter: "required", sorting: "required", page: "required" },
    identifierFilters: MEDIA_IDENTIFIER_FILTERS,
    stream: true,
    windowed: true,
  },
  updates: reference("updates", NewsItem, UpdateFilter, UpdateSorting, UPDATE_IDENTIFIER_FILTERS),
  brands: reference("brands", Brand, BrandFilter, BrandSorting, NAMED_IDENTIFIER_FILTERS),
  "product-families": reference("product-families", ProductFamily, BrandFilter, BrandSorting, NAMED_IDENTIFIER_FILTERS),
  "active-ingredients": reference("active-ingredients", ActiveIngredient, ActiveIngredientFilter, null, NAMED_IDENTIFIER_FILTERS),
  corrections: reference("corrections", Correction, CorrectionFilter, CorrectionSorting, []),
  users: reference("users", User, UserFilter, UserSorting, NAMED_IDENTIFIER_FILTERS),
  // The spec names these endpoints without their filters or sortings.
  "public-categories": reference("public-categories", PublicCategory, OpenObject, OpenObject, OPEN_IDENTIFIERS),
  "catalog-categories": reference("catalog-categories", CatalogCategory, OpenObject, OpenObject, OPEN_IDENTIFIERS),
  organizations: reference("organizations", Organization, OpenObject, OpenObject, OPEN_IDENTIFIERS),
} as const satisfies Record<string, ResourceDef>;

export type ResourceName = keyof typeof RESOURCES;
export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];
export type StreamResourceName = "products" | "media";

/** The record, filter and sorting types of each resource (from the zod schemas). */
export interface ResourceTypes {
  products: { record: Product; filter: z.input<typeof ProductFilter>; sorting: z.input<typeof ProductSorting> };
  media: { record: MediaItem; filter: z.input<typeof MediaFilter>; sorting: z.input<typeof MediaSorting> };
  updates: { record: NewsItem; filter: z.input<typeof UpdateFilter>; sorting: z.input<typeof UpdateSorting> };
  brands: { record: Brand; filter: z.input<typeof BrandFilter>; sorting: z.input<typeof BrandSorting> };
  "product-families": { record: ProductFamily; filter: z.input<typeof BrandFilter>; sorting: z.input<typeof BrandSorting> };
  "active-ingredients": { record: ActiveIngredient; filter: z.input<typeof ActiveIngredientFilter>; sorting: never };
  corrections: { record: Correction; filter: z.input<typeof CorrectionFilter>; sorting: z.input<typeof CorrectionSorting> };
  users: { record: User; filter: z.input<typeof UserFilter>; sorting: z.input<typeof UserSorting> };
  "public-categories": { record: PublicCategory; filter: OpenObject; sorting: OpenObject };
  "catalog-categories": { record: CatalogCategory; filter: OpenObject; sorting: OpenObject };
  organizations: { record: Organization; filter: OpenObject; sorting: OpenObject };
}

export type RecordOf<R extends ResourceName> = ResourceTypes[R]["record"];
export type FilterFor<R extends ResourceName> = ResourceTypes[R]["filter"];
export type SortingFor<R extends ResourceName> = ResourceTypes[R]["sorting"];

/** Largest offset a products or media query can reach; past it, use the stream endpoint. */
export const RESULT_WINDOW = 10_000;
/** Identifier codes allowed in one request. */
export const IDENTIFIER_LIMIT = 1000;
