import { describe, expect, it } from "vitest";
import { applyImages } from "../../src/images/apply.js";
import type { FeedItem } from "../../src/mapping/feed-item.js";
import { feedItem } from "../fixtures/feed-items.js";

const base = feedItem();
const item: FeedItem = {
  ...base,
  imageLink: "https://cdn.example/a.png",
  additionalImageLinks: ["https://cdn.example/b.jpeg", "https://cdn.example/c.jpeg"],
  imageSources: [
    { url: "https://cdn.example/a.png", mediaId: 1, updatedAt: 10 },
    { url: "https://cdn.example/b.jpeg", mediaId: 2 },
    { url: "https://cdn.example/c.jpeg", mediaId: 3 },
  ],
};
const ok = (name: string) => ({ ok: true as const, url: `https://feeds.example/images/${name}` });
const failed = { ok: false as const, reason: "download: HTTP 404" };

describe("applyImages", () => {
  it("replaces every link by its processed URL and drops imageSources", () => {
    const applied = applyImages(item, [ok("1.jpg"), ok("2.jpg"), ok("3.jpg")], "exclude");
    expect(applied.ok && applied.item.imageLink).toBe("https://feeds.example/images/1.jpg");
    expect(applied.ok && applied.item.additionalImageLinks).toEqual(["https://feeds.example/images/2.jpg", "https://feeds.example/images/3.jpg"]);
    expect(applied.ok && "imageSources" in applied.item).toBe(false);
    expect(applied.ok && applied.warnings).toEqual([]);
  });

  it("onError original: the catalogue URL, with IMAGE_FALLBACK", () => {
    const applied = applyImages(item, [failed, ok("2.jpg"), failed], "original");
    expect(applied.ok).toBe(true);
    if (!applied.ok) return;
    expect(applied.item.imageLink).toBe("https://cdn.example/a.png");
    expect(applied.item.additionalImageLinks).toEqual(["https://feeds.example/images/2.jpg", "https://cdn.example/c.jpeg"]);
    expect(applied.warnings.map((w) => w.code)).toEqual(["IMAGE_FALLBACK", "IMAGE_FALLBACK"]);
    expect(applied.warnings[0]!.detail).toContain("HTTP 404");
  });

  it("onError exclude: IMAGE_FAILED when the main image fails; a failed additional image is dropped", () => {
    expect(applyImages(item, [failed, ok("2.jpg"), ok("3.jpg")], "exclude")).toEqual({
      ok: false,
      reason: { code: "IMAGE_FAILED", detail: "https://cdn.example/a.png: download: HTTP 404" },
    });
    const applied = applyImages(item, [ok("1.jpg"), failed, ok("3.jpg")], "exclude");
    expect(applied.ok && applied.item.additionalImageLinks).toEqual(["https://feeds.example/images/3.jpg"]);
    expect(applied.ok && applied.warnings.map((w) => w.code)).toEqual(["IMAGE_DROPPED"]);
  });

  it("leaves an item without photos as it is", () => {
    const bare: FeedItem = { ...base, imageLink: "", additionalImageLinks: [], imageSources: [] };
    const applied = applyImages(bare, [], "exclude");
    expect(applied.ok && [applied.item.imageLink, applied.item.additionalImageLinks]).toEqual(["", []]);
  });
});
