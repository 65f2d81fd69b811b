import { describe, expect, it } from "vitest";
import { withoutTracking } from "../../src/mapping/tracking.js";

describe("withoutTracking", () => {
  it.each([
    ["https://shop.example/p-1.html", "https://shop.example/p-1.html"],
    ["https://shop.example/p-1.html?utm_source=kelkoo&utm_medium=cpc", "https://shop.example/p-1.html"],
    ["https://shop.example/p?id=1&utm_campaign=x&gclid=abc&fbclid=d&msclkid=e#top", "https://shop.example/p?id=1#top"],
    ["https://shop.example/p?UTM_SOURCE=a&colour=bleu%20clair", "https://shop.example/p?colour=bleu%20clair"],
    ["https://shop.example/p?%75tm_source=a&x=1", "https://shop.example/p?x=1"],
    ["https://shop.example/p?utm=1&sku=%E2%82%AC&&", "https://shop.example/p?utm=1&sku=%E2%82%AC"],
    ["https://shop.example/p?bad=%E0%A4%A&_ga=2.1", "https://shop.example/p?bad=%E0%A4%A"],
  ])("%s -> %s", (link, landing) => {
    expect(withoutTracking(link)).toBe(landing);
  });
});
