/** feedUrl: URLs as marketplaces read them (ASCII, RFC 3986, a comma as %2C), never encoded twice. */
import { describe, expect, it } from "vitest";
import { feedUrl, urlInList } from "../../src/mapping/feed-url.js";
import { leafletUrl } from "../../src/mapping/leaflet.js";
import { product } from "./fixtures.js";

describe("feedUrl", () => {
  it.each([
    ["https://shop.example/p/crème-été?ref=ü", "https://shop.example/p/cr%C3%A8me-%C3%A9t%C3%A9?ref=%C3%BC"],
    ["https://a.example/huge/lait corps,100ml.jpeg", "https://a.example/huge/lait%20corps%2C100ml.jpeg"],
    ["https://a.example/d%C3%A9j%C3%A0.jpeg", "https://a.example/d%C3%A9j%C3%A0.jpeg"],
    ["https://a.example/100%/x%zz", "https://a.example/100%25/x%25zz"],
    ["https://bücher.example:8080/a#x#y", "https://xn--bcher-kva.example:8080/a#x%23y"],
    ["https://a.example/q?x=\"<b>\"|[1]", "https://a.example/q?x=%22%3Cb%3E%22%7C%5B1%5D"],
    ["https://a.example/😀\ud800z", "https://a.example/%F0%9F%98%80z"],
    ["https://user:p,w@a.example/", "https://user:p%2Cw@a.example/"],
  ])("%s -> %s", (input, expected) => {
    expect(feedUrl(input)).toBe(expected);
    expect(feedUrl(expected)).toBe(expected);
  });

  it("returns the very same string when nothing has to change", () => {
    const url = "https://shop.example/fr/a-1.html?utm_source=google&utm_medium=cpc#top";
    expect(feedUrl(url)).toBe(url);
  });

  it("encodes a list field's separator inside one URL", () => {
    expect(urlInList("https://a.example/b;c", ";")).toBe("https://a.example/b%3Bc");
    expect(urlInList("https://a.example/b c", " ")).toBe("https://a.example/b%20c");
  });

  it("encodes a leaflet URL before judging it: a space no longer loses the leaflet", () => {
    const p = product({ leaflets: [{ id: 1, locales: ["fr"], type: "pil", url: { fr: "https://docs.example/notice été.pdf" } }] });
    expect(leafletUrl(p, ["fr"])?.value).toBe("https://docs.example/notice%20%C3%A9t%C3%A9.pdf");
  });
});
