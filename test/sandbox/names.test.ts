/**
 * The sandbox's names state the quantity its package contents say (issue 13,
 * item 6): a unit price needs both to agree, and one in ten care products is a
 * multi-pack ("3 x 25 ml", 75 ml as sold).
 */
import { describe, expect, it } from "vitest";
import { createCatalogue } from "../../src/sandbox/index.js";

// Read here on its own, not with the mapping's parser: "<count> x <size> <unit>" or "<size> <unit>".
const VOLUME = /(?:(\d+) x )?(\d+) ml/g;

function millilitres(text: string): number[] {
  return [...text.matchAll(VOLUME)].map((m) => Number(m[1] ?? 1) * Number(m[2]));
}

describe("sandbox names and package contents", () => {
  const products = [...createCatalogue({ seed: 3, products: 3000, assetBaseUrl: "http://sandbox.test" }).products()];

  it("agree on every product, in every locale", () => {
    const disagreeing: string[] = [];
    for (const p of products) {
      const content = p["packageContent"] as string;
      const sold = millilitres(content);
      for (const [locale, name] of Object.entries(p["name"] as Record<string, string>)) {
        if (name === "") continue;
        const stated = millilitres(name);
        if (sold.length === 0 ? stated.length > 0 : !stated.includes(sold[0]!)) disagreeing.push(`${p["id"] as string} ${locale}: "${name}" / ${content}`);
        // Medicines and veterinary products: the count their name ends with (oddities aside) is the content.
        const pieces = /^(\d+) pc$/.exec(content);
        if (pieces && !new RegExp(`\\b${pieces[1]}\\b`).test(name)) disagreeing.push(`${p["id"] as string} ${locale}: "${name}" / ${content}`);
      }
    }
    expect(disagreeing.slice(0, 5)).toEqual([]);
  });

  it("include multi-packs, whose content counts as sold", () => {
    const packs = products.filter((p) => / x /.test(p["packageContent"] as string));
    const care = products.filter((p) => (p["packageContent"] as string).endsWith(" ml"));
    expect(packs.length / care.length).toBeGreaterThan(0.05);
    for (const p of packs) expect(Object.values(p["name"] as Record<string, string>).filter((n) => n !== "").every((n) => n.includes(p["packageContent"] as string))).toBe(true);
  });
});
