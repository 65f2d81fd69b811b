/**
 * The product filters of the spec. Where the spec leaves semantics open:
 * - ids and codes match any of the given values; numeric codes (EAN, GTIN, CIP,
 *   hsCode, ...) compare without leading zeros, so "0712345678906" = 712345678906;
 *   ean matches ean[] entries, eanGtinN the eanGtinN field.
 * - publicCategory and catalogCategories match the category or any ancestor
 *   (a filter on a parent category selects its whole subtree).
 * - status takes the spec's values only (active, replaced, inactive): no_selection products are
 *   reached with no status filter, as with the real service; ecommerce: a product without the
 *   field is "unknown".
 * - search {query, locale, type: "contains"}: case-insensitive substring of name[locale].
 * - minimumContent true: has a photo AND a description AND a public category; false: lacks one.
 * - hasContent {flag, locale?}: see hasContent.ts.
 * - atcCategory: prefix match, so "N02" selects every N02 code.
 * - narcotic and biocide also accept booleans (true = yes, false = no), as older docs show.
 * - createdAt and updatedSince: a lone timestamp means ">= ts" (the docs: "since");
 *   officialDeletionAt: a lone timestamp means "= ts"; {from, until} is inclusive.
 * - maximumDispenseQuantity {value, operator}: eq (default), neq, gt, gte, lt, lte.
 */
import type { Catalogue } from "../generate/catalogue.js";
import { HIDDEN } from "../generate/types.js";
import type { FilterDef, FilterTable } from "./filter.js";
import { hasContentFilter } from "./has-content.js";
import { ancestorsOf, anyCode, anyId, inTree, localizedText } from "./match.js";
import { bool, digitCode, enumOf, intId, nonEmptyString, oneOrMany, shape, timeRange, violation } from "./params.js";
import type { ProductRow } from "./row.js";

type Def = FilterDef<ProductRow>;

/** A filter on a set of values of one kind; `test` gets the product row and the set. */
function setFilter<V>(one: (v: unknown) => V | undefined, what: string, ids: boolean, test: (row: ProductRow, set: Set<V>) => boolean, heavy = true): Def {
  return {
    heavy,
    parse(ctx, path, value) {
      const list = oneOrMany(ctx, path, value, one, what, ids);
      if (!list) return undefined;
      const set = new Set(list);
      return (row) => test(row, set);
    },
  };
}

const codeFilter = (field: string): Def => setFilter(digitCode, "a numeric code (string or integer)", true, (row, set) => anyCode(row.product[field], set));

function boolFilter(test: (row: ProductRow) => boolean): Def {
  return {
    parse(ctx, path, value) {
      const wanted = bool(ctx, path, value);
      return wanted === undefined ? undefined : (row) => test(row) === wanted;
    },
  };
}

function timeFilter(single: "since" | "exact", read: (row: ProductRow) => number | undefined, heavy: boolean): Def {
  return {
    heavy,
    parse(ctx, path, value) {
      const range = timeRange(ctx, path, value, single);
      if (!range) return undefined;
      return (row) => {
        const t = read(row);
        return t !== undefined && t >= range.from && t <= range.until;
      };
    },
  };
}

/** yes/no/unknown(/assimilated) values, or a boolean for yes/no. */
function triState(allowed: readonly string[], read: (row: ProductRow) => string): Def {
  const one = (v: unknown) => (v === true ? "yes" : v === false ? "no" : enumOf(allowed)(v));
  return setFilter(one, `one of ${allowed.join(", ")} (or true/false)`, false, (row, set) => set.has(read(row)));
}

const OPERATORS = ["eq", "neq", "gt", "gte", "lt", "lte"] as const;
const compare: Record<(typeof OPERATORS)[number], (a: number, b: number) => boolean> = {
  eq: (a, b) => a === b,
  neq: (a, b) => a !== b,
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
};

const maximumDispenseQuantity: Def = {
  parse(ctx, path, value) {
    const obj = shape(ctx, path, value, ["value"], ["operator"]);
    if (!obj) return undefined;
    if (typeof obj.value !== "number") return violation(ctx, `${path}.value`, `expected a number, got ${JSON.stringify(obj.value)}`);
    const operator = obj.operator ?? "eq";
    if (!(OPERATORS as readonly unknown[]).includes(operator)) return violation(ctx, `${path}.operator`, `expected one of ${OPERATORS.join(", ")}, got ${JSON.stringify(operator)}`);
    const op = compare[operator as (typeof OPERATORS)[number]];
    const wanted = obj.value;
    return (row) => {
      const q = row.product.maximumDispenseQuantity;
      return typeof q === "number" && op(q, wanted);
    };
  },
};

const search: Def = {
  parse(ctx, path, value) {
    const obj = shape(ctx, path, value, ["query", "locale"], ["type"]);
    if (!obj) return undefined;
    if (typeof obj.query !== "string") return violation(ctx, `${path}.query`, `expected a string, got ${JSON.stringify(obj.query)}`);
    if (typeof obj.locale !== "string") return violation(ctx, `${path}.locale`, `expected a locale code such as "fr", got ${JSON.stringify(obj.locale)}`);
    if (obj.type !== undefined && obj.type !== "contains") return violation(ctx, `${path}.type`, `expected "contains", got ${JSON.stringify(obj.type)}`);
    const needle = obj.query.toLowerCase();
    const locale = obj.locale;
    return (row) => localizedText(row.product.name, locale).some((name) => name.toLowerCase().includes(needle));
  },
};

const rateOfReimbursement: Def = {
  parse(ctx, path, value) {
    if (typeof value !== "number" || value < 0 || value > 100) return violation(ctx, path, `expected a percentage 0 to 100, got ${JSON.stringify(value)}`);
    return (row) => row.product.rateOfReimbursement === value;
  },
};

const list = (row: ProductRow, field: string): unknown[] => (Array.isArray(row.product[field]) ? (row.product[field] as unknown[]) : []);

export function productFilters(catalogue: Catalogue): FilterTable<ProductRow> {
  const publicTree = ancestorsOf(catalogue.publicCategories);
  const catalogTree = ancestorsOf(catalogue.catalogCategories);
  const stringOrInt = (v: unknown) => nonEmptyString(v) ?? (Number.isInteger(v) ? String(v) : undefined);
  return {
    id: setFilter(nonEmptyString, "a product id (string)", true, (row, set) => set.has(catalogue.id(row.i)), false),
    status: setFilter(enumOf(["active", "inactive", "replaced"]), "a status (active, inactive, replaced)", false, (row, set) => set.has(catalogue.status(row.i)), false),
    ecommerce: setFilter(enumOf(["yes", "no", "unknown"]), "yes, no or unknown", false, (row, set) => set.has((row.product.ecommerce as string | undefined) ?? "unknown")),
    organization: setFilter(intId, "an organization id", true, (row, set) => anyId(row.product.organizations, set)),
    publicCategory: setFilter(intId, "a public category id", true, (row, set) => inTree(row.product.publicCategories, set, publicTree)),
    catalogCategories: setFilter(nonEmptyString, "a catalog category id (string)", true, (row, set) => inTree(row.product.catalogCategories, set, catalogTree)),
    brand: setFilter(intId, "a brand id", true, (row, set) => anyId(row.product.brands, set)),
    productFamily: setFilter(intId, "a product family id", true, (row, set) => anyId(row.product.productFamily, set)),
    search,
    minimumContent: boolFilter((row) => list(row, "photos").length > 0 && list(row, "descriptions").length > 0 && list(row, "publicCategories").length > 0),
    hasContent: hasContentFilter,
    ean: codeFilter("ean"),
    gtin: codeFilter("gtin"),
    eanGtin8: codeFilter("eanGtin8"),
    eanGtin12: codeFilter("eanGtin12"),
    eanGtin13: codeFilter("eanGtin13"),
    eanGtin14: codeFilter("eanGtin14"),
    hsCode: codeFilter("hsCode"),
    cisCode: codeFilter("cisCode"),
    ospId: codeFilter("ospId"),
    cbId: codeFilter("cbId"),
    cipOrAcl7: codeFilter("cipOrAcl7"),
    acl13: codeFilter("acl13"),
    cip13: codeFilter("cip13"),
    codeActe: setFilter(enumOf(["PAN", "PH1", "PH2", "PH4", "PH7", "PHN"]), "one of PAN, PH1, PH2, PH4, PH7, PHN", false, (row, set) => set.has(row.product.codeActe as never)),
    rateOfReimbursement,
    galenicShape: setFilter(nonEmptyString, "a galenic shape code", true, (row, set) => anyId(row.product.franceGalenicShape, set)),
    activeIngredient: setFilter(intId, "an active ingredient id", true, (row, set) => anyId(row.product.activeIngredients, set)),
    conservation: setFilter(enumOf(["room", "refrigerator", "fresh", "frozen"]), "one of room, refrigerator, fresh, frozen", false, (row, set) => set.has(row.product.conservation as never)),
    maximumDispenseQuantity,
    allowedSpecies: setFilter(enumOf(["human", "veterinary", "surface_maintenance", "phytopharmacy"]), "one of human, veterinary, surface_maintenance, phytopharmacy", false, (row, set) =>
      row.product[HIDDEN].species.some((s) => set.has(s as never)),
    ),
    atcCategory: setFilter(nonEmptyString, "an ATC code", true, (row, set) => list(row, "atcCategory").some((code) => [...set].some((prefix) => String(code).startsWith(prefix)))),
    prescription: boolFilter((row) => row.product.prescription === true),
    ospCategory: setFilter(stringOrInt, "an OSP category id", true, (row, set) => set.has(String((row.product.ospCategory as { id?: unknown } | undefined)?.id))),
    narcotic: triState(["yes", "no", "unknown", "assimilated"], (row) => row.product[HIDDEN].narcotic),
    biocide: triState(["yes", "no", "unknown"], (row) => (row.product.biocide as string | undefined) ?? "unknown"),
    attributes: setFilter(intId, "an attribute option id", true, (row, set) => anyId(row.product.attributes, set)),
    dietaryRestrictions: setFilter(nonEmptyString, "a dietary restriction code", false, (row, set) => anyId(row.product.dietaryRestrictions, set)),
    colors: setFilter(nonEmptyString, "a color code", false, (row, set) => anyId(row.product.colors, set)),
    notApplicableField: setFilter(nonEmptyString, "a field name", false, (row, set) => list(row, "notApplicableField").some((f) => set.has(f as string))),
    officialDeletionAt: timeFilter("exact", (row) => row.product.officialDeletionAt as number | undefined, true),
    createdAt: timeFilter("since", (row) => catalogue.createdAt(row.i), false),
    updatedSince: timeFilter("since", (row) => catalogue.updatedAt(row.i), false),
  };
}
