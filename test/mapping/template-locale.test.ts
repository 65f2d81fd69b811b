import { describe, expect, it } from "vitest";
import { localeChain, resolveLocalized } from "../../src/mapping/locale.js";
import { compileTemplate } from "../../src/mapping/template.js";

describe("resolveLocalized", () => {
  const chain = ["fr", "en"];
  it.each<[unknown, string[], { value: string; locale: string } | undefined]>([
    [{ fr: "Crème", en: "Cream" }, chain, { value: "Crème", locale: "fr" }],
    [{ fr: "", en: "Cream" }, chain, { value: "Cream", locale: "en" }],
    [{ fr: "   ", en: "Cream" }, chain, { value: "Cream", locale: "en" }],
    [{ fr: null, en: "Cream" }, chain, { value: "Cream", locale: "en" }],
    [{ en: "Cream" }, chain, { value: "Cream", locale: "en" }],
    [{ nl: "Crème NL" }, chain, undefined],
    [{}, chain, undefined],
    [null, chain, undefined],
    [undefined, chain, undefined],
    ["Avène", chain, { value: "Avène", locale: "fr" }],
    ["", chain, undefined],
    [["fr"], chain, undefined],
    [{ nl: "Zonnecrème", fr: "Crème" }, ["nl", "fr"], { value: "Zonnecrème", locale: "nl" }],
  ])("%j along %j", (value, c, expected) => {
    expect(resolveLocalized(value, c)).toEqual(expected);
  });

  it("builds the chain: locale, its language, fallbacks, no duplicates", () => {
    expect(localeChain("fr", ["en"])).toEqual(["fr", "en"]);
    expect(localeChain("nl-BE", ["fr", "nl", "en"])).toEqual(["nl-BE", "nl", "fr", "en"]);
    expect(localeChain("en", ["en"])).toEqual(["en"]);
  });
});

describe("compileTemplate", () => {
  const values: Record<string, string | undefined> = { brand: "Avène", name: "Eau & <spray> 😀", seo: "eau thermale/50 ml?", id: "M1", empty: "" };
  const resolve = (name: string) => (s: Record<string, string | undefined>) => s[name];

  it.each([
    ["{{brand}} {{name}}", {}, "Avène Eau & <spray> 😀", undefined],
    ["{{ brand }}-{{id}}", {}, "Avène-M1", undefined],
    ["https://shop.example/{{seo}}-{{id}}", { urlEncode: true }, "https://shop.example/eau%20thermale%2F50%20ml%3F-M1", undefined],
    ["https://shop.example/{{{seo}}}", { urlEncode: true }, "https://shop.example/eau thermale/50 ml?", undefined],
    ["{{brand}} {{nothing}}", {}, "Avène ", "nothing"],
    ["{{empty}}x", {}, "x", "empty"],
    ["no variables", {}, "no variables", undefined],
    ["{{brand}", {}, "{{brand}", undefined],
  ] as const)("%s", (source, options, text, missing) => {
    const t = compileTemplate(source, resolve, options);
    expect(t.render(values)).toEqual({ text, missing });
  });

  it("lists its variables", () => {
    expect(compileTemplate("{{a}} {{{b}}} {{ c.d }}", resolve).variables).toEqual(["a", "b", "c.d"]);
  });
});
