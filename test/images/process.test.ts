/**
 * convertImage on the sandbox's own drawings (no HTTP): results read back
 * with sharp for size, format, background and metadata.
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { convertImage } from "../../src/images/process.js";
import { ImageProcessSettings, type ImageProcessSettingsInput } from "../../src/images/settings.js";
import { CAP_COLOUR, isSideways, parseImagePath, renderImage } from "../../src/sandbox/images.js";
import { firstInk, near, pixel } from "./helpers.js";

const HEX = "0123456789abcdef0123456789abcdef01234567";
const source = (path: string) => renderImage(parseImagePath(path)!);
const settings = (input: ImageProcessSettingsInput = {}) => ImageProcessSettings.parse(input);

async function convert(input: Buffer, options: ImageProcessSettingsInput = {}) {
  const result = await convertImage(input, settings(options), 50_000_000);
  if (!result.ok) throw new Error(result.reason);
  return { ...result.value, meta: await sharp(result.value.bytes).metadata() };
}

describe("convertImage", () => {
  it("fits a huge JPEG photo into the box as JPEG, metadata stripped", async () => {
    const input = await source(`/media/huge/${HEX}.jpeg`);
    const inMeta = await sharp(input).metadata();
    expect(inMeta.exif && inMeta.icc).toBeTruthy();
    const out = await convert(input, { size: 800 });
    expect([out.meta.format, out.meta.width, out.meta.height, out.width, out.height]).toEqual(["jpeg", 800, 800, 800, 800]);
    expect([out.meta.exif, out.meta.icc, out.meta.xmp, out.meta.orientation]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("flattens a transparent frontal PNG onto the background, in every output format", async () => {
    const input = await source(`/media/huge/${HEX}.png`);
    expect((await pixel(input, 0, 0))[3]).toBe(0);
    for (const format of ["jpeg", "png", "webp"] as const) {
      const out = await convert(input, { size: 500, format });
      expect([out.meta.format, out.meta.width, out.meta.height], format).toEqual([format, 500, 500]);
      expect(out.meta.hasAlpha, format).toBe(false);
      const corner = await pixel(out.bytes, 0, 0);
      expect(corner[3]).toBe(255);
      expect(Math.min(...corner.slice(0, 3)), format).toBeGreaterThanOrEqual(250);
    }
    const grey = await convert(input, { size: 500, background: "#808080", format: "png" });
    expect(await pixel(grey.bytes, 0, 0)).toEqual([128, 128, 128, 255]);
  });

  it("contain pads to exactly the box with the background; inside keeps the picture's own size", async () => {
    const input = await source(`/media/large/${HEX}.jpeg`);
    const padded = await convert(input, { size: [800, 600], fit: "contain", background: "#ff0000", format: "png" });
    expect([padded.meta.width, padded.meta.height]).toEqual([800, 600]);
    expect(await pixel(padded.bytes, 10, 300)).toEqual([255, 0, 0, 255]);
    const inside = await convert(input, { size: [800, 600] });
    expect([inside.meta.width, inside.meta.height]).toEqual([600, 600]);
    // A 450 medium is not blown up to 800 unless enlarge says so; contain pads it.
    const medium = await source(`/media/medium/${HEX}.jpeg`);
    expect((await convert(medium, { size: 800 })).meta.width).toBe(450);
    expect((await convert(medium, { size: 800, enlarge: true })).meta.width).toBe(800);
    const square = await convert(medium, { size: 800, fit: "contain" });
    expect([square.meta.width, square.meta.height]).toEqual([800, 800]);
    expect(await pixel(square.bytes, 5, 5)).toEqual([255, 255, 255, 255]);
  });

  it("turns a photo upright by its EXIF orientation", async () => {
    // The seventh byte of the hex decides; try its values until one is drawn sideways.
    const hex = Array.from({ length: 256 }, (_, b) => HEX.slice(0, 12) + b.toString(16).padStart(2, "0") + HEX.slice(14)).find(isSideways)!;
    const input = await source(`/media/large/${hex}.jpeg`);
    expect((await sharp(input).metadata()).orientation).toBe(6);
    const out = await convert(input, { size: 640, format: "png" });
    // The dark cap is the pack's first rows: at the top of the middle column once upright.
    expect(near(await firstInk(out.bytes), CAP_COLOUR)).toBe(true);
    expect(near(await firstInk(await sharp(input).png().toBuffer()), CAP_COLOUR)).toBe(false);
  });

  it("says why instead of throwing on bytes that are not an image, truncated or too large", async () => {
    const bad = await convertImage(Buffer.from("<html>Not found</html>"), settings(), 50_000_000);
    expect(bad).toMatchObject({ ok: false, reason: expect.stringMatching(/^conversion: /) });
    const jpeg = await source(`/media/large/${HEX}.jpeg`);
    expect((await convertImage(jpeg.subarray(0, jpeg.length / 2), settings(), 50_000_000)).ok).toBe(false);
    expect(await convertImage(jpeg, settings(), 1000)).toMatchObject({ ok: false, reason: expect.stringContaining("pixel limit") });
  });

  it("is deterministic: the same input and settings give the same bytes", async () => {
    const input = await source(`/media/huge/${HEX}.png`);
    const [a, b] = await Promise.all([convert(input), convert(input)]);
    expect(a.bytes.equals(b.bytes)).toBe(true);
  });
});
