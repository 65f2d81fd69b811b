/**
 * Filters and sortings of users, news items (updates) and corrections. Where
 * the spec is silent: users' vatNr/finessNr/cipNr are those of the user's
 * organization; correction status "handled" matches solved and closed records
 * (the filter and record vocabularies differ in the spec); correction search
 * is a substring of text; updates' locale and targetGroup look at content[].
 */
import type { Catalogue } from "../generate/catalogue.js";
import { HIDDEN, type CorrectionHidden, type UpdateHidden, type Wire, type WithHidden } from "../generate/types.js";
import { enumFilter, intIds, metaTime, searchString, stringIds, stringValues, valuesFilter } from "./common-filters.js";
import type { FilterTable } from "./filter.js";
import { enumOf, intId } from "./params.js";
import { simpleSort, type SortTable } from "./sorting.js";

type Update = WithHidden<UpdateHidden>;
type Correction = WithHidden<CorrectionHidden>;

export function userFilters(catalogue: Catalogue, extraOrgs: () => Wire[]): FilterTable<Wire> {
  const profile = (orgId: unknown) => {
    const org = catalogue.organizations.find((o) => o.id === orgId);
    if (org) return org[HIDDEN];
    return (extraOrgs().find((o) => o.id === orgId) as Partial<WithHidden<{ vatNr?: string; finessNr?: string; cipNr?: string }>> | undefined)?.[HIDDEN];
  };
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined);
  return {
    id: intIds("a user id", (u) => u.id),
    organization: intIds("an organization id", (u) => u.organization),
    vatNr: valuesFilter(text, "a VAT number", (u) => profile(u.organization)?.vatNr),
    finessNr: valuesFilter(text, "a FINESS number", (u) => profile(u.organization)?.finessNr),
    cipNr: valuesFilter(text, "a CIP-GERS number", (u) => profile(u.organization)?.cipNr),
  };
}

export const UPDATE_FILTERS: FilterTable<Update> = {
  id: intIds("a news item id", (u) => u.id),
  organization: intIds("an organization id", (u) => u.organization),
  newsType: enumFilter(["product", "organization", "public_category", "brand"], (u) => u.type),
  createdAt: metaTime<Update>("createdAt"),
  updatedSince: metaTime<Update>("updatedAt"),
  locale: stringValues("a locale", (u) => u[HIDDEN].locales),
  product: stringIds("a product id", (u) => u.products),
  publicCategory: intIds("a public category id", (u) => u.categories),
  brand: intIds("a brand id", (u) => u.brands),
  targetGroup: stringValues("a target group", (u) => u[HIDDEN].targetGroups),
};
export const UPDATE_SORTINGS: SortTable<Update> = {
  id: simpleSort<Update>(undefined),
  createdAt: simpleSort<Update>((u) => (u.meta as { createdAt: number }).createdAt),
  sortOrder: simpleSort<Update>((u) => u[HIDDEN].sortOrder),
};

const CORRECTION_STATUS: Record<string, string[]> = { open: ["open"], in_progress: ["in_progress"], handled: ["solved", "closed"] };

export const CORRECTION_FILTERS: FilterTable<Correction> = {
  product: stringIds("a product id", (c) => c.product),
  status: valuesFilter(enumOf(["open", "in_progress", "handled"]), "one of open, in_progress, handled", (c) =>
    Object.keys(CORRECTION_STATUS).filter((k) => CORRECTION_STATUS[k]?.includes(c.status as string)),
  ),
  organization: intIds("an organization id", (c) => c[HIDDEN].organization),
  search: searchString<Correction>((c) => c.text),
  locale: stringValues("a locale", (c) => c.locale),
  type: stringValues("a correction type", (c) => c.type),
  createdBy: valuesFilter(intId, "a user id", (c) => c[HIDDEN].createdBy, true),
  createdAt: metaTime<Correction>("createdAt"),
};
export const CORRECTION_SORTINGS: SortTable<Correction> = {
  id: simpleSort<Correction>(undefined),
  touchedAt: simpleSort<Correction>((c) => (c.meta as { updatedAt: number }).updatedAt),
};
