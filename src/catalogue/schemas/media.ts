/** Media items: photos, frontal photos and links, standalone and embedded in products. */
import { z } from "zod";
import { Localized, Meta, Timestamp } from "./common.js";

export const PHOTO_FORMATS = {
  thumbnail: { size: 200, webp: false },
  thumbnailWebp: { size: 200, webp: true },
  medium: { size: 450, webp: false },
  mediumWebp: { size: 450, webp: true },
  large: { size: 900, webp: false },
  largeWebp: { size: 900, webp: true },
  huge: { size: 1500, webp: false },
  hugeWebp: { size: 1500, webp: true },
} as const;

/** Frontals (transparent PNG) use their own keys; mediumJpeg and largeJpg are JPEG renditions. */
export const FRONTAL_FORMATS = {
  thumbnail: { size: 200, webp: false },
  thumbnailWebp: { size: 200, webp: true },
  medium: { size: 450, webp: false },
  mediumJpeg: { size: 450, webp: false },
  mediumWebp: { size: 450, webp: true },
  largeJpg: { size: 900, webp: false },
  largeWebp: { size: 900, webp: true },
  huge: { size: 1500, webp: false },
  hugeWebp: { size: 1500, webp: true },
} as const;


/** format key -> URL. An object, not the array the spec's `formats[]` suggests. */
export const Formats = z.record(z.string(), z.string());

const mediaCommon = {
  id: z.number(),
  locales: z.array(z.string()).nullish(),
  targetGroups: z.array(z.string()).nullish(),
  meta: Meta.nullish(),
};

export const Photo = z.looseObject({
  ...mediaCommon,
  type: z.string().nullish(),
  photoType: z.string().nullish(),
  formats: Formats.nullish(),
  visibleSides: z.array(z.string()).nullish(),
  /** Only when embedded in a product: 1-based position among the product's photos. */
  displayOrder: z.number().nullish(),
  organizations: z.array(z.looseObject({ name: Localized.nullish() })).nullish(),
});
export type Photo = z.infer<typeof Photo>;

export const Link = z.looseObject({
  ...mediaCommon,
  type: z.string().nullish(),
  linkType: z.string().nullish(),
  url: z.string().nullish(),
  name: Localized.nullish(),
  description: Localized.nullish(),
  available: z.looseObject({ from: Timestamp.nullish(), until: Timestamp.nullish() }).nullish(),
});
export type Link = z.infer<typeof Link>;

/** A media item as returned by media/query and media/stream (photo, frontal or link). */
export const MediaItem = z.looseObject({
  ...mediaCommon,
  type: z.string(),
  photoType: z.string().nullish(),
  formats: Formats.nullish(),
  visibleSides: z.array(z.string()).nullish(),
  linkType: z.string().nullish(),
  url: z.string().nullish(),
  name: Localized.nullish(),
  description: Localized.nullish(),
  available: z.looseObject({ from: Timestamp.nullish(), until: Timestamp.nullish() }).nullish(),
  published: z.boolean().nullish(),
});
export type MediaItem = z.infer<typeof MediaItem>;
