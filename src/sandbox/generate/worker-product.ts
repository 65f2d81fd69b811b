/**
 * Product i as stream bytes: the very bytes of productJson(i), written into a
 * ByteWriter instead of built as a string (a product as a string is a rope of
 * hundreds of pieces, and V8 flattening it into bytes costs as much as making
 * it). Constant text and reference records are encoded once (worker-bytes.ts),
 * names are escaped straight into bytes (worker-text.ts): a streamed product
 * costs about 40% less than productJson plus its conversion.
 *
 * It MIRRORS generateProduct (product.ts), and worker-media.ts mirrors the
 * media, descriptions and leaflets of product-media.ts: the same random draws
 * in the same order, the same text. Any change there must be made here too;
 * test/sandbox/worker-product.test.ts compares both over thousands of products
 * of several seeds and fails on any difference. worker-codes.ts mirrors
 * codesJson and pricesJson the same way; productName is shared.
 */
import { CATALOGUE_NOW, DAY } from "./clock.js";
import { factCnkJson, factCreatedAt, factId, factReplacementIndex, factStatus, factUpdatedAt } from "./facts.js";
import { productName, type Kind } from "./names.js";
import { hash3, Rng } from "./prng.js";
import { COLORS_JSON, conservationJson, DIETARY_JSON, GALENIC_JSON, NOT_APPLICABLE, SPECIES_JSON } from "./product-extras.js";
import { codes, prices } from "./worker-codes.js";
import { b1, b2, COMMON, hex32, holes, LOCALES, LOCALES_JSON, n1, ProductMeta, s1, s2, type ProductBytes } from "./worker-bytes.js";
import { descriptions, leaflets, media, type Media } from "./worker-media.js";
import { quote, slugInto } from "./worker-text.js";
import { encode, encodeAll, type ByteWriter } from "./worker-writer.js";

// Copies of product.ts constants (not exported there).
const KINDS = ["medicine", "veterinary_medicine", "non_medical"] as const;
const CATALOG_POOL: Record<Kind, number[]> = { medicine: [1, 2, 3, 4], veterinary_medicine: [6], non_medical: [8, 9, 10, 11] };
const ECOMMERCE = ["yes", "no", "unknown"];
const PACKAGING = ["box", "bottle", "tube", "blister"];
const CONSERVATION = ["room", "refrigerator", "fresh", "frozen"];

const T = {
  head: holes('{"id":"@","status":"@"'),
  ecommerce: holes(',"ecommerce":"@"'),
  replacement: holes(',"replacement":"@"'),
  seoFirst: holes('"@":"@"'),
  seoNext: holes(',"@":"@"'),
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
  packageContent: holes(',"packageContent":"@","packageQuantity":@'),
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
};
const C = {
  ...COMMON,
  ...encodeAll({
  openKey: '{"',
  nextKey: ',"',
  keyEnd: '":',
  quote: '"',
  true: "true",
  false: "false",
  null: "null",
  shortDescription: ',"shortDescription":{"fr":"Produit de qualit\\u00e9 pharmaceutique."}',
  notApplicableNone: ',"notApplicableField":[]',
  publicCategoriesNone: ',"publicCategories":[]',
  leafletsNone: ',"leaflets":[]',
  name: ',"name":',
  seoName: ',"seoName":{',
  meta: ',"meta":',
  }),
};
const CONSERVATION_JSON = new Map(CONSERVATION.map((type) => [type, encode(conservationJson(type))]));
const GALENIC = GALENIC_JSON.map(encode);
const DIETARY = DIETARY_JSON.map(encode);
const COLORS = COLORS_JSON.map(encode);
const SPECIES = SPECIES_JSON.map((s) => encode(s.json));
const bool = (b: boolean) => (b ? C.true : C.false);
/** The four flags together, by prescription (18), legal text (9), supplement (3: true, null, false) and biocide (yes, unknown, no). */
const FLAGS: Uint8Array[] = [];
for (const prescription of ["false", "true"]) {
  for (const legal of ["false", "true"]) {
    for (const supplement of ["true", "null", "false"]) {
      for (const biocide of ["yes", "unknown", "no"]) {
        FLAGS.push(encode(`,"prescription":${prescription},"requiresLegalText":${legal},"isANutritionSupplement":${supplement},"biocide":"${biocide}"`));
      }
    }
  }
}
/** `,"packagingUnit":"X","popularity":` by PACKAGING index. */
const PACKAGING_UNIT = PACKAGING.map((unit) => encode(`,"packagingUnit":"${unit}","popularity":`));
const PACKAGING_INDEX = PACKAGING.map((_, k) => k);

/** weight, the three dimensions, and each with its unit. */
function size(w: ByteWriter, t: Uint8Array[], grams: number, value: number, wd: number, ln: number, dp: number): void {
  const values = [grams, value, wd, ln, dp, wd, ln, dp];
  for (let k = 0; k < 8; k++) {
    w.b(t[k] as Uint8Array);
    w.n(values[k] as number);
  }
  w.b(t[8] as Uint8Array);
}


/** A name map {locale: text}, as localizedJson writes it. */
function localized(w: ByteWriter, map: Record<string, string>): void {
  let first = true;
  for (const key in map) {
    w.b(first ? C.openKey : C.nextKey);
    w.s(key);
    w.b(C.keyEnd);
    quote(w, map[key] as string);
    first = false;
  }
  w.b(C.close);
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

  const { name, packageContent } = productName(rng, kind, ref.brands[brandIndex]?.name as string, locales);
  s2(w, T.head, id, status);
  if (rng.chance(0.5)) s1(w, T.ecommerce, rng.pick(ECOMMERCE) as string);
  if (status === "replaced") s1(w, T.replacement, factId(ctx, factReplacementIndex(ctx, i)));
  w.b(C.name);
  localized(w, name);
  w.b(C.seoName);
  let first = true;
  for (const key in name) {
    const t = first ? T.seoFirst : T.seoNext;
    s1(w, t, key);
    slugInto(w, name[key] as string);
    w.b(t[2] as Uint8Array);
    first = false;
  }
  w.b(C.close);
  if (rng.chance(0.1)) w.b(C.shortDescription);
  const prescription = kind === "medicine" && rng.chance(0.4);
  const legal = kind === "medicine" && rng.chance(0.3);
  const supplement = food ? 0 : rng.chance(0.1) ? 1 : 2;
  const biocide = kind === "non_medical" && rng.chance(0.05) ? 0 : rng.chance(0.1) ? 1 : 2;
  w.b(FLAGS[(prescription ? 18 : 0) + (legal ? 9 : 0) + supplement * 3 + biocide] as Uint8Array);
  const deletionRoll = rng.next();
  if (deletionRoll < 0.05) n1(w, T.deletion, CATALOGUE_NOW - rng.int(1, 700) * DAY);
  else if (deletionRoll < 0.07) n1(w, T.deletion, CATALOGUE_NOW + rng.int(1, 365) * DAY);
  codes(w, rng, market, kind === "medicine");
  s1(w, T.supplier, rng.digits(6));
  const hs = kind === "medicine" ? 30049000 : food ? 21069092 : 33049900;
  n1(w, rng.chance(0.05) ? T.hsText : T.hsNumber, hs);
  if (rng.chance(0.1)) n1(w, T.osp, rng.int(100000, 999999));
  if (market === "BE" && medicine) n1(w, T.cb, rng.int(1000000, 9999999));
  const cnk = factCnkJson(ctx, i, market);
  if (cnk !== "") w.s(cnk);
  if (market === "FR" && kind === "medicine") s1(w, T.cis, rng.digits(7));
  if (market === "FR" && kind === "non_medical" && rng.chance(0.1)) s1(w, T.lppr, rng.digits(7));
  w.b(CONSERVATION_JSON.get(rng.weighted(CONSERVATION, [85, 10, 3, 2])) as Uint8Array);
  if (kind === "medicine" && !prescription && rng.chance(0.6)) n1(w, T.dispense, rng.int(1, 6));
  prices(w, rng, market, kind === "medicine", food);
  if (market === "FR" && kind === "medicine") b1(w, T.galenic, rng.pick(GALENIC) as Uint8Array);
  const grams = rng.int(10, 900);
  const wd = rng.int(20, 120);
  const ln = rng.int(20, 200);
  const dp = rng.int(10, 80);
  if (rng.chance(0.1)) size(w, T.sizeKg, grams, grams / 1000, wd, ln, dp);
  else size(w, T.sizeG, grams, grams, wd, ln, dp);
  // The unused draw mirrors product.ts (the content comes from the name now).
  if (kind === "non_medical") rng.int(1, 20);
  else rng.int(1, 10);
  const quantity = rng.int(1, 3);
  const unit = PACKAGING_UNIT[rng.pick(PACKAGING_INDEX) as number] as Uint8Array;
  const popularity = rng.int(1, 5);
  w.b(T.packageContent[0] as Uint8Array);
  w.s(packageContent);
  w.b(T.packageContent[1] as Uint8Array);
  w.n(quantity);
  w.b(unit);
  w.n(popularity);
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
  const species: number = kind === "veterinary_medicine" ? 1 : biocide === 0 ? 2 : rng.chance(0.02) ? 3 : rng.chance(0.85) ? 0 : -1;
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
