/**
 * Titles are plain clean text (issue 13, item 4): markup and entities pasted
 * into names go while text that only looks like markup stays, control
 * characters go, a brand already at the start of the name is said once, and
 * Google / Microsoft titles carry no emoji or decorative symbols.
 */
import { describe, expect, it } from "vitest";
import { mapProduct, type MapResult } from "../../src/mapping/map-product.js";
import type { ChannelMappingInput } from "../../src/mapping/settings.js";
import { dropRepeatedBrand } from "../../src/mapping/text.js";
import { dropDecorations, nameToText } from "../../src/mapping/title-text.js";
import { PRESETS } from "../../src/presets/index.js";
import { channel, context, product } from "./fixtures.js";

function title(name: string, settings: ChannelMappingInput = {}, brand = "Avène"): string {
  const r: MapResult = mapProduct(product({ name: { fr: name }, brands: [{ id: 12, name: brand }] }), channel(settings), context());
  if (!r.ok) throw new Error(`excluded: ${JSON.stringify(r.reasons)}`);
  return r.item.title;
}

describe("names to plain text", () => {
  it("removes HTML tags and decodes entities; text that only looks like markup stays", () => {
    expect(nameToText("Sérum anti-âge 200 ml <b>&amp;</b>")).toBe("Sérum anti-âge 200 ml &");
    expect(nameToText("Co <Bio> 50 ml")).toBe("Co <Bio> 50 ml");
    expect(nameToText("Crème <3 ans> &eacute;t&eacute; <i>doux</i>")).toBe("Crème <3 ans> été doux");
    expect(nameToText("Gel<br/>douche <span style=\"a>b\">200 ml</span><script>x()</script>")).toBe("Gel douche 200 ml");
    expect(nameToText("a < b &lt;b&gt; &#x1F33F;")).toBe("a < b <b> 🌿");
  });

  it("does so in the mapped title, with the brand template around it", () => {
    expect(title("Sérum anti-âge 200 ml <b>&amp;</b> Co <Bio>")).toBe("Avène Sérum anti-âge 200 ml & Co <Bio>");
  });

  it("drops control characters from names and brands", () => {
    expect(title("Eau\u0000 thermale\u0085\uFFFE \uD800spray", {}, "Av\u0007ène")).toBe("Avène Eau thermale spray");
  });
});

describe("a brand the name already starts with", () => {
  it("is said once, separators included", () => {
    expect(title("Purapharm, collier antiparasitaire", {}, "Purapharm")).toBe("Purapharm, collier antiparasitaire");
    expect(title("PURAPHARM - collier", {}, "Purapharm")).toBe("PURAPHARM - collier");
    expect(title("Avène: Eau thermale")).toBe("Avène: Eau thermale");
    expect(dropRepeatedBrand("Purapharm Purapharm, collier antiparasitaire", "Purapharm")).toBe("Purapharm, collier antiparasitaire");
  });

  it("is not confused with a word that starts like it", () => {
    expect(title("Avènement, crème")).toBe("Avène Avènement, crème");
    expect(dropRepeatedBrand("Avène, Avènement", "Avène")).toBe("Avène, Avènement");
  });
});

describe("emoji and decorative symbols", () => {
  const google = PRESETS["google"]!.mapping;
  const microsoft = PRESETS["microsoft"]!.mapping;
  const meta = PRESETS["meta"]!.mapping;

  it("are dropped from Google and Microsoft titles", () => {
    expect(title("🌿 Eau thermale ★★★ spray 👍🏽 🇫🇷", google)).toBe("Avène Eau thermale spray");
    expect(title("Crème ❤️ 50 ml", microsoft)).toBe("Avène Crème 50 ml");
  });

  it("keep the legal marks, the degree and the estimated sign", () => {
    expect(dropDecorations("Biafine® émulsion™ 37 °C 50 ml ℮ ©")).toBe("Biafine® émulsion™ 37 °C 50 ml ℮ ©");
  });

  it("stay in the titles of other channels", () => {
    expect(title("🌿 Eau thermale ★ spray", meta)).toBe("Avène 🌿 Eau thermale ★ spray");
    expect(title("🌿 Eau thermale")).toBe("Avène 🌿 Eau thermale");
  });
});
