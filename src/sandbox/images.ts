/**
 * The bytes behind the sandbox's photo URLs, `/media/<format>/<hex>.<ext>`.
 * Each image is drawn from its 40-character hex (itself derived from the
 * media id), so the same URL always gives the same bytes: a pack shot (a box
 * with a dark cap, a white label, a colour from the hex) on a light
 * background for photos, on transparency for frontal PNGs. Served at the
 * spec's size of the format (thumbnail 200, medium 450, large 900, huge 1500),
 * with the EXIF and ICC metadata real photos carry; one JPEG photo in eight is
 * stored sideways with an EXIF orientation, as phone pictures are.
 *
 * Drawing is cheap: a 64x64 raw picture scaled up (nearest neighbour, so
 * edges stay exact for pixel tests) and encoded by sharp off the main thread.
 */
import sharp from "sharp";

export type ImageKind = "jpeg" | "png" | "webp";

export interface ImageRequest {
  /** Format key of the URL (huge, mediumWebp, largeJpg, ...). */
  key: string;
  hex: string;
  kind: ImageKind;
  /** Width and height in pixels (the images are square). */
  size: number;
  /** A frontal PNG: transparent around the pack. */
  transparent: boolean;
  /** A frontal's JPEG rendition (mediumJpeg, largeJpg): the frontal on white. */
  frontal: boolean;
}

export const IMAGE_CONTENT_TYPES: Record<ImageKind, string> = { jpeg: "image/jpeg", png: "image/png", webp: "image/webp" };

/** Bumped when drawing changes, so ETags change with the bytes. */
export const DRAWING_VERSION = 1;

const SIZES: Record<string, number> = { thumbnail: 200, medium: 450, large: 900, huge: 1500, mediumJpeg: 450, largeJpg: 900 };
const PHOTO_JPEG = new Set(["thumbnail", "medium", "large", "huge"]);
const FRONTAL_PNG = new Set(["thumbnail", "medium", "huge"]);
const FRONTAL_JPEG = new Set(["mediumJpeg", "largeJpg"]);
const WEBP = new Set(["thumbnailWebp", "mediumWebp", "largeWebp", "hugeWebp"]);
const PATH = /^\/media\/([A-Za-z]+)\/([0-9a-f]{40})\.(jpeg|png|webp)$/;

/**
 * What a /media/ path asks for, or undefined when the sandbox's generator never
 * makes such a URL (unknown key, or an extension the key does not have).
 */
export function parseImagePath(path: string): ImageRequest | undefined {
  const match = PATH.exec(path);
  if (!match) return undefined;
  const [, key = "", hex = "", ext = ""] = match;
  if (ext === "webp") {
    // The URL does not tell a frontal's WebP from a photo's: both are drawn opaque.
    return WEBP.has(key) ? { key, hex, kind: "webp", size: SIZES[key.slice(0, -4)] as number, transparent: false, frontal: false } : undefined;
  }
  if (ext === "png") return FRONTAL_PNG.has(key) ? { key, hex, kind: "png", size: SIZES[key] as number, transparent: true, frontal: true } : undefined;
  if (PHOTO_JPEG.has(key)) return { key, hex, kind: "jpeg", size: SIZES[key] as number, transparent: false, frontal: false };
  if (FRONTAL_JPEG.has(key)) return { key, hex, kind: "jpeg", size: SIZES[key] as number, transparent: false, frontal: true };
  return undefined;
}

/** Base picture side; every feature sits on whole base pixels. */
const BASE = 64;

/** The pack's geometry and colours, from the hex. */
function design(hex: string) {
  const byte = (i: number) => parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  const width = 20 + (byte(0) % 17);
  const height = 34 + (byte(1) % 15);
  const left = Math.floor((BASE - width) / 2);
  const top = Math.floor((BASE - height) / 2);
  return {
    box: { left, top, right: left + width, bottom: top + height },
    colour: [60 + (byte(2) % 160), 60 + (byte(3) % 160), 60 + (byte(4) % 160)],
    paper: 236 + (byte(5) % 16),
    sideways: byte(6) % 8 === 0,
  };
}

/** The dark cap: the first rows of the pack, so orientation can be checked by pixels. */
export const CAP_ROWS = 6;
export const CAP_COLOUR = [24, 24, 24] as const;

function drawBase(hex: string, alpha: boolean, paper: number): Buffer {
  const { box, colour } = design(hex);
  const channels = alpha ? 4 : 3;
  const pixels = Buffer.alloc(BASE * BASE * channels);
  for (let y = 0; y < BASE; y++) {
    for (let x = 0; x < BASE; x++) {
      const i = (y * BASE + x) * channels;
      const inside = x >= box.left && x < box.right && y >= box.top && y < box.bottom;
      let rgb: readonly number[] = [paper, paper, paper];
      if (inside) {
        const row = y - box.top;
        const labelTop = Math.floor((box.bottom - box.top) / 2) - 4;
        if (row < CAP_ROWS) rgb = CAP_COLOUR;
        else if (row >= labelTop && row < labelTop + 8 && x > box.left + 1 && x < box.right - 2) rgb = [250, 250, 250];
        else rgb = colour;
      }
      pixels[i] = rgb[0] as number;
      pixels[i + 1] = rgb[1] as number;
      pixels[i + 2] = rgb[2] as number;
      if (alpha) pixels[i + 3] = inside ? 255 : 0;
    }
  }
  return pixels;
}

/** Encodes the image a request asks for. Deterministic for a given sharp version. */
export async function renderImage(request: ImageRequest): Promise<Buffer> {
  const look = design(request.hex);
  const alpha = request.transparent;
  // A frontal's JPEG is the frontal flattened on white; photos have a tinted studio background.
  const paper = request.frontal ? 255 : look.paper;
  let image = sharp(drawBase(request.hex, alpha, paper), { raw: { width: BASE, height: BASE, channels: alpha ? 4 : 3 } });
  const sideways = request.kind === "jpeg" && !request.frontal && look.sideways;
  // Stored turned a quarter left with orientation 6 (display turned right): upright once EXIF is applied.
  if (sideways) image = image.rotate(270);
  image = image
    .resize(request.size, request.size, { kernel: "nearest" })
    .withExif({ IFD0: { Copyright: "pharmafeed sandbox", Software: "pharmafeed sandbox", ImageDescription: `media ${request.hex}` } })
    .withIccProfile("srgb");
  if (sideways) image = image.withMetadata({ orientation: 6 });
  if (request.kind === "png") return image.png({ compressionLevel: 6 }).toBuffer();
  if (request.kind === "webp") return image.webp({ quality: 80 }).toBuffer();
  return image.jpeg({ quality: 85 }).toBuffer();
}

/** Whether the JPEG photo of this hex is stored sideways (for tests of EXIF rotation). */
export function isSideways(hex: string): boolean {
  return design(hex).sideways;
}
