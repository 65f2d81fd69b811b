/**
 * One photo through sharp: turned upright by its EXIF orientation, fitted
 * into the channel's box, flattened onto the background (marketplaces show
 * transparency black or grey), encoded in the channel's format. Metadata is
 * not copied: sharp drops EXIF, XMP and ICC unless told to keep them, and the
 * pixels are converted to sRGB first, so nothing is lost by dropping the profile.
 *
 * Data can be bad here (a truncated upload, an HTML error page served as
 * 200): the result says so instead of throwing.
 */
import type sharp from "sharp";
import { place } from "./box.js";
import { boxOf, type ImageProcessSettings } from "./settings.js";

export interface Converted {
  bytes: Buffer;
  width: number;
  height: number;
}

export type ConvertResult = { ok: true; value: Converted } | { ok: false; reason: string };

/** Orientations 5 to 8 swap width and height on display. */
function uprightSize(meta: sharp.Metadata): [number, number] | undefined {
  const { width, height, orientation } = meta;
  if (!width || !height) return undefined;
  return orientation !== undefined && orientation >= 5 ? [height, width] : [width, height];
}

function encode(image: sharp.Sharp, settings: ImageProcessSettings): sharp.Sharp {
  switch (settings.format) {
    case "png":
      return image.png({ compressionLevel: 6 });
    case "webp":
      return image.webp({ quality: settings.quality });
    default:
      return image.jpeg({ quality: settings.quality });
  }
}

/** sharp (libvips, ~17 MB resident) is loaded by the first conversion only: most runs convert nothing. */
let loaded: Promise<typeof sharp> | undefined;
const loadSharp = () => (loaded ??= import("sharp").then((m) => m.default));

export async function convertImage(input: Buffer, settings: ImageProcessSettings, maxPixels: number): Promise<ConvertResult> {
  try {
    const sharp = await loadSharp();
    // failOn "error": a truncated JPEG is refused, not published half grey.
    const source = sharp(input, { failOn: "error", limitInputPixels: maxPixels });
    const size = uprightSize(await source.metadata());
    if (!size) return { ok: false, reason: "conversion: the image has no size" };
    const p = place(size[0], size[1], boxOf(settings), settings.fit, settings.enlarge);
    let image = source
      .rotate()
      .resize(p.width, p.height, { fit: "fill" })
      .flatten({ background: settings.background });
    if (p.top + p.bottom + p.left + p.right > 0) {
      image = image.extend({ top: p.top, bottom: p.bottom, left: p.left, right: p.right, background: settings.background });
    }
    const { data, info } = await encode(image, settings).toBuffer({ resolveWithObject: true });
    return { ok: true, value: { bytes: data, width: info.width, height: info.height } };
  } catch (error) {
    return { ok: false, reason: `conversion: ${error instanceof Error ? error.message : String(error)}` };
  }
}
