/**
 * Fixture products shaped like the real wire (wire-facts.md): prices in cents,
 * vat as 2100, EANs as strings and integers, localized fields with missing and
 * empty keys, photo formats as an object of URLs.
 */
import type { Product } from "../../src/catalogue/schemas/product.js";
import { gs1CheckDigit } from "../../src/mapping/gtin.js";
import { buildContext, type CategoryNode, type ContextInput, type MappingContext } from "../../src/mapping/context.js";
import { ChannelMapping, type ChannelMappingInput } from "../../src/mapping/settings.js";

/** A body of digits completed with its GS1 check digit. */
export function withCheck(body: string): string {
  return body + String(gs1CheckDigit(body));
}

export const CODES = {
  /** A French CIP13 (GS1 France 340 range). */
  cip13: withCheck("340093000001"),
  /** A Belgian EAN-13 (GS1 Belgium 54). */
  ean13: withCheck("541234500001"),
  /** A UPC-A (GTIN-12) with a leading zero. */
  upc: withCheck("01234567890"),
  gtin8: withCheck("9638507"),
  /** A case-level GTIN-14 (indicator 1). */
  gtin14: withCheck("1541234500001"),
};

export const ASSET = "https://assets.example/media";

export function photo(id: number, overrides: Record<string, unknown> = {}): NonNullable<Product["photos"]>[number] {
  const hex = id.toString(16).padStart(8, "0");
  return {
    id,
    type: "photo",
    photoType: "packshot",
    locales: [],
    targetGroups: ["public"],
    displayOrder: id,
    formats: {
      thumbnail: `${ASSET}/thumbnail/${hex}.jpeg`,
      thumbnailWebp: `${ASSET}/thumbnail/${hex}.webp`,
      medium: `${ASSET}/medium/${hex}.jpeg`,
      mediumWebp: `${ASSET}/medium/${hex}.webp`,
      large: `${ASSET}/large/${hex}.jpeg`,
      largeWebp: `${ASSET}/large/${hex}.webp`,
      huge: `${ASSET}/huge/${hex}.jpeg`,
      hugeWebp: `${ASSET}/huge/${hex}.webp`,
    },
    ...overrides,
  };
}

export function frontal(id: number, overrides: Record<string, unknown> = {}): NonNullable<Product["frontals"]>[number] {
  const hex = id.toString(16).padStart(8, "0");
  return {
    id,
    photoType: "packshot",
    displayOrder: 1,
    formats: {
      thumbnail: `${ASSET}/frontal/thumbnail/${hex}.png`,
      medium: `${ASSET}/frontal/medium/${hex}.png`,
      mediumJpeg: `${ASSET}/frontal/medium/${hex}.jpeg`,
      mediumWebp: `${ASSET}/frontal/medium/${hex}.webp`,
      largeJpg: `${ASSET}/frontal/large/${hex}.jpg`,
      largeWebp: `${ASSET}/frontal/large/${hex}.webp`,
      huge: `${ASSET}/frontal/huge/${hex}.png`,
      hugeWebp: `${ASSET}/frontal/huge/${hex}.webp`,
    },
    ...overrides,
  };
}

/** An active, sellable French parapharmacy product; override anything. */
export function product(overrides: Record<string, unknown> = {}): Product {
  return {
    id: "M34C3D3A5E",
    status: "active",
    deleted: false,
    name: { fr: "Eau thermale spray", en: "Thermal spring water spray", nl: "" },
    seoName: { fr: "eau-thermale-spray", en: "thermal-spring-water-spray" },
    prescription: false,
    eanGtin13: CODES.cip13,
    ean: [CODES.cip13, `0${CODES.cip13}`],
    cip13: Number(CODES.cip13),
    supplierReference: "C52660",
    vat: 2100,
    publicPrice: 1450,
    manufacturerPrice: 820,
    packageContent: "300 ml",
    weightWithUnit: { value: 0.37, unit: "kg" },
    brands: [{ id: 12, name: "Avène" }],
    publicCategories: [{ id: 11, name: { fr: "Solaires" }, parent: 10 }],
    catalogCategories: [{ id: "CC1", type: "non_medical" }],
    photos: [photo(1)],
    descriptions: [
      { id: 1, type: "full_description", locales: ["fr"], targetGroups: ["public"], content: { fr: "<p>Apaise &amp; adoucit.</p>", en: "<p>Soothes.</p>" } },
    ],
    leaflets: [],
    meta: { createdAt: 1700000000, updatedAt: 1717000000 },
    ...overrides,
  } as Product;
}

export const CATEGORIES: CategoryNode[] = [
  { id: 10, name: { fr: "Soin", en: "Care", nl: "Verzorging" }, parent: null },
  { id: 11, name: { fr: "Solaires", en: "Sun care" }, parent: 10 },
  { id: 12, name: { fr: "Enfants", en: "Children" }, parent: 11 },
  { id: 20, name: { fr: "Médicaments", en: "Medicines" }, parent: null },
];

/** 2025-06-01T00:00:00Z */
export const NOW = 1748736000;

export function context(overrides: ContextInput = {}): MappingContext {
  return buildContext({ categories: CATEGORIES, brands: [{ id: 12, name: "Avène" }], now: NOW, ...overrides });
}

export function channel(input: ChannelMappingInput = {}): ChannelMapping {
  return ChannelMapping.parse({ link: { template: "https://shop.example/{{seoName}}-{{id}}" }, ...input });
}
