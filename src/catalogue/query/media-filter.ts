/** Filters and sortings of media/query and media/stream (spec "Media filters"). */
import { z } from "zod";
import { Direction, filterSchema, oneOrMany, sortingSchema, TimestampFilter } from "./filter-kit.js";

const Str = z.string().min(1);

export const PHOTO_TYPES = ["packshot", "productshot", "lifestyle_image", "pillshot"] as const;

export const mediaFilterLeaves = {
  published: z.boolean(),
  /** One organization ID; the service's docs show it quoted ("1"), so both pass. */
  organization: z.union([z.number().int().min(0), z.string().regex(/^\d+$/, "expected an organization ID")]),
  targetGroup: oneOrMany(Str),
  type: z.enum(["photo", "frontal", "link"]),
  photoType: z.enum(PHOTO_TYPES),
  linkType: Str,
  visibleSides: oneOrMany(Str),
  createdAt: TimestampFilter,
  updatedSince: TimestampFilter,
  /** One product ID. */
  product: Str,
  available: z.boolean(),
  locale: oneOrMany(Str),
};

export const MediaFilter = filterSchema(mediaFilterLeaves);
export type MediaFilter = z.input<typeof MediaFilter>;

/** No media filter takes a list of identifiers. */
export const MEDIA_IDENTIFIER_FILTERS = [] as const;

export const mediaSortingKeys = { id: Direction, createdAt: Direction, touchedAt: Direction };
export const MediaSorting = sortingSchema(mediaSortingKeys);
export type MediaSorting = z.input<typeof MediaSorting>;
