/**
 * A run of many shops renders an exclusion's report line once per product for every channel and
 * shop that says the same of it (pipeline/channel-mapper.ts, excluded()). What each shop's report
 * says must stay its own: a line is shared only when language, reason, detail and the other
 * reasons are all the same.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { buildContext, type MappingContext } from "../../src/mapping/context.js";
import { parseOffers } from "../../src/mapping/offers-parse.js";
import { ChannelMapper, type MapperSpec } from "../../src/pipeline/channel-mapper.js";
import { BUILTIN_TEMPLATES, loadLayout } from "../../src/writers/load-layout.js";
import { CATEGORIES, channel, NOW, product } from "../mapping/fixtures.js";

const layout = await loadLayout(join(BUILTIN_TEMPLATES, "generic-csv"));

function spec(locale: string, settings: Record<string, unknown> = {}): MapperSpec {
  return {
    name: `csv-${locale}`,
    mapping: channel({ locale, ...settings }),
    layout,
    format: "csv",
    meta: { channel: `csv-${locale}`, title: "t", link: "https://shop.example", description: "", generatedAt: new Date(NOW * 1000).toISOString(), locale, country: "FR" },
  };
}

/** Two shops of one run: the second shares the first's catalogue memo (run-products.ts does so). */
function shops(first: string, second: string): [MappingContext, MappingContext] {
  const a = buildContext({ categories: CATEGORIES, brands: [{ id: 12, name: "Avène" }], now: NOW, offers: parseOffers(first, "csv").offers });
  const b = buildContext({ now: NOW, offers: parseOffers(second, "csv").offers }, a);
  return [a, b];
}

function line(text: string | undefined): string[] {
  expect(text).toBeDefined();
  return (parse(text!, { relax_column_count: false }) as string[][])[0]!;
}

describe("an exclusion's report line, shared across shops", () => {
  it("is each shop's own when its offer makes the detail its own (an implausible price)", () => {
    const p = product({ publicPrice: 1450 });
    const [a, b] = shops("id;price\nM34C3D3A5E;145,00\n", "id;price\nM34C3D3A5E;290,00\n");
    const [ma, mb] = [new ChannelMapper(spec("fr")), new ChannelMapper(spec("fr"))];
    const ra = line(ma.map(p, a).report);
    const rb = line(mb.map(p, b).report);
    expect(ra[4]).toBe("IMPLAUSIBLE_PRICE");
    expect(rb[4]).toBe("IMPLAUSIBLE_PRICE");
    expect(ra[5]).toContain("145.00");
    expect(rb[5]).toContain("290.00");
    expect(ra[5]).not.toBe(rb[5]);
  });

  it("is one line for shops that say the same, and each channel's language stays its own", () => {
    // Deleted in the catalogue: every shop leaves it out alike, whatever its offer.
    const p = product({ deleted: true });
    const [a, b] = shops("id;price\nM34C3D3A5E;14,00\n", "id;price\nM34C3D3A5E;15,00\n");
    const fr = [new ChannelMapper(spec("fr")), new ChannelMapper(spec("fr"))];
    const en = new ChannelMapper(spec("en"));
    const first = fr[0]!.map(p, a).report;
    const second = fr[1]!.map(p, b).report;
    expect(second).toBe(first);
    expect(line(first)[2]).toBe("Eau thermale spray");
    // Another language in the same shop: its own line (the name in English).
    expect(line(en.map(p, a).report)[2]).toBe("Thermal spring water spray");
    // Each shop counts its own exclusion.
    expect(fr[0]!.tally.excluded).toEqual({ DELETED: 1 });
    expect(fr[1]!.tally.excluded).toEqual({ DELETED: 1 });
  });

  it("a shop without the offer another has is not given the other's line", () => {
    const p = product({});
    const [a, b] = shops("id;price\nM34C3D3A5E;14,00\n", "id;price\nOTHER;15,00\n");
    const skip = { offers: { whenMissing: "skip" } };
    const [ma, mb] = [new ChannelMapper(spec("fr", skip)), new ChannelMapper(spec("fr", skip))];
    expect(ma.map(p, a).row).toBeDefined();
    const rb = mb.map(p, b);
    expect(rb.row).toBeUndefined();
    expect(line(rb.report)[4]).toBe("NO_OFFER");
  });
});
