/**
 * The Product as the service sends it (spec "Product" plus wire-facts.md).
 * Required: only `id`. Everything else is optional because real records omit
 * fields freely; whether a missing field matters is decided per channel by the
 * mapping layer, with a reason code.
 */
import { z } from "zod";
import { CodeWithName, Localized, Meta, Timestamp, WireAmount, WireCode, WireGtin, WithUnit } from "./common.js";
import { Link, Photo } from "./media.js";

/** `brands[].name` is documented as localized; four public clients read a plain string. */
export const EmbeddedBrand = z.looseObject({
  id: z.number(),
  name: z.union([z.string(), Localized]).nullish(),
  meta: Meta.nullish(),
});
export type EmbeddedBrand = z.infer<typeof EmbeddedBrand>;

export const EmbeddedPublicCategory = z.looseObject({
  id: z.number(),
  name: Localized.nullish(),
  parent: z.number().nullish(),
  meta: Meta.nullish(),
});

export const EmbeddedCatalogCategory = z.looseObject({
  id: z.string(),
  name: Localized.nullish(),
  description: Localized.nullish(),
  parent: z.string().nullish(),
  order: z.number().nullish(),
  /** medicine, veterinary_medicine, non_medical; kept open so a new type is not a rejected record. */
  type: z.string().nullish(),
});

const IdWithName = z.looseObject({ id: z.number(), name: Localized.nullish(), meta: Meta.nullish() });

export const Description = z.looseObject({
  id: z.number(),
  locales: z.array(z.string()).nullish(),
  targetGroups: z.array(z.string()).nullish(),
  type: z.string().nullish(),
  /** HTML, per locale. */
  content: Localized.nullish(),
  meta: Meta.nullish(),
});
export type Description = z.infer<typeof Description>;

export const Leaflet = z.looseObject({
  id: z.number(),
  locales: z.array(z.string()).nullish(),
  type: z.string().nullish(),
  url: Localized.nullish(),
  meta: Meta.nullish(),
});
export type Leaflet = z.infer<typeof Leaflet>;

export const Product = z.looseObject({
  id: z.string().min(1),
  status: z.string().nullish(),
  ecommerce: z.string().nullish(),
  replacement: z.string().nullish(),
  name: Localized.nullish(),
  seoName: Localized.nullish(),
  shortDescription: Localized.nullish(),
  prescription: z.boolean().nullish(),
  requiresLegalText: z.boolean().nullish(),
  isANutritionSupplement: z.boolean().nullish(),
  biocide: z.string().nullish(),
  officialDeletionAt: Timestamp.nullish(),
  ean: z.array(WireCode).nullish(),
  gtin: WireGtin.nullish(),
  eanGtin8: WireGtin.nullish(),
  eanGtin12: WireGtin.nullish(),
  eanGtin13: WireGtin.nullish(),
  eanGtin14: WireGtin.nullish(),
  supplierReference: z.string().nullish(),
  hsCode: WireCode.nullish(),
  ospId: WireCode.nullish(),
  cbId: WireCode.nullish(),
  cisCode: WireCode.nullish(),
  lpprCode: z
    .array(z.looseObject({ type: z.number().nullish(), code: z.string().nullish(), quantity: z.string().nullish() }))
    .nullish(),
  cipOrAcl7: WireCode.nullish(),
  cip13: WireGtin.nullish(),
  acl13: WireGtin.nullish(),
  /**
   * Belgian CNK (7 digits), sent by the service's Belgian platform though spec v4 does not list
   * it; shaped like cip13 (a string, an integer or a list of either). Checked by the mapping.
   */
  cnk: WireGtin.nullish(),
  codeActe: z.string().nullish(),
  rateOfReimbursement: z.number().nullish(),
  conservationLabel: z.unknown().optional(),
  /** Shape across the three temperature scales is not documented. */
  conservationMin: z.unknown().optional(),
  conservationMax: z.unknown().optional(),
  conservation: z.string().nullish(),
  maximumDispenseQuantity: z.number().nullish(),
  /** Scale undocumented: 21, 0.21 and 2100 are all seen; the mapping normalises. */
  vat: z.number().nullish(),
  publicPrice: WireAmount.nullish(),
  manufacturerPrice: WireAmount.nullish(),
  pharmacistPrice: WireAmount.nullish(),
  tfrPrice: WireAmount.nullish(),
  ttcPrice: WireAmount.nullish(),
  reimbursementRate: z.number().nullish(),
  patientContribution: WireAmount.nullish(),
  franceGalenicShape: z
    .array(z.looseObject({ id: z.string(), parent: z.string().nullish(), name: Localized.nullish() }))
    .nullish(),
  weight: z.number().nullish(),
  weightWithUnit: WithUnit.nullish(),
  widthWithUnit: WithUnit.nullish(),
  lengthWithUnit: WithUnit.nullish(),
  depthWithUnit: WithUnit.nullish(),
  width: z.number().nullish(),
  length: z.number().nullish(),
  depth: z.number().nullish(),
  packageContent: z.string().nullish(),
  packageQuantity: z.number().nullish(),
  packagingUnit: z.string().nullish(),
  popularity: z.number().nullish(),
  atc: z.string().nullish(),
  atcCategory: z.array(z.string()).nullish(),
  notApplicableField: z.array(z.string()).nullish(),
  publicCategories: z.array(EmbeddedPublicCategory).nullish(),
  catalogCategories: z.array(EmbeddedCatalogCategory).nullish(),
  ospCategory: z.unknown().optional(),
  brands: z.array(EmbeddedBrand).nullish(),
  productFamily: z.array(IdWithName).nullish(),
  attributes: z.unknown().optional(),
  dietaryRestrictions: z.array(CodeWithName).nullish(),
  colors: z.array(CodeWithName).nullish(),
  deleted: z.boolean().nullish(),
  organizations: z.array(z.looseObject({ id: z.number(), name: Localized.nullish(), type: z.string().nullish() })).nullish(),
  activeIngredients: z.array(IdWithName).nullish(),
  allowedSpecies: z.array(CodeWithName).nullish(),
  photos: z.array(Photo).nullish(),
  frontals: z.array(Photo).nullish(),
  links: z.array(Link).nullish(),
  descriptions: z.array(Description).nullish(),
  leaflets: z.array(Leaflet).nullish(),
  meta: Meta.nullish(),
  embedUrl: z.string().nullish(),
  publicPageUrl: z.string().nullish(),
});
export type Product = z.infer<typeof Product>;
