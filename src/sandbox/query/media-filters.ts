/**
 * Media filters and sortings. type "photo" matches photos that are not
 * frontals, "frontal" the frontal photos, "link" links (all photos say
 * type "photo" on the wire, as the spec describes). available: photos always;
 * links while catalogue-now lies within available.from..until. organization:
 * the organization owning the product's brand.
 */
import { CATALOGUE_NOW } from "../generate/clock.js";
import type { MediaRecord } from "../generate/catalogue.js";
import { HIDDEN, type Wire } from "../generate/types.js";
import { booleanFilter, enumFilter, intIds, metaTime, stringIds, stringValues } from "./common-filters.js";
import type { FilterTable } from "./filter.js";
import { simpleSort, type SortTable } from "./sorting.js";

const meta = (m: MediaRecord) => m.meta as { createdAt: number; updatedAt: number };

export function isAvailable(m: MediaRecord): boolean {
  if (m.type !== "link") return true;
  const a = m.available as { from?: number; until?: number } | undefined;
  return (a?.from ?? -Infinity) <= CATALOGUE_NOW && CATALOGUE_NOW <= (a?.until ?? Infinity);
}

export function mediaKind(m: MediaRecord): "photo" | "frontal" | "link" {
  return m.type === "link" ? "link" : m[HIDDEN].frontal ? "frontal" : "photo";
}

export const MEDIA_FILTERS: FilterTable<MediaRecord> = {
  published: booleanFilter((m) => m[HIDDEN].published),
  organization: intIds("an organization id", (m) => m[HIDDEN].organization),
  targetGroup: stringValues("a target group", (m) => m.targetGroups),
  type: enumFilter(["photo", "frontal", "link"], mediaKind),
  photoType: enumFilter(["packshot", "productshot", "lifestyle_image", "pillshot"], (m) => m.photoType),
  linkType: stringValues("a link type", (m) => m.linkType),
  visibleSides: stringValues("a visible side", (m) => m.visibleSides),
  createdAt: metaTime<MediaRecord>("createdAt"),
  updatedSince: metaTime<MediaRecord>("updatedAt"),
  product: stringIds("a product id", (m) => m[HIDDEN].productId),
  available: booleanFilter(isAvailable),
  locale: stringValues("a locale", (m) => (m as Wire).locales),
};

export const MEDIA_SORTINGS: SortTable<MediaRecord> = {
  id: simpleSort<MediaRecord>(undefined),
  createdAt: simpleSort<MediaRecord>((m) => meta(m).createdAt),
  touchedAt: simpleSort<MediaRecord>((m) => meta(m).updatedAt),
};
