/**
 * One language per feed (issue 13, item 5): titles and descriptions in the
 * channel's language unless the channel opts in to a fallback for that field;
 * brand names are language-neutral; a product written only in other languages
 * is left out as MISSING_LANGUAGE, an eligibility reason counted first.
 */
import { describe, expect, it } from "vitest";
import { mapProduct, type MapResult } from "../../src/mapping/map-product.js";
import { isDataQualityReason } from "../../src/mapping/reasons.js";
import type { ChannelMappingInput } from "../../src/mapping/settings.js";
import { channel, context, product } from "./fixtures.js";

const NL: ChannelMappingInput = { locale: "nl", fallbackLocales: ["fr", "en"] };
const FRENCH_ONLY = { name: { fr: "Eau thermale", en: "Thermal water" }, descriptions: [{ id: 1, type: "full_description", content: { fr: "<p>Apaise.</p>" } }] };

function run(overrides: Record<string, unknown>, settings: ChannelMappingInput): MapResult {
  return mapProduct(product(overrides), channel(settings), context());
}

describe("one language per feed", () => {
  it("leaves out a product without a name in the channel's language, naming the languages it has", () => {
    const r = run(FRENCH_ONLY, NL);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reasons[0]).toEqual({ code: "MISSING_LANGUAGE", detail: "title: only en, fr" });
    expect(r.reasons).toContainEqual({ code: "MISSING_LANGUAGE", detail: "description: only fr" });
  });

  it("counts it as not for this feed, ahead of data problems", () => {
    const r = run({ ...FRENCH_ONLY, ean: ["1234"], eanGtin13: null }, { ...NL, brand: { required: true } });
    expect(r.ok ? [] : r.reasons.map((x) => x.code).slice(0, 2)).toEqual(["MISSING_LANGUAGE", "MISSING_LANGUAGE"]);
    expect(isDataQualityReason("MISSING_LANGUAGE")).toBe(false);
  });

  it("uses the fallback locales per field only where the channel opts in", () => {
    const title = run(FRENCH_ONLY, { ...NL, title: { fallback: true } });
    expect(title.ok ? [] : title.reasons).toEqual([{ code: "MISSING_LANGUAGE", detail: "description: only fr" }]);
    const both = run(FRENCH_ONLY, { ...NL, title: { fallback: true }, description: { fallback: true } });
    expect(both.ok && both.item).toMatchObject({ title: "Avène Eau thermale", description: "Apaise.", fallbacks: { name: "fr", description: "fr" } });
  });

  it("publishes an optional description as empty rather than in another language", () => {
    const r = run({ ...FRENCH_ONLY, name: { nl: "Thermaal water" } }, { ...NL, description: { required: false } });
    expect(r.ok && r.item).toMatchObject({ title: "Avène Thermaal water", description: "" });
  });

  it("reads brand names in any language: they are the same everywhere", () => {
    const r = run({ name: { nl: "Thermaal water" }, descriptions: [{ id: 1, type: "full_description", content: { nl: "Kalmeert." } }], brands: [{ id: 12, name: { de: "Avène" } }], seoName: { nl: "thermaal-water" } }, { locale: "nl", fallbackLocales: [] });
    expect(r.ok && r.item.title).toBe("Avène Thermaal water");
  });

  it("reads a regional locale's language (fr-BE reads fr) without any fallback", () => {
    const r = run(FRENCH_ONLY, { locale: "fr-BE", fallbackLocales: [] });
    expect(r.ok && r.item.title).toBe("Avène Eau thermale");
  });

  it("keeps MISSING_TITLE for a product with no name in any language", () => {
    const r = run({ name: { fr: " ", nl: "" }, descriptions: [{ id: 1, type: "full_description", content: { nl: "Kalmeert." } }] }, NL);
    expect(r.ok ? [] : r.reasons.map((x) => x.code)).toEqual(["MISSING_TITLE"]);
  });
});
