/**
 * Product i as the service sends it, from (seed, i) alone. Field order follows
 * the spec's Product table. Shared reference objects (brands, categories,
 * organizations) are embedded by reference, so a product costs its own
 * strings and a few small objects; JSON.stringify does the rest.
 */
import { CATALOGUE_NOW, DAY } from "./clock.js";
import { factCreatedAt, factId, factReplacementIndex, factStatus, factStatusTouchedAt, factUpdatedAt, type FactsContext } from "./facts.js";
import { productName, seoName, type Kind } from "./names.js";
import { hash3, Rng } from "./prng.js";
import { addCodes, addPrices } from "./product-codes.js";
import { descriptions, leaflets, productMedia, type MediaContext } from "./product-media.js";
import type { Reference } from "./reference.js";
import { HIDDEN, type ProductHidden, type Wire, type WithHidden } from "./types.js";

export interface ProductContext extends FactsContext {
  ref: Reference;
  assetBaseUrl: string;
}

/** allowedSpecies entries; the filter takes the codes, the wire carries id and name. */
export const SPECIES = [
  { id: 1, code: "human", name: { fr: "Humain", nl: "Mens", en: "Human" } },
  { id: 2, code: "veterinary", name: { fr: "Vétérinaire", nl: "Veterinair", en: "Veterinary" } },
  { id: 3, code: "surface_maintenance", name: { fr: "Entretien des surfaces", nl: "Oppervlakteonderhoud", en: "Surface maintenance" } },
  { id: 4, code: "phytopharmacy", name: { fr: "Phytopharmacie", nl: "Fytofarmacie", en: "Phytopharmacy" } },
] as const;
const SPECIES_WIRE = SPECIES.map(({ id, name }) => ({ id, name }));

const DIETARY = [
  { id: "gluten_free", name: { fr: "Sans gluten", nl: "Glutenvrij", en: "Gluten free" } },
  { id: "lactose_free", name: { fr: "Sans lactose", nl: "Lactosevrij", en: "Lactose free" } },
  { id: "vegan", name: { fr: "Végan", nl: "Veganistisch", en: "Vegan" } },
];
const COLORS = [
  { id: "white", name: { fr: "Blanc", nl: "Wit", en: "White" } },
  { id: "beige", name: { fr: "Beige", nl: "Beige", en: "Beige" } },
  { id: "blue", name: { fr: "Bleu", nl: "Blauw", en: "Blue" } },
];
const GALENIC = [
  { id: "CPR", parent: "ORAL", name: { fr: "Comprimé" } },
  { id: "GEL", parent: "CUT", name: { fr: "Gel" } },
  { id: "SIR", parent: "ORAL", name: { fr: "Sirop" } },
];
const CONSERVATION_LABEL: Record<string, string> = {
  refrigerator: "À conserver au réfrigérateur (entre 2 °C et 8 °C)",
  fresh: "À conserver au frais",
  frozen: "À conserver au congélateur (-18 °C)",
};
const TEMPERATURES: Record<string, [number, number]> = { refrigerator: [2, 8], fresh: [8, 15], frozen: [-25, -18] };
const temperature = (c: number) => ({ celsius: c, fahrenheit: Math.round((c * 9) / 5 * 10 + 320) / 10, kelvin: Math.round((c + 273.15) * 100) / 100 });
const NOT_APPLICABLE = ["productFamily", "weight", "activeIngredients", "leaflets", "colors"];

/** narcotic, from the ATC code: opioids (N02A) yes, benzodiazepines (N05BA) assimilated. */
function narcoticOf(kind: Kind, atc: string | undefined): ProductHidden["narcotic"] {
  if (kind !== "medicine") return "unknown";
  if (atc?.startsWith("N02A")) return "yes";
  if (atc?.startsWith("N05BA")) return "assimilated";
  return "no";
}

export function generateProduct(ctx: ProductContext, i: number): WithHidden<ProductHidden> {
  const { ref } = ctx;
  const rng = new Rng(hash3(ctx.seedHash, i, 99));
  const id = factId(ctx, i);
  const status = factStatus(ctx, i);
  const meta = { createdAt: factCreatedAt(ctx, i), updatedAt: factUpdatedAt(ctx, i) };
  const market = rng.chance(0.6) ? "BE" : "FR";
  const kind: Kind = rng.weighted(["medicine", "veterinary_medicine", "non_medical"] as const, [45, 7, 48]);
  const medicine = kind !== "non_medical";
  const locales = market === "BE" ? (rng.chance(0.05) ? ["fr", "nl", "en", "de"] : ["fr", "nl", "en"]) : ["fr", "en"];
  const brandIndex = rng.int(0, ref.brands.length - 1);
  const brandName = (ref.brands[brandIndex] as Wire).name as string;
  const ingredient = kind === "medicine" ? rng.int(0, 22) : kind === "veterinary_medicine" ? rng.int(23, 24) : -1;
  const atc = ingredient >= 0 ? ref.ingredientAtc[ingredient] : undefined;
  const food = kind === "non_medical" && rng.chance(0.3);

  const name = productName(rng, kind, brandName, locales);
  const p: WithHidden<ProductHidden> = {
    id,
    status,
    [HIDDEN]: {
      index: i,
      market,
      kind,
      narcotic: narcoticOf(kind, atc),
      statusTouchedAt: factStatusTouchedAt(ctx, i),
      species: [],
    },
  };
  if (rng.chance(0.5)) p.ecommerce = rng.pick(["yes", "no", "unknown"]);
  if (status === "replaced") p.replacement = factId(ctx, factReplacementIndex(ctx, i));
  p.name = name;
  p.seoName = seoName(name);
  if (rng.chance(0.1)) p.shortDescription = { fr: "Produit de qualité pharmaceutique." };
  p.prescription = kind === "medicine" && rng.chance(0.4);
  const legal = kind === "medicine" && rng.chance(0.3);
  p.requiresLegalText = legal;
  p.isANutritionSupplement = food ? true : rng.chance(0.1) ? null : false;
  p.biocide = kind === "non_medical" && rng.chance(0.05) ? "yes" : rng.chance(0.1) ? "unknown" : "no";
  const deletionRoll = rng.next();
  if (deletionRoll < 0.05) p.officialDeletionAt = CATALOGUE_NOW - rng.int(1, 700) * DAY;
  else if (deletionRoll < 0.07) p.officialDeletionAt = CATALOGUE_NOW + rng.int(1, 365) * DAY;
  addCodes(p, rng, market, kind === "medicine");
  p.supplierReference = `REF-${rng.digits(6)}`;
  const hs = kind === "medicine" ? 30049000 : food ? 21069092 : 33049900;
  p.hsCode = rng.chance(0.05) ? String(hs) : hs;
  if (rng.chance(0.1)) p.ospId = rng.int(100000, 999999);
  if (market === "BE" && medicine) p.cbId = rng.int(1000000, 9999999);
  if (market === "FR" && kind === "medicine") p.cisCode = "6" + rng.digits(7);
  if (market === "FR" && kind === "non_medical" && rng.chance(0.1)) p.lpprCode = [{ type: 1, code: rng.digits(7), quantity: "1" }];
  const conservation = rng.weighted(["room", "refrigerator", "fresh", "frozen"], [85, 10, 3, 2]);
  if (conservation !== "room") {
    const [min, max] = TEMPERATURES[conservation] as [number, number];
    p.conservationLabel = CONSERVATION_LABEL[conservation];
    p.conservationMin = temperature(min);
    p.conservationMax = temperature(max);
  }
  p.conservation = conservation;
  if (kind === "medicine" && !p.prescription && rng.chance(0.6)) p.maximumDispenseQuantity = rng.int(1, 6);
  addPrices(p, rng, market, kind === "medicine", food);
  if (market === "FR" && kind === "medicine") p.franceGalenicShape = [rng.pick(GALENIC)];
  const grams = rng.int(10, 900);
  p.weight = grams;
  p.weightWithUnit = rng.chance(0.1) ? { value: grams / 1000, unit: "kg" } : { value: grams, unit: "g" };
  const w = rng.int(20, 120);
  const l = rng.int(20, 200);
  const d = rng.int(10, 80);
  Object.assign(p, { width: w, length: l, depth: d });
  p.widthWithUnit = { value: w, unit: "mm" };
  p.lengthWithUnit = { value: l, unit: "mm" };
  p.depthWithUnit = { value: d, unit: "mm" };
  p.packageContent = kind === "non_medical" ? `${rng.int(1, 20) * 25} ml` : `${rng.int(1, 10) * 10} pc`;
  p.packageQuantity = rng.int(1, 3);
  p.packagingUnit = rng.pick(["box", "bottle", "tube", "blister"]);
  p.popularity = rng.int(1, 5);
  if (atc) {
    p.atc = atc;
    p.atcCategory = [atc];
  }
  p.notApplicableField = rng.chance(0.2) ? [rng.pick(NOT_APPLICABLE)] : [];

  const leaves = ref.publicCategoryLeaves;
  if (!rng.chance(0.1)) {
    const first = ref.publicCategories[leaves[rng.int(0, leaves.length - 1)] as number] as Wire;
    const second = rng.chance(0.15) ? (ref.publicCategories[leaves[rng.int(0, leaves.length - 1)] as number] as Wire) : first;
    p.publicCategories = second === first ? [first] : [first, second];
  } else {
    p.publicCategories = [];
  }
  const catalogPool = kind === "medicine" ? [1, 2, 3, 4] : kind === "veterinary_medicine" ? [6] : [8, 9, 10, 11];
  p.catalogCategories = [ref.catalogCategories[rng.pick(catalogPool)] as Wire];
  if (rng.chance(0.05)) p.ospCategory = { id: `OSP${rng.int(1, 40)}`, parent: "OSP0", name: { fr: "Catégorie OSP" }, meta };
  const brandRoll = rng.next();
  const plain = rng.chance(0.35);
  const embedded = plain ? ref.embeddedBrandPlain : ref.embeddedBrandLocalized;
  p.brands = brandRoll < 0.03 ? [] : brandRoll < 0.05 ? [embedded[brandIndex], embedded[(brandIndex + 1) % embedded.length]] : [embedded[brandIndex]];
  const familyIndex = rng.int(0, ref.productFamilies.length - 1);
  p.productFamily = rng.chance(0.4) ? [ref.productFamilies[familyIndex]] : [];
  if (rng.chance(0.05)) p.attributes = [{ id: rng.int(1, 30), type: "color", name: { fr: "Attribut" }, meta }];
  p.dietaryRestrictions = food && rng.chance(0.5) ? [rng.pick(DIETARY)] : [];
  p.colors = kind === "non_medical" && rng.chance(0.1) ? [rng.pick(COLORS)] : [];
  p.deleted = rng.chance(0.02);
  const ownerId = ref.brandOwner[brandIndex] as number;
  const owner = ref.organizations[ownerId - (ref.organizations[0]?.id as number)];
  p.organizations = owner ? (rng.chance(0.15) ? [owner, ref.organizations[rng.int(24, 39)]] : [owner]) : [];
  p.activeIngredients = ingredient >= 0 ? [ref.activeIngredients[ingredient]] : [];
  const species: number = kind === "veterinary_medicine" ? 1 : p.biocide === "yes" ? 2 : rng.chance(0.02) ? 3 : rng.chance(0.85) ? 0 : -1;
  p.allowedSpecies = species >= 0 ? [SPECIES_WIRE[species]] : [];
  if (species >= 0) p[HIDDEN].species.push(SPECIES[species]?.code as string);

  const mediaCtx: MediaContext = {
    seedHash: ctx.seedHash,
    assetBaseUrl: ctx.assetBaseUrl,
    index: i,
    productId: id,
    locales,
    meta,
    organization: ownerId,
    organizationName: owner ? { name: owner.name } : undefined,
  };
  const media = productMedia(rng, mediaCtx);
  p.photos = media.photos;
  p.frontals = media.frontals;
  p.links = media.links;
  p.descriptions = descriptions(rng, i, locales, medicine, legal, meta);
  p.leaflets = kind === "medicine" && rng.chance(0.85) ? leaflets(rng, mediaCtx) : [];
  p.meta = meta;
  p.embedUrl = `${ctx.assetBaseUrl}/v4/products/embed?id=${id}&expires=${CATALOGUE_NOW + 4 * 3600}&signature=${hash3(ctx.seedHash, i, 7).toString(16)}`;
  p.publicPageUrl = `${ctx.assetBaseUrl}/p/${id}`;
  return p;
}
