/**
 * `images.process` of a channel: what the image pipeline makes of the chosen
 * photos. Opt-in (absent = the catalogue's URLs are published as they are).
 * Embedded in ChannelMapping, so the config loader validates it with the rest
 * of the channel file; strict, so a typo is an error.
 */
import { createHash } from "node:crypto";
import { z } from "zod";

/** Output file types and the extension of the stored files. */
export const OUTPUT_FORMATS = { jpeg: "jpg", png: "png", webp: "webp" } as const;
export type OutputFormat = keyof typeof OUTPUT_FORMATS;

const Side = z.number().int().min(100).max(4000);

export const ImageProcessSettings = z
  .object({
    /** The box the image is fitted into: one number for a square box, or [width, height]. Meta wants >= 500, Google >= 100 (aim 500). */
    size: z.union([Side, z.tuple([Side, Side])]).default(800),
    /**
     * `inside`: keep the aspect ratio, the result is at most the box (no padding).
     * `contain`: the same, then padded with `background` to exactly the box (channels with a fixed, e.g. square, size).
     */
    fit: z.enum(["inside", "contain"]).default("inside"),
    /** Scale smaller photos up to the box. Off: upscaling blurs, and photo selection already picks the largest rendition. */
    enlarge: z.boolean().default(false),
    /** Transparency is flattened onto this colour (marketplaces show it black or grey), which also fills `contain` padding. */
    background: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "a colour such as #ffffff")
      .default("#ffffff"),
    /** The file type the channel accepts. */
    format: z.enum(Object.keys(OUTPUT_FORMATS) as [OutputFormat, ...OutputFormat[]]).default("jpeg"),
    /** JPEG and WebP quality (PNG is lossless). */
    quality: z.number().int().min(1).max(100).default(85),
    /** Additional images processed too; the ones beyond are left out, since the channel cannot take the originals. */
    maxAdditional: z.number().int().min(0).max(20).default(4),
    /**
     * A download or conversion that fails: `original` publishes the catalogue's URL (warning IMAGE_FALLBACK),
     * `exclude` leaves the product out (IMAGE_FAILED; a failed additional image is dropped instead, IMAGE_DROPPED).
     */
    onError: z.enum(["original", "exclude"]).default("original"),
  })
  .strict();
export type ImageProcessSettings = z.output<typeof ImageProcessSettings>;
export type ImageProcessSettingsInput = z.input<typeof ImageProcessSettings>;

/**
 * Bumped whenever the pipeline makes different bytes from the same settings, so
 * that the cache across runs does not hand out images of the old pipeline.
 */
export const PIPELINE_VERSION = 1;

/** The settings that decide the output bytes, hashed: part of every cache key. */
export function settingsId(settings: ImageProcessSettings): string {
  const { size, fit, enlarge, background, format, quality } = settings;
  const canonical = JSON.stringify([PIPELINE_VERSION, typeof size === "number" ? [size, size] : size, fit, enlarge, background.toLowerCase(), format, format === "png" ? 0 : quality]);
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}

/** [width, height] of the box. */
export function boxOf(settings: Pick<ImageProcessSettings, "size">): [number, number] {
  return typeof settings.size === "number" ? [settings.size, settings.size] : settings.size;
}
