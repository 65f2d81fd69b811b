/**
 * Product i as the service sends it, written directly as JSON text from
 * (seed, i) alone: shared reference records are embedded as pre-serialized
 * text and pools are pre-escaped, so a product costs its random draws and a
 * few hundred concatenations (JSON.stringify of an object tree would cost
 * several times more, see bench/sandbox.ts). Field order follows the spec's
 * Product table, codes and prices grouped.
 */
import { CATALOGUE_NOW, DAY } from "./clock.js";
import { factCnkJson, factCreatedAt, factId, factReplacementIndex, factStatus, factStatusTouchedAt, factUpdatedAt, type FactsContext } from "./facts.js";
import { localizedJson } from "./json.js";
import { productName, slug, type Kind } from "./names.js";
import { hash3, Rng } from "./prng.js";
import { codesJson, pricesJson } from "./product-codes.js";
import { descriptionsJson, leafletsJson, mediaJson, type MediaContext } from "./product-media.js";
import type { Reference } from "./reference.js";
import { SPECIES_JSON, DIETARY_JSON, COLORS_JSON, GALENIC_JSON, conservationJson, NOT_APPLICABLE } from "./product-extras.js";
import type { ProductHidden } from "./types.js";

export interface ProductContext extends FactsContext {
  ref: Reference;
  /** The asset base URL escaped as JSON string contents. */
  baseEsc: string;
  /** See formatParts. */
  photoFormats: string[];
  frontalFormats: string[];
}

export interface GeneratedProduct {
  json: string;
  hidden: ProductHidden;
}

/** narcotic, from the ATC code: opioids (N02A) yes, benzodiazepines (N05BA) assimilated. */
function narcoticOf(kind: Kind, atc: string | undefined): ProductHidden["narcotic"] {
  if (kind !== "medicine") return "unknown";
  if (atc?.startsWith("N02A")) return "yes";
  if (atc?.startsWith("N05BA")) return "assimilated";
  return "no";
}

const KINDS = ["medicine", "veterinary_medicine", "non_medical"] as const;
const CATALOG_POOL: Record<Kind, number[]> = { medicine: [1, 2, 3, 4], veterinary_medicine: [6], non_medical: [8, 9, 10, 11] };
const bool = (b: boolean) => (b ? "true" : "false");

export function generateProduct(ctx: ProductContext, i: number): GeneratedProduct {
  const { ref } = ctx;
  const json = ref.json;
  const rng = new Rng(hash3(ctx.seedHash, i, 99));
  const id = factId(ctx, i);
  const status = factStatus(ctx, i);
  const createdAt = factCreatedAt(ctx, i);
  const updatedAt = factUpdatedAt(ctx, i);
  const market = rng.chance(0.6) ? "BE" : "FR";
  const kind: Kind = rng.weighted(KINDS, [45, 7, 48]);
  const medicine = kind !== "non_medical";
  const locales = market === "BE" ? (rng.chance(0.05) ? ["fr", "nl", "en", "de"] : ["fr", "nl", "en"]) : ["fr", "en"];
  const localesJson = `["${locales.join('","')}"]`;
  const brandIndex = rng.int(0, ref.brands.length - 1);
  const ingredient = kind === "medicine" ? rng.int(0, 22) : kind === "veterinary_medicine" ? rng.int(23, 24) : -1;
  const atc = ingredient >= 0 ? ref.ingredientAtc[ingredient] : undefined;
  const food = kind === "non_medical" && rng.chance(0.3);
  const hidden: ProductHidden = { index: i, market, kind, narcotic: narcoticOf(kind, atc), statusTouchedAt: factStatusTouchedAt(ctx, i), species: [], media: [] };

  const { name, packageContent } = productName(rng, kind, ref.brands[brandIndex]?.name as string, locales);
  let s = `{"id":"${id}","status":"${status}"`;
  if (rng.chance(0.5)) s += `,"ecommerce":"${rng.pick(["yes", "no", "unknown"])}"`;
  if (status === "replaced") s += `,"replacement":"${factId(ctx, factReplacementIndex(ctx, i))}"`;
  s += `,"name":${localizedJson(name)},"seoName":{`;
  let first = true;
  for (const key in name) {
    s += `${first ? "" : ","}"${key}":"${slug(name[key] as string)}"`;
    first = false;
  }
  s += "}";
  if (rng.chance(0.1)) s += ',"shortDescription":{"fr":"Produit de qualit\\u00e9 pharmaceutique."}';
  const prescription = kind === "medicine" && rng.chance(0.4);
  const legal = kind === "medicine" && rng.chance(0.3);
  s += `,"prescription":${bool(prescription)},"requiresLegalText":${bool(legal)}`;
  s += `,"isANutritionSupplement":${food ? "true" : rng.chance(0.1) ? "null" : "false"}`;
  const biocide = kind === "non_medical" && rng.chance(0.05) ? "yes" : rng.chance(0.1) ? "unknown" : "no";
  s += `,"biocide":"${biocide}"`;
  const deletionRoll = rng.next();
  if (deletionRoll < 0.05) s += `,"officialDeletionAt":${CATALOGUE_NOW - rng.int(1, 700) * DAY}`;
  else if (deletionRoll < 0.07) s += `,"officialDeletionAt":${CATALOGUE_NOW + rng.int(1, 365) * DAY}`;
  s += codesJson(rng, market, kind === "medicine");
  s += `,"supplierReference":"REF-${rng.digits(6)}"`;
  const hs = kind === "medicine" ? 30049000 : food ? 21069092 : 33049900;
  s += rng.chance(0.05) ? `,"hsCode":"${hs}"` : `,"hsCode":${hs}`;
  if (rng.chance(0.1)) s += `,"ospId":${rng.int(100000, 999999)}`;
  if (market === "BE" && medicine) s += `,"cbId":${rng.int(1000000, 9999999)}`;
  s += factCnkJson(ctx, i, market);
  if (market === "FR" && kind === "medicine") s += `,"cisCode":"6${rng.digits(7)}"`;
  if (market === "FR" && kind === "non_medical" && rng.chance(0.1)) s += `,"lpprCode":[{"type":1,"code":"${rng.digits(7)}","quantity":"1"}]`;
  s += conservationJson(rng.weighted(["room", "refrigerator", "fresh", "frozen"], [85, 10, 3, 2]));
  if (kind === "medicine" && !prescription && rng.chance(0.6)) s += `,"maximumDispenseQuantity":${rng.int(1, 6)}`;
  s += pricesJson(rng, market, kind === "medicine", food);
  if (market === "FR" && kind === "medicine") s += `,"franceGalenicShape":[${rng.pick(GALENIC_JSON)}]`;
  const grams = rng.int(10, 900);
  const [w, l, d] = [rng.int(20, 120), rng.int(20, 200), rng.int(10, 80)];
  s += `,"weight":${grams},"weightWithUnit":${rng.chance(0.1) ? `{"value":${grams / 1000},"unit":"kg"}` : `{"value":${grams},"unit":"g"}`}`;
  s += `,"width":${w},"length":${l},"depth":${d},"widthWithUnit":{"value":${w},"unit":"mm"},"lengthWithUnit":{"value":${l},"unit":"mm"},"depthWithUnit":{"value":${d},"unit":"mm"}`;
  // The content agrees with the name (names.ts). The draw it used to come from is kept, unused, so
  // that every later value of every product stays what it was.
  if (kind === "non_medical") rng.int(1, 20);
  else rng.int(1, 10);
  s += `,"packageContent":"${packageContent}","packageQuantity":${rng.int(1, 3)}`;
  s += `,"packagingUnit":"${rng.pick(["box", "bottle", "tube", "blister"])}","popularity":${rng.int(1, 5)}`;
  if (atc) s += `,"atc":"${atc}","atcCategory":["${atc}"]`;
  s += `,"notApplicableField":${rng.chance(0.2) ? `["${rng.pick(NOT_APPLICABLE)}"]` : "[]"}`;

  const leaves = ref.publicCategoryLeaves;
  if (!rng.chance(0.1)) {
    const a = leaves[rng.int(0, leaves.length - 1)] as number;
    const b = rng.chance(0.15) ? (leaves[rng.int(0, leaves.length - 1)] as number) : a;
    s += `,"publicCategories":[${json.publicCategory[a]}${b === a ? "" : "," + json.publicCategory[b]}]`;
  } else {
    s += ',"publicCategories":[]';
  }
  s += `,"catalogCategories":[${json.catalogCategory[rng.pick(CATALOG_POOL[kind])]}]`;
  const meta = `{"createdAt":${createdAt},"updatedAt":${updatedAt}}`;
  if (rng.chance(0.05)) s += `,"ospCategory":{"id":"OSP${rng.int(1, 40)}","parent":"OSP0","name":{"fr":"Cat\\u00e9gorie OSP"},"meta":${meta}}`;
  const brandRoll = rng.next();
  const brandJson = rng.chance(0.35) ? json.brandPlain : json.brandLocalized;
  const other = (brandIndex + 1) % brandJson.length;
  s += `,"brands":[${brandRoll < 0.03 ? "" : brandRoll < 0.05 ? `${brandJson[brandIndex]},${brandJson[other]}` : brandJson[brandIndex]}]`;
  const family = rng.int(0, ref.productFamilies.length - 1);
  s += `,"productFamily":[${rng.chance(0.4) ? json.family[family] : ""}]`;
  if (rng.chance(0.05)) s += `,"attributes":[{"id":${rng.int(1, 30)},"type":"color","name":{"fr":"Attribut"},"meta":${meta}}]`;
  s += `,"dietaryRestrictions":[${food && rng.chance(0.5) ? rng.pick(DIETARY_JSON) : ""}]`;
  s += `,"colors":[${kind === "non_medical" && rng.chance(0.1) ? rng.pick(COLORS_JSON) : ""}]`;
  s += `,"deleted":${bool(rng.chance(0.02))}`;
  const ownerId = ref.brandOwner[brandIndex] as number;
  const owner = ownerId - (ref.organizations[0]?.id as number);
  s += `,"organizations":[${json.organization[owner]}${rng.chance(0.15) ? "," + json.organization[rng.int(24, 39)] : ""}]`;
  s += `,"activeIngredients":[${ingredient >= 0 ? json.ingredient[ingredient] : ""}]`;
  const species: number = kind === "veterinary_medicine" ? 1 : biocide === "yes" ? 2 : rng.chance(0.02) ? 3 : rng.chance(0.85) ? 0 : -1;
  s += `,"allowedSpecies":[${species >= 0 ? SPECIES_JSON[species]?.json : ""}]`;
  if (species >= 0) hidden.species.push(SPECIES_JSON[species]?.code as string);

  const mediaCtx: MediaContext = {
    seedHash: ctx.seedHash,
    baseEsc: ctx.baseEsc,
    photoFormats: ctx.photoFormats,
    frontalFormats: ctx.frontalFormats,
    index: i,
    productId: id,
    locales,
    localesJson,
    createdAt,
    updatedAt,
    organization: ownerId,
    organizationNameJson: json.organizationName[owner] ?? "",
    hidden: hidden.media,
  };
  s += mediaJson(rng, mediaCtx).json;
  s += descriptionsJson(rng, mediaCtx, medicine, legal).json;
  s += kind === "medicine" && rng.chance(0.85) ? leafletsJson(rng, mediaCtx) : ',"leaflets":[]';
  s += `,"meta":${meta}`;
  s += `,"embedUrl":"${ctx.baseEsc}\\/v4\\/products\\/embed?id=${id}\\u0026expires=${CATALOGUE_NOW + 4 * 3600}\\u0026signature=${hash3(ctx.seedHash, i, 7).toString(16)}"`;
  s += `,"publicPageUrl":"${ctx.baseEsc}\\/p\\/${id}"}`;
  return { json: s, hidden };
}

