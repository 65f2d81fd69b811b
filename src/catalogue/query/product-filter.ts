/** Filters and sortings of products/query and products/stream (spec "Product filters"). */
import { z } from "zod";
import { Code, digitsCode, Direction, filterSchema, oneOrMany, sortingSchema, TimestampFilter } from "./filter-kit.js";

const ProductId = z.string().min(1);
const IntId = z.number().int().min(0);
const Str = z.string().min(1);

export const ALLOWED_SPECIES = ["human", "veterinary", "surface_maintenance", "phytopharmacy"] as const;
export const CODE_ACTE = ["PAN", "PH1", "PH2", "PH4", "PH7", "PHN"] as const;
export const CONSERVATIONS = ["room", "refrigerator", "fresh", "frozen"] as const;
export const YES_NO_UNKNOWN = ["yes", "no", "unknown"] as const;

export const productFilterLeaves = {
  id: oneOrMany(ProductId),
  /** no_selection is a status of records, not a filter value. */
  status: oneOrMany(z.enum(["active", "replaced", "inactive"])),
  /** Deprecated. */
  ecommerce: oneOrMany(z.enum(YES_NO_UNKNOWN)),
  organization: oneOrMany(IntId),
  publicCategory: oneOrMany(IntId),
  catalogCategories: oneOrMany(Str),
  brand: oneOrMany(IntId),
  productFamily: oneOrMany(IntId),
  /** `type` documented with the example value "contains"; other values are not shown. */
  search: z.strictObject({ query: z.string(), locale: Str, type: Str.optional() }),
  /** true: has an image AND a description AND a public category. */
  minimumContent: z.boolean(),
  /** Flags seen: name, weight, media, descriptions, descriptions.usage; locale optional as weight and media have none. */
  hasContent: z.strictObject({ flag: Str, locale: Str.optional() }),
  ean: oneOrMany(Code),
  /** Deprecated: use eanGtin14. */
  gtin: oneOrMany(Code),
  eanGtin8: oneOrMany(digitsCode(8)),
  eanGtin12: oneOrMany(digitsCode(12)),
  eanGtin13: oneOrMany(digitsCode(13)),
  eanGtin14: oneOrMany(digitsCode(14)),
  hsCode: oneOrMany(Code),
  cisCode: oneOrMany(Code),
  /** Deprecated. */
  ospId: oneOrMany(Code),
  cbId: oneOrMany(Code),
  cipOrAcl7: oneOrMany(Code),
  acl13: oneOrMany(Code),
  cip13: oneOrMany(Code),
  codeActe: z.enum(CODE_ACTE),
  rateOfReimbursement: z.number().min(0).max(100),
  galenicShape: oneOrMany(Str),
  activeIngredient: oneOrMany(IntId),
  conservation: oneOrMany(z.enum(CONSERVATIONS)),
  /** Operators documented: eq (default) and lte; others are not shown, so any is sent. */
  maximumDispenseQuantity: z.strictObject({ value: z.number(), operator: Str.optional() }),
  allowedSpecies: oneOrMany(z.enum(ALLOWED_SPECIES)),
  atcCategory: oneOrMany(Str),
  prescription: z.boolean(),
  /** Deprecated. */
  ospCategory: oneOrMany(Code),
  /** The spec lists yes/no/unknown/assimilated; the service's public docs show a boolean: both pass. */
  narcotic: z.union([z.enum(["yes", "no", "unknown", "assimilated"]), z.boolean()]),
  /** The spec lists yes/no/unknown; the service's public docs show a boolean: both pass. */
  biocide: z.union([z.enum(YES_NO_UNKNOWN), z.boolean()]),
  /** Deprecated: use colors, dietaryRestrictions or galenicShape. */
  attributes: oneOrMany(IntId),
  dietaryRestrictions: oneOrMany(Str),
  colors: oneOrMany(Str),
  notApplicableField: oneOrMany(Str),
  officialDeletionAt: TimestampFilter,
  createdAt: TimestampFilter,
  updatedSince: TimestampFilter,
};

export const ProductFilter = filterSchema(productFilterLeaves);
export type ProductFilter = z.input<typeof ProductFilter>;

/** Filters whose values are identifier codes: at most 1000 per request (split beyond). */
export const PRODUCT_IDENTIFIER_FILTERS = [
  "id",
  "organization",
  "publicCategory",
  "catalogCategories",
  "brand",
  "productFamily",
  "ean",
  "gtin",
  "eanGtin8",
  "eanGtin12",
  "eanGtin13",
  "eanGtin14",
  "hsCode",
  "cisCode",
  "ospId",
  "cbId",
  "cipOrAcl7",
  "acl13",
  "cip13",
  "galenicShape",
  "activeIngredient",
  "atcCategory",
  "ospCategory",
  "attributes",
  "dietaryRestrictions",
  "colors",
] as const;

export const productSortingKeys = {
  id: Direction,
  name: z.strictObject({ direction: Direction, locale: Str }),
  createdAt: Direction,
  /** Last update. */
  touchedAt: Direction,
  /** Last status update. */
  statusTouchedAt: Direction,
  status: Direction,
};

export const ProductSorting = sortingSchema(productSortingKeys);
export type ProductSorting = z.input<typeof ProductSorting>;
