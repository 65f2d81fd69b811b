import { describe, expect, it } from "vitest";
import { compileImages, selectImages } from "../../src/mapping/photos.js";
import { ImageSettings, type ChannelMapping } from "../../src/mapping/settings.js";
import { ASSET, frontal, photo, product } from "./fixtures.js";

function pick(photos: unknown[], settings: Partial<ChannelMapping["images"]> = {}, chain = ["fr", "en"], frontals: unknown[] = []) {
  const plan = compileImages(ImageSettings.parse(settings), chain);
  return selectImages(product({ photos, frontals }), plan);
}
const hex = (id: number) => id.toString(16).padStart(8, "0");

describe("selectImages", () => {
  it("publishes the largest JPEG at or above the minimum size (default 500: huge)", () => {
    expect(pick([photo(1)])).toEqual([`${ASSET}/huge/${hex(1)}.jpeg`]);
  });

  it("never WebP where it is not accepted; WebP only when the channel allows it and no JPEG of that size wins", () => {
    const webpOnly = photo(1, { formats: { hugeWebp: `${ASSET}/huge/a.webp`, largeWebp: `${ASSET}/large/a.webp` } });
    expect(pick([webpOnly])).toEqual([]);
    expect(pick([webpOnly], { formats: { jpeg: true, png: true, webp: true } })).toEqual([`${ASSET}/huge/a.webp`]);
    expect(pick([photo(1)], { formats: { jpeg: true, png: true, webp: true } })).toEqual([`${ASSET}/huge/${hex(1)}.jpeg`]);
  });

  it("checks the URL extension too (a .webp behind a JPEG key is refused)", () => {
    const liar = photo(1, { formats: { huge: `${ASSET}/huge/a.webp`, large: `${ASSET}/large/a.jpeg` } });
    expect(pick([liar])).toEqual([`${ASSET}/large/a.jpeg`]);
  });

  it("never below the channel's minimum pixels (medium is 450)", () => {
    const small = photo(1, { formats: { medium: `${ASSET}/m.jpeg`, thumbnail: `${ASSET}/t.jpeg` } });
    expect(pick([small])).toEqual([]);
    expect(pick([small], { minPixels: 100 })).toEqual([`${ASSET}/m.jpeg`]);
    expect(pick([photo(1)], { minPixels: 1600 })).toEqual([]);
  });

  it("uses photos tagged with the channel locale or untagged; fallback locales only with `chain`", () => {
    const photos = [photo(1, { locales: ["nl"] }), photo(2, { locales: ["en"] }), photo(3, { locales: ["fr", "nl"] }), photo(4, { locales: [] })];
    expect(pick(photos)).toEqual([`${ASSET}/huge/${hex(3)}.jpeg`, `${ASSET}/huge/${hex(4)}.jpeg`]);
    expect(pick(photos, { locales: "chain" })).toHaveLength(3);
    expect(pick(photos, { locales: "any" })).toHaveLength(4);
  });

  it("uses the channel's target group (default public); untagged photos pass", () => {
    const photos = [photo(1, { targetGroups: ["pharmacist"] }), photo(2, { targetGroups: [] }), photo(3, { targetGroups: ["public", "doctor"] })];
    expect(pick(photos)).toEqual([`${ASSET}/huge/${hex(2)}.jpeg`, `${ASSET}/huge/${hex(3)}.jpeg`]);
    expect(pick(photos, { targetGroup: null })).toHaveLength(3);
  });

  it("orders by type preference, then displayOrder; unlisted types are not used, untyped come last", () => {
    const photos = [
      photo(1, { photoType: "lifestyle_image", displayOrder: 1 }),
      photo(2, { photoType: "productshot", displayOrder: 2 }),
      photo(3, { photoType: "packshot", displayOrder: 4 }),
      photo(4, { photoType: "packshot", displayOrder: 3 }),
      photo(5, { photoType: "pillshot", displayOrder: 5 }),
      photo(6, { photoType: null, displayOrder: 0 }),
    ];
    expect(pick(photos).map((u) => u.split("/").pop())).toEqual([4, 3, 2, 1, 6].map((i) => `${hex(i)}.jpeg`));
    expect(pick(photos, { photoTypes: ["productshot", "packshot"] })[0]).toContain(hex(2));
  });

  it("frontals count as type `frontal`, with their own keys (largeJpg, transparent PNG huge)", () => {
    const f = frontal(9);
    expect(pick([], {}, ["fr"], [f])).toEqual([`${ASSET}/frontal/huge/${hex(9)}.png`]);
    expect(pick([], { formats: { jpeg: true, png: false, webp: false } }, ["fr"], [f])).toEqual([`${ASSET}/frontal/large/${hex(9)}.jpg`]);
    expect(pick([photo(1)], { photoTypes: ["frontal", "packshot"] }, ["fr"], [f])[0]).toContain("frontal");
    expect(pick([], { photoTypes: ["packshot"] }, ["fr"], [f])).toEqual([]);
  });

  it("caps additional images, drops duplicate URLs, bad URLs and too long URLs", () => {
    const photos = Array.from({ length: 15 }, (_, i) => photo(i + 1));
    expect(pick(photos, { maxAdditional: 3 })).toHaveLength(4);
    const dup = [photo(1), photo(1, { id: 99 }), photo(2)];
    expect(pick(dup)).toHaveLength(2);
    const bad = [photo(1, { formats: { huge: "ftp://x/a.jpeg" } }), photo(2, { formats: { huge: `${ASSET}/${"x".repeat(3000)}.jpeg` } }), photo(3, { formats: null })];
    expect(pick(bad)).toEqual([]);
  });

  it("no photos at all", () => {
    expect(pick([])).toEqual([]);
  });
});
