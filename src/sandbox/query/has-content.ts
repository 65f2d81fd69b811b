/**
 * hasContent {flag, locale?}: the product has a non-empty value for `flag`.
 * Flags (the service lists them at products/get-fields; seen: name, weight,
 * media, descriptions, descriptions.usage):
 * - any Product field name: present, not null, not "" and not []; a localized
 *   field with `locale` needs a non-empty string in that locale;
 * - media: a photo, frontal or link (with `locale`: one whose locales include it);
 * - descriptions.<type>: a description of that type (with `locale`: content in it).
 * Any other flag is a violation, so a typo does not silently match nothing.
 */
import type { Wire } from "../generate/types.js";
import type { FilterDef } from "./filter.js";
import { localizedText } from "./match.js";
import { shape, violation } from "./params.js";
import type { ProductRow } from "./row.js";

export const PRODUCT_FIELDS = [
  "id", "status", "ecommerce", "replacement", "name", "seoName", "shortDescription", "prescription", "requiresLegalText",
  "isANutritionSupplement", "biocide", "officialDeletionAt", "ean", "gtin", "eanGtin8", "eanGtin12", "eanGtin13", "eanGtin14",
  "supplierReference", "hsCode", "ospId", "cbId", "cisCode", "lpprCode", "cipOrAcl7", "cip13", "acl13", "codeActe",
  "rateOfReimbursement", "conservationLabel", "conservationMin", "conservationMax", "conservation", "maximumDispenseQuantity",
  "vat", "publicPrice", "manufacturerPrice", "pharmacistPrice", "tfrPrice", "ttcPrice", "reimbursementRate", "patientContribution",
  "franceGalenicShape", "weight", "weightWithUnit", "widthWithUnit", "lengthWithUnit", "depthWithUnit", "width", "length", "depth",
  "packageContent", "packageQuantity", "packagingUnit", "popularity", "atc", "atcCategory", "notApplicableField", "publicCategories",
  "catalogCategories", "ospCategory", "brands", "productFamily", "attributes", "dietaryRestrictions", "colors", "deleted",
  "organizations", "activeIngredients", "allowedSpecies", "photos", "frontals", "links", "descriptions", "leaflets",
] as const;

const LOCALIZED = new Set(["name", "seoName", "shortDescription"]);
const MEDIA_LISTS = ["photos", "frontals", "links"] as const;

function filled(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

function mediaFor(list: unknown, locale: string | undefined): boolean {
  if (!Array.isArray(list)) return false;
  if (locale === undefined) return list.length > 0;
  return (list as Wire[]).some((m) => Array.isArray(m.locales) && m.locales.includes(locale));
}

function descriptionsFor(list: unknown, type: string | undefined, locale: string | undefined): boolean {
  if (!Array.isArray(list)) return false;
  return (list as Wire[]).some((d) => (type === undefined || d.type === type) && localizedText(d.content, locale).some((t) => t !== ""));
}

export function hasContent(product: Wire, flag: string, locale: string | undefined): boolean {
  if (flag === "media") return MEDIA_LISTS.some((key) => mediaFor(product[key], locale));
  if ((MEDIA_LISTS as readonly string[]).includes(flag)) return mediaFor(product[flag], locale);
  if (flag === "descriptions") return descriptionsFor(product.descriptions, undefined, locale);
  if (flag.startsWith("descriptions.")) return descriptionsFor(product.descriptions, flag.slice("descriptions.".length), locale);
  if (LOCALIZED.has(flag)) return localizedText(product[flag], locale).some((t) => t !== "");
  return filled(product[flag]);
}

export const hasContentFilter: FilterDef<ProductRow> = {
  parse(ctx, path, value) {
    const obj = shape(ctx, path, value, ["flag"], ["locale"]);
    if (!obj) return undefined;
    const flag = obj.flag;
    if (typeof flag !== "string") return violation(ctx, `${path}.flag`, `expected a field name, got ${JSON.stringify(flag)}`);
    const known = flag === "media" || flag === "descriptions" || /^descriptions\.[a-z_]+$/.test(flag) || (PRODUCT_FIELDS as readonly string[]).includes(flag);
    if (!known) return violation(ctx, `${path}.flag`, `unknown flag; use a product field name, media or descriptions.<type>, got ${JSON.stringify(flag)}`);
    if (obj.locale !== undefined && typeof obj.locale !== "string") return violation(ctx, `${path}.locale`, `expected a locale code, got ${JSON.stringify(obj.locale)}`);
    const locale = obj.locale as string | undefined;
    return (row) => hasContent(row.product, flag, locale);
  },
};
