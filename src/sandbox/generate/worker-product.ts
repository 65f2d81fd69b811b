/**
 * Product i as stream bytes: the very bytes of productJson(i) (product.ts and
 * product-media.ts), written into a ByteWriter instead of built as a string.
 * Constant text is encoded once into templates whose `@` are the holes,
 * written in order (T.photo[0], value, T.photo[1], ...); reference records are
 * encoded once per catalogue. A streamed product costs about half as much.
 *
 * It MIRRORS generateProduct, mediaJson, descriptionsJson and leafletsJson:
 * the same random draws in the same order, the same text. Any change there
 * must be made here too; test/sandbox/worker-product.test.ts compares both
 * over thousands of products of several seeds and fails on any difference.
 * Helpers that return small strings (names, codes, prices) are shared.
 */
import { CATALOGUE_NOW, DAY } from "./clock.js";
import { idBase } from "./codes.js";
import { factCreatedAt, factId, factReplacementIndex, factStatus, factUpdatedAt } from "./facts.js";
import { localizedJson, q, qInner } from "./json.js";
import { productName, slug, type Kind } from "./names.js";
import { hash3, Rng } from "./prng.js";
import { codesJson, pricesJson } from "./product-codes.js";
import { COLORS_JSON, conservationJson, DIETARY_JSON, GALENIC_JSON, NOT_APPLICABLE, SPECIES_JSON } from "./product-extras.js";
import { FRONTAL_SLOT, LINK_SLOT, MEDIA_ID_BASE, MEDIA_ODDITY, MEDIA_SLOTS, formatParts } from "./product-media.js";
import type { ProductContext } from "./product.js";
import type { Reference } from "./reference.js";
import { descriptionHtmlJson, type Locale } from "./text.js";
import { encode, encodeAll, type ByteWriter } from "./worker-writer.js";

// Copies of product.ts / product-media.ts constants (not exported there).
const KINDS = ["medicine", "veterinary_medicine", "non_medical"] as const;
const CATALOG_POOL: Record<Kind, number[]> = { medicine: [1, 2, 3, 4], veterinary_medicine: [6], non_medical: [8, 9, 10, 11] };
const ECOMMERCE = ["yes", "no", "unknown"];
const PACKAGING = ["box", "bottle", "tube", "blister"];
const CONSERVATION = ["room", "refrigerator", "fresh", "frozen"];
const PHOTO_TYPES = ["productshot", "lifestyle_image", "pillshot", "packshot"];
const SIDES = ["front", "left", "right", "back", "top", "bottom"];
const LINK_TYPES = ["video", "website", "brochure", "app"];
const DESCRIPTION_TYPES_MEDICINE = ["indication", "usage", "composition", "side_effects", "contra_indication", "warnings"];
const DESCRIPTION_TYPES_OTHER = ["full_description", "usage", "composition", "properties"];
const LOCALES = { fr2: ["fr", "en"], be3: ["fr", "nl", "en"], be4: ["fr", "nl", "en", "de"] };

/** A template's constant parts around its `@` holes, encoded. */
const holes = (template: string): Uint8Array[] => template.split("@").map(encode);

const T = {
  head: holes('{"id":"@","status":"@"'),
  ecommerce: holes(',"ecommerce":"@"'),
  replacement: holes(',"replacement":"@"'),
  seoFirst: holes('"@":"@"'),
  seoNext: holes(',"@":"@"'),
  flags: holes(',"prescription":@,"requiresLegalText":@,"isANutritionSupplement":@,"biocide":"@"'),
  deletion: holes(',"officialDeletionAt":@'),
  supplier: holes(',"supplierReference":"REF-@"'),
  hsText: holes(',"hsCode":"@"'),
  hsNumber: holes(',"hsCode":@'),
  osp: holes(',"ospId":@'),
  cb: holes(',"cbId":@'),
  cis: holes(',"cisCode":"6@"'),
  lppr: holes(',"lpprCode":[{"type":1,"code":"@","quantity":"1"}]'),
  dispense: holes(',"maximumDispenseQuantity":@'),
  galenic: holes(',"franceGalenicShape":[@]'),
  sizeKg: holes(',"weight":@,"weightWithUnit":{"value":@,"unit":"kg"},"width":@,"length":@,"depth":@,"widthWithUnit":{"value":@,"unit":"mm"},"lengthWithUnit":{"value":@,"unit":"mm"},"depthWithUnit":{"value":@,"unit":"mm"}'),
  sizeG: holes(',"weight":@,"weightWithUnit":{"value":@,"unit":"g"},"width":@,"length":@,"depth":@,"widthWithUnit":{"value":@,"unit":"mm"},"lengthWithUnit":{"value":@,"unit":"mm"},"depthWithUnit":{"value":@,"unit":"mm"}'),
  packageMl: holes(',"packageContent":"@ ml","packageQuantity":@,"packagingUnit":"@","popularity":@'),
  packagePc: holes(',"packageContent":"@ pc","packageQuantity":@,"packagingUnit":"@","popularity":@'),
  atc: holes(',"atc":"@","atcCategory":["@"]'),
  notApplicable: holes(',"notApplicableField":["@"]'),
  publicCategories: holes(',"publicCategories":[@]'),
  publicCategories2: holes(',"publicCategories":[@,@]'),
  catalogCategories: holes(',"catalogCategories":[@]'),
  ospCategory: holes(',"ospCategory":{"id":"OSP@","parent":"OSP0","name":{"fr":"Cat\\u00e9gorie OSP"},"meta":@}'),
  brands: holes(',"brands":[@]'),
  brands2: holes(',"brands":[@,@]'),
  family: holes(',"productFamily":[@]'),
  attributes: holes(',"attributes":[{"id":@,"type":"color","name":{"fr":"Attribut"},"meta":@}]'),
  extras: holes(',"dietaryRestrictions":[@],"colors":[@],"deleted":@,"organizations":[@@],"activeIngredients":[@],"allowedSpecies":[@]'),
  tail: holes(',"embedUrl":"@\\/v4\\/products\\/embed?id=@\\u0026expires=@\\u0026signature=@","publicPageUrl":"@\\/p\\/@"}'),
  meta: holes('{"createdAt":@,"updatedAt":@}'),
  photo: holes('{"id":@,"type":"photo","photoType":"@","locales":@,"targetGroups":["public","pharmacist"],"formats":@,"visibleSides":["@"],"displayOrder":@,"organizations":@,"meta":@}'),
  frontal: holes('{"id":@,"type":"photo","photoType":"packshot","locales":@,"targetGroups":["public"],"formats":@,"visibleSides":["front"],"displayOrder":1,"meta":@}'),
  link: holes('{"id":@,"type":"link","linkType":"@","url":"@","name":@,"description":@,"available":{"from":@,"until":@},"locales":@,"targetGroups":["public"],"meta":@}'),
  description: holes('{"id":@,"locales":@,"targetGroups":@,"type":"@","content":{@},"meta":@}'),
  content: holes('"@":"@"'),
  leaflet: holes('{"id":@,"locales":@,"type":"@","url":{@},"meta":@}'),
  leafletUrl: holes('"@":"@\\/leaflets\\/@-@-@.pdf"'),
};
const C = encodeAll({
  comma: ",",
  close: "}",
  openKey: '{"',
  nextKey: ',"',
  keyEnd: '":',
  quote: '"',
  none: "",
  empty: "[]",
  fr: '["fr"]',
  true: "true",
  false: "false",
  null: "null",
  shortDescription: ',"shortDescription":{"fr":"Produit de qualit\\u00e9 pharmaceutique."}',
  notApplicableNone: ',"notApplicableField":[]',
  publicCategoriesNone: ',"publicCategories":[]',
  photos: ',"photos":[',
  frontals: '],"frontals":[',
  links: '],"links":[',
  end: "]",
  descriptionsNone: ',"descriptions":[]',
  descriptions: ',"descriptions":[',
  leafletsNone: ',"leaflets":[]',
  name: ',"name":',
  seoName: ',"seoName":{',
  meta: ',"meta":',
  leaflets: ',"leaflets":[',
  groupsFirst: '["public","pharmacist"]',
  groupsOther: '["public"]',
  video: "https:\\/\\/video.sandbox.invalid\\/watch?v=",
  website: "https:\\/\\/www.sandbox.invalid\\/",
  linkName: localizedJson({ fr: "Vidéo de présentation", en: "Presentation video" }),
  linkDescription: localizedJson({ fr: "Découvrez le produit & ses bienfaits.", en: "Discover the product & its benefits." }),
});
const LOCALES_JSON = new Map(Object.values(LOCALES).map((l) => [l, encode(`["${l.join('","')}"]`)]));
const CONSERVATION_JSON = new Map(CONSERVATION.map((type) => [type, encode(conservationJson(type))]));
const GALENIC = GALENIC_JSON.map(encode);
const DIETARY = DIETARY_JSON.map(encode);
const COLORS = COLORS_JSON.map(encode);
const SPECIES = SPECIES_JSON.map((s) => encode(s.json));
const HEX_DIGITS = Array.from("0123456789abcdef", (c) => c.charCodeAt(0));
const bool = (b: boolean) => (b ? C.true : C.false);

/** Descriptions come from a pool of a few hundred texts: each encoded once. */
const contents = new Map<string, Uint8Array>();
function content(text: string): Uint8Array {
  let bytes = contents.get(text);
  if (!bytes) contents.set(text, (bytes = encode(text)));
  return bytes;
}

/** A catalogue's product context and its reference records, encoded. */
export interface ProductBytes {
  ctx: ProductContext;
  base: Uint8Array;
  photoFormats: FormatsTemplate;
  frontalFormats: FormatsTemplate;
  publicCategory: Uint8Array[];
  catalogCategory: Uint8Array[];
  brandPlain: Uint8Array[];
  brandLocalized: Uint8Array[];
  family: Uint8Array[];
  organization: Uint8Array[];
  /** The same, after a comma (a second organization). */
  organizationAfter: Uint8Array[];
  ingredient: Uint8Array[];
  /** `[{"name":{...}}]` of each organization ("[]" when it has none). */
  organizationNames: Uint8Array[];
}

/** What createCatalogue builds for generateProduct, plus its encodings. */
export function productBytes(seed: number, reference: Reference, assetBaseUrl: string): ProductBytes {
  const seedHash = hash3(seed, 0x5a9d);
  const baseEsc = qInner(assetBaseUrl);
  const ctx: ProductContext = { seedHash, idBase: idBase(seedHash), ref: reference, baseEsc, photoFormats: formatParts(baseEsc, false), frontalFormats: formatParts(baseEsc, true) };
  const json = reference.json;
  return {
    ctx,
    base: encode(baseEsc),
    photoFormats: formatsTemplate(ctx.photoFormats),
    frontalFormats: formatsTemplate(ctx.frontalFormats),
    publicCategory: json.publicCategory.map(encode),
    catalogCategory: json.catalogCategory.map(encode),
    brandPlain: json.brandPlain.map(encode),
    brandLocalized: json.brandLocalized.map(encode),
    family: json.family.map(encode),
    organization: json.organization.map(encode),
    organizationAfter: json.organization.map((o) => encode("," + o)),
    ingredient: json.ingredient.map(encode),
    organizationNames: json.organization.map((_, k) => encode(json.organizationName[k] ? `[${json.organizationName[k]}]` : "[]")),
  };
}

/** mediaHex(seedHash, mediaId) as bytes, into `out` (40 bytes). */
function hexInto(out: Uint8Array, seedHash: number, mediaId: number): Uint8Array {
  for (let k = 0; k < 5; k++) {
    const h = hash3(seedHash, mediaId, k + 11);
    for (let n = 0; n < 8; n++) out[k * 8 + n] = HEX_DIGITS[(h >>> (28 - 4 * n)) & 15] as number;
  }
  return out;
}
const hex = new Uint8Array(40);

/** A formats object with its digest holes: the text with 40 placeholder bytes per hole, and where they are. */
export interface FormatsTemplate {
  text: Uint8Array;
  holes: number[];
}

function formatsTemplate(parts: string[]): FormatsTemplate {
  const holes: number[] = [];
  let text = parts[0] as string;
  for (let k = 1; k < parts.length; k++) {
    holes.push(text.length);
    text += "0".repeat(40) + (parts[k] as string);
  }
  return { text: encode(text), holes };
}

/** formatsJson: the whole object copied at once, then the digest written into its holes. */
function formats(w: ByteWriter, template: FormatsTemplate, seedHash: number, mediaId: number): void {
  const start = w.pos;
  w.b(template.text);
  const digest = hexInto(hex, seedHash, mediaId);
  for (const at of template.holes) w.buf.set(digest, start + at);
}

/** Lowercase hex of a uint32 without leading zeros, as Number#toString(16). */
function hex32(w: ByteWriter, value: number): void {
  let shift = 28;
  while (shift > 0 && value >>> shift === 0) shift -= 4;
  for (; shift >= 0; shift -= 4) w.c(HEX_DIGITS[(value >>> shift) & 15] as number);
}

function meta(w: ByteWriter, createdAt: number, updatedAt: number): void {
  const t = T.meta as [Uint8Array, Uint8Array, Uint8Array];
  w.b(t[0]);
  w.n(createdAt);
  w.b(t[1]);
  w.n(updatedAt);
  w.b(t[2]);
}

/** The product's own meta, written in full once, then copied from there. */
class ProductMeta {
  private start = -1;
  private end = -1;

  constructor(
    private readonly createdAt: number,
    private readonly updatedAt: number,
  ) {}

  write(w: ByteWriter): void {
    if (this.start >= 0) return w.again(this.start, this.end);
    this.start = w.pos;
    meta(w, this.createdAt, this.updatedAt);
    this.end = w.pos;
  }
}

/** A name map {locale: text} (localizedJson): plain text is written as is, other text escaped by q(). */
function localized(w: ByteWriter, map: Record<string, string>): void {
  let first = true;
  for (const key in map) {
    w.b(first ? C.openKey : C.nextKey);
    w.s(key);
    w.b(C.keyEnd);
    const text = map[key] as string;
    if (PLAIN.test(text)) {
      w.b(C.quote);
      w.s(text);
      w.b(C.quote);
    } else {
      w.s(q(text));
    }
    first = false;
  }
  w.b(C.close);
}
/** Text that JSON.stringify and the PHP escapes leave as it is (no quote, backslash, & ' / < >, control or non-ASCII). */
const PLAIN = /^[\x20\x21\x23-\x25\x28-\x2e\x30-\x3b\x3d\x3f-\x5b\x5d-\x7e]*$/;

interface Media {
  pb: ProductBytes;
  index: number;
  productId: string;
  locales: readonly string[];
  localesJson: Uint8Array;
  createdAt: number;
  updatedAt: number;
  meta: ProductMeta;
  owner: number;
}

/** mediaJson, draw for draw. */
function media(w: ByteWriter, rng: Rng, m: Media): void {
  const seedHash = m.pb.ctx.seedHash;
  const base = MEDIA_ID_BASE + m.index * MEDIA_SLOTS;
  w.b(C.photos);
  let frontal = false;
  if (!rng.chance(MEDIA_ODDITY.noPhoto)) {
    const photoCount = rng.chance(MEDIA_ODDITY.severalPhotos) ? rng.int(2, 6) : 1;
    // Every locale list starts with "fr".
    const locales = rng.chance(MEDIA_ODDITY.oneLocalePhoto) ? C.fr : rng.chance(MEDIA_ODDITY.untaggedPhoto) ? C.empty : m.localesJson;
    const t = T.photo as Uint8Array[];
    for (let k = 0; k < photoCount; k++) {
      const id = base + k;
      const photoType = k === 0 ? "packshot" : (rng.pick(PHOTO_TYPES) as string);
      const side = k === 0 ? "front" : (rng.pick(SIDES) as string);
      if (k > 0) w.b(C.comma);
      w.b(t[0] as Uint8Array);
      w.n(id);
      w.b(t[1] as Uint8Array);
      w.s(photoType);
      w.b(t[2] as Uint8Array);
      w.b(locales);
      w.b(t[3] as Uint8Array);
      formats(w, m.pb.photoFormats, seedHash, id);
      w.b(t[4] as Uint8Array);
      w.s(side);
      w.b(t[5] as Uint8Array);
      w.n(k + 1);
      w.b(t[6] as Uint8Array);
      w.b(m.pb.organizationNames[m.owner] as Uint8Array);
      w.b(t[7] as Uint8Array);
      meta(w, m.createdAt + rng.int(0, 86400 * 30), m.updatedAt);
      w.b(t[8] as Uint8Array);
      rng.chance(0.03); // the published draw of note()
    }
    frontal = rng.chance(MEDIA_ODDITY.frontal);
  }
  w.b(C.frontals);
  if (frontal) {
    const id = base + FRONTAL_SLOT;
    const t = T.frontal as Uint8Array[];
    w.b(t[0] as Uint8Array);
    w.n(id);
    w.b(t[1] as Uint8Array);
    w.b(m.localesJson);
    w.b(t[2] as Uint8Array);
    formats(w, m.pb.frontalFormats, seedHash, id);
    w.b(t[3] as Uint8Array);
    meta(w, m.createdAt + rng.int(0, 86400 * 30), m.updatedAt);
    w.b(t[4] as Uint8Array);
  }
  w.b(C.links);
  if (rng.chance(MEDIA_ODDITY.link)) {
    const id = base + LINK_SLOT;
    const linkType = rng.pick(LINK_TYPES) as string;
    const until = rng.chance(0.2) ? m.createdAt + 86400 * 365 : 1893456000;
    const t = T.link as Uint8Array[];
    w.b(t[0] as Uint8Array);
    w.n(id);
    w.b(t[1] as Uint8Array);
    w.s(linkType);
    w.b(t[2] as Uint8Array);
    if (linkType === "video") {
      w.b(C.video);
      w.b(hexInto(hex, seedHash, id).subarray(0, 11));
    } else {
      w.b(C.website);
      w.s(m.productId);
    }
    w.b(t[3] as Uint8Array);
    w.b(C.linkName);
    w.b(t[4] as Uint8Array);
    w.b(C.linkDescription);
    w.b(t[5] as Uint8Array);
    w.n(m.createdAt);
    w.b(t[6] as Uint8Array);
    w.n(until);
    w.b(t[7] as Uint8Array);
    w.b(m.localesJson);
    w.b(t[8] as Uint8Array);
    meta(w, m.createdAt + rng.int(0, 86400 * 30), m.updatedAt);
    w.b(t[9] as Uint8Array);
  }
  w.b(C.end);
}

/** descriptionsJson, draw for draw. */
function descriptions(w: ByteWriter, rng: Rng, m: Media, medicine: boolean, legal: boolean): void {
  if (rng.chance(0.05)) {
    w.b(C.descriptionsNone);
    return;
  }
  const types = medicine ? DESCRIPTION_TYPES_MEDICINE : DESCRIPTION_TYPES_OTHER;
  const count = rng.int(1, 3) + (legal ? 1 : 0);
  const first = rng.chance(0.9) ? 0 : rng.int(0, types.length - 1);
  const t = T.description as Uint8Array[];
  const c = T.content as Uint8Array[];
  w.b(C.descriptions);
  for (let k = 0; k < count; k++) {
    if (k > 0) w.b(C.comma);
    w.b(t[0] as Uint8Array);
    w.n(500000 + m.index * 8 + k);
    w.b(t[1] as Uint8Array);
    w.b(m.localesJson);
    w.b(t[2] as Uint8Array);
    w.b(k === 0 ? C.groupsFirst : C.groupsOther);
    w.b(t[3] as Uint8Array);
    w.s(legal && k === count - 1 ? "legal_text" : (types[(first + k) % types.length] as string));
    w.b(t[4] as Uint8Array);
    for (let l = 0; l < m.locales.length; l++) {
      const locale = m.locales[l] as Locale;
      if (l > 0) w.b(C.comma);
      w.b(c[0] as Uint8Array);
      w.s(locale);
      w.b(c[1] as Uint8Array);
      w.b(content(descriptionHtmlJson(rng, locale)));
      w.b(c[2] as Uint8Array);
    }
    w.b(t[5] as Uint8Array);
    m.meta.write(w);
    w.b(t[6] as Uint8Array);
  }
  w.b(C.end);
}

/** leafletsJson, draw for draw. */
function leaflets(w: ByteWriter, rng: Rng, m: Media): void {
  const kinds = rng.chance(0.4) ? ["pil", "spc"] : ["pil"];
  const t = T.leaflet as Uint8Array[];
  const u = T.leafletUrl as Uint8Array[];
  w.b(C.leaflets);
  kinds.forEach((type, k) => {
    const id = 900000 + m.index * 2 + k;
    const digest = hexInto(hex, m.pb.ctx.seedHash, id).subarray(0, 16);
    if (k > 0) w.b(C.comma);
    w.b(t[0] as Uint8Array);
    w.n(id);
    w.b(t[1] as Uint8Array);
    w.b(m.localesJson);
    w.b(t[2] as Uint8Array);
    w.s(type);
    w.b(t[3] as Uint8Array);
    m.locales.forEach((locale, l) => {
      if (l > 0) w.b(C.comma);
      w.b(u[0] as Uint8Array);
      w.s(locale);
      w.b(u[1] as Uint8Array);
      w.b(m.pb.base);
      w.b(u[2] as Uint8Array);
      w.b(digest);
      w.b(u[3] as Uint8Array);
      w.s(type);
      w.b(u[4] as Uint8Array);
      w.s(locale);
      w.b(u[5] as Uint8Array);
    });
    w.b(t[4] as Uint8Array);
    m.meta.write(w);
    w.b(t[5] as Uint8Array);
  });
  w.b(C.end);
}

// Templates with one or two holes, by the holes' type (fixed arity and types keep them inlined).
function s1(w: ByteWriter, t: Uint8Array[], a: string): void {
  w.b(t[0] as Uint8Array);
  w.s(a);
  w.b(t[1] as Uint8Array);
}
function s2(w: ByteWriter, t: Uint8Array[], a: string, b: string): void {
  w.b(t[0] as Uint8Array);
  w.s(a);
  w.b(t[1] as Uint8Array);
  w.s(b);
  w.b(t[2] as Uint8Array);
}
function n1(w: ByteWriter, t: Uint8Array[], a: number): void {
  w.b(t[0] as Uint8Array);
  w.n(a);
  w.b(t[1] as Uint8Array);
}
function b1(w: ByteWriter, t: Uint8Array[], a: Uint8Array): void {
  w.b(t[0] as Uint8Array);
  w.b(a);
  w.b(t[1] as Uint8Array);
}
function b2(w: ByteWriter, t: Uint8Array[], a: Uint8Array, b: Uint8Array): void {
  w.b(t[0] as Uint8Array);
  w.b(a);
  w.b(t[1] as Uint8Array);
  w.b(b);
  w.b(t[2] as Uint8Array);
}
/** weight, the three dimensions, and each with its unit. */
function size(w: ByteWriter, t: Uint8Array[], grams: number, value: number, wd: number, ln: number, dp: number): void {
  const values = [grams, value, wd, ln, dp, wd, ln, dp];
  for (let k = 0; k < 8; k++) {
    w.b(t[k] as Uint8Array);
    w.n(values[k] as number);
  }
  w.b(t[8] as Uint8Array);
}

/** generateProduct(ctx, i).json, written into `w`. */
export function writeProduct(w: ByteWriter, pb: ProductBytes, i: number): void {
  const { ctx } = pb;
  const { ref } = ctx;
  const rng = new Rng(hash3(ctx.seedHash, i, 99));
  const id = factId(ctx, i);
  const status = factStatus(ctx, i);
  const createdAt = factCreatedAt(ctx, i);
  const updatedAt = factUpdatedAt(ctx, i);
  const productMeta = new ProductMeta(createdAt, updatedAt);
  const market = rng.chance(0.6) ? "BE" : "FR";
  const kind: Kind = rng.weighted(KINDS, [45, 7, 48]);
  const medicine = kind !== "non_medical";
  const locales = market === "BE" ? (rng.chance(0.05) ? LOCALES.be4 : LOCALES.be3) : LOCALES.fr2;
  const brandIndex = rng.int(0, ref.brands.length - 1);
  const ingredient = kind === "medicine" ? rng.int(0, 22) : kind === "veterinary_medicine" ? rng.int(23, 24) : -1;
  const atc = ingredient >= 0 ? ref.ingredientAtc[ingredient] : undefined;
  const food = kind === "non_medical" && rng.chance(0.3);

  const name = productName(rng, kind, ref.brands[brandIndex]?.name as string, locales);
  s2(w, T.head, id, status);
  if (rng.chance(0.5)) s1(w, T.ecommerce, rng.pick(ECOMMERCE) as string);
  if (status === "replaced") s1(w, T.replacement, factId(ctx, factReplacementIndex(ctx, i)));
  w.b(C.name);
  localized(w, name);
  w.b(C.seoName);
  let first = true;
  for (const key in name) {
    s2(w, first ? T.seoFirst : T.seoNext, key, slug(name[key] as string));
    first = false;
  }
  w.b(C.close);
  if (rng.chance(0.1)) w.b(C.shortDescription);
  const prescription = kind === "medicine" && rng.chance(0.4);
  const legal = kind === "medicine" && rng.chance(0.3);
  const supplement = food ? C.true : rng.chance(0.1) ? C.null : C.false;
  const biocide = kind === "non_medical" && rng.chance(0.05) ? "yes" : rng.chance(0.1) ? "unknown" : "no";
  const flags = T.flags;
  w.b(flags[0] as Uint8Array);
  w.b(bool(prescription));
  w.b(flags[1] as Uint8Array);
  w.b(bool(legal));
  w.b(flags[2] as Uint8Array);
  w.b(supplement);
  w.b(flags[3] as Uint8Array);
  w.s(biocide);
  w.b(flags[4] as Uint8Array);
  const deletionRoll = rng.next();
  if (deletionRoll < 0.05) n1(w, T.deletion, CATALOGUE_NOW - rng.int(1, 700) * DAY);
  else if (deletionRoll < 0.07) n1(w, T.deletion, CATALOGUE_NOW + rng.int(1, 365) * DAY);
  w.s(codesJson(rng, market, kind === "medicine"));
  s1(w, T.supplier, rng.digits(6));
  const hs = kind === "medicine" ? 30049000 : food ? 21069092 : 33049900;
  n1(w, rng.chance(0.05) ? T.hsText : T.hsNumber, hs);
  if (rng.chance(0.1)) n1(w, T.osp, rng.int(100000, 999999));
  if (market === "BE" && medicine) n1(w, T.cb, rng.int(1000000, 9999999));
  if (market === "FR" && kind === "medicine") s1(w, T.cis, rng.digits(7));
  if (market === "FR" && kind === "non_medical" && rng.chance(0.1)) s1(w, T.lppr, rng.digits(7));
  w.b(CONSERVATION_JSON.get(rng.weighted(CONSERVATION, [85, 10, 3, 2])) as Uint8Array);
  if (kind === "medicine" && !prescription && rng.chance(0.6)) n1(w, T.dispense, rng.int(1, 6));
  w.s(pricesJson(rng, market, kind === "medicine", food));
  if (market === "FR" && kind === "medicine") b1(w, T.galenic, rng.pick(GALENIC) as Uint8Array);
  const grams = rng.int(10, 900);
  const wd = rng.int(20, 120);
  const ln = rng.int(20, 200);
  const dp = rng.int(10, 80);
  if (rng.chance(0.1)) size(w, T.sizeKg, grams, grams / 1000, wd, ln, dp);
  else size(w, T.sizeG, grams, grams, wd, ln, dp);
  const ml = kind === "non_medical";
  const amount = ml ? rng.int(1, 20) * 25 : rng.int(1, 10) * 10;
  const quantity = rng.int(1, 3);
  const unit = rng.pick(PACKAGING) as string;
  const popularity = rng.int(1, 5);
  const pack = ml ? T.packageMl : T.packagePc;
  w.b(pack[0] as Uint8Array);
  w.n(amount);
  w.b(pack[1] as Uint8Array);
  w.n(quantity);
  w.b(pack[2] as Uint8Array);
  w.s(unit);
  w.b(pack[3] as Uint8Array);
  w.n(popularity);
  w.b(pack[4] as Uint8Array);
  if (atc) s2(w, T.atc, atc, atc);
  if (rng.chance(0.2)) s1(w, T.notApplicable, rng.pick(NOT_APPLICABLE) as string);
  else w.b(C.notApplicableNone);

  const leaves = ref.publicCategoryLeaves;
  if (!rng.chance(0.1)) {
    const a = leaves[rng.int(0, leaves.length - 1)] as number;
    const b = rng.chance(0.15) ? (leaves[rng.int(0, leaves.length - 1)] as number) : a;
    const pa = pb.publicCategory[a] as Uint8Array;
    if (b === a) b1(w, T.publicCategories, pa);
    else b2(w, T.publicCategories2, pa, pb.publicCategory[b] as Uint8Array);
  } else {
    w.b(C.publicCategoriesNone);
  }
  b1(w, T.catalogCategories, pb.catalogCategory[rng.pick(CATALOG_POOL[kind])] as Uint8Array);
  if (rng.chance(0.05)) {
    const t = T.ospCategory as Uint8Array[];
    w.b(t[0] as Uint8Array);
    w.n(rng.int(1, 40));
    w.b(t[1] as Uint8Array);
    productMeta.write(w);
    w.b(t[2] as Uint8Array);
  }
  const brandRoll = rng.next();
  const brandJson = rng.chance(0.35) ? pb.brandPlain : pb.brandLocalized;
  const other = (brandIndex + 1) % brandJson.length;
  if (brandRoll < 0.03) b1(w, T.brands, C.none);
  else if (brandRoll < 0.05) b2(w, T.brands2, brandJson[brandIndex] as Uint8Array, brandJson[other] as Uint8Array);
  else b1(w, T.brands, brandJson[brandIndex] as Uint8Array);
  const family = rng.int(0, ref.productFamilies.length - 1);
  b1(w, T.family, rng.chance(0.4) ? (pb.family[family] as Uint8Array) : C.none);
  if (rng.chance(0.05)) {
    const t = T.attributes as Uint8Array[];
    w.b(t[0] as Uint8Array);
    w.n(rng.int(1, 30));
    w.b(t[1] as Uint8Array);
    productMeta.write(w);
    w.b(t[2] as Uint8Array);
  }
  const dietary = food && rng.chance(0.5) ? (rng.pick(DIETARY) as Uint8Array) : C.none;
  const colors = kind === "non_medical" && rng.chance(0.1) ? (rng.pick(COLORS) as Uint8Array) : C.none;
  const deleted = bool(rng.chance(0.02));
  const ownerId = ref.brandOwner[brandIndex] as number;
  const owner = ownerId - (ref.organizations[0]?.id as number);
  const secondOrganization = rng.chance(0.15) ? (pb.organizationAfter[rng.int(24, 39)] as Uint8Array) : C.none;
  const ingredients = ingredient >= 0 ? (pb.ingredient[ingredient] as Uint8Array) : C.none;
  const species: number = kind === "veterinary_medicine" ? 1 : biocide === "yes" ? 2 : rng.chance(0.02) ? 3 : rng.chance(0.85) ? 0 : -1;
  const organizations = pb.organization[owner] as Uint8Array;
  const extras = [dietary, colors, deleted, organizations, secondOrganization, ingredients, species >= 0 ? (SPECIES[species] as Uint8Array) : C.none];
  for (let k = 0; k < extras.length; k++) {
    w.b(T.extras[k] as Uint8Array);
    w.b(extras[k] as Uint8Array);
  }
  w.b(T.extras[7] as Uint8Array);

  const m: Media = { pb, index: i, productId: id, locales, localesJson: LOCALES_JSON.get(locales) as Uint8Array, createdAt, updatedAt, meta: productMeta, owner };
  media(w, rng, m);
  descriptions(w, rng, m, medicine, legal);
  if (kind === "medicine" && rng.chance(0.85)) leaflets(w, rng, m);
  else w.b(C.leafletsNone);
  w.b(C.meta);
  productMeta.write(w);
  const tail = T.tail;
  w.b(tail[0] as Uint8Array);
  w.b(pb.base);
  w.b(tail[1] as Uint8Array);
  w.s(id);
  w.b(tail[2] as Uint8Array);
  w.n(CATALOGUE_NOW + 4 * 3600);
  w.b(tail[3] as Uint8Array);
  hex32(w, hash3(ctx.seedHash, i, 7));
  w.b(tail[4] as Uint8Array);
  w.b(pb.base);
  w.b(tail[5] as Uint8Array);
  w.s(id);
  w.b(tail[6] as Uint8Array);
}
