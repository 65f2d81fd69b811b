/**
 * Reference data: organizations, brands, product families, active ingredients,
 * the public category tree and catalog categories. It depends on the seed only
 * (fixed sizes), is built once per catalogue and is shared by every product, so
 * embedding a brand in a product costs a pointer, not an object.
 */
import { between, CATALOGUE_NOW, CATALOGUE_START } from "./clock.js";
import { Rng } from "./prng.js";
import { BRAND_ENDS, BRAND_STEMS, CITIES, INGREDIENTS, ODD_BRANDS, type Tri } from "./text.js";
import { phpJson } from "./json.js";
import { HIDDEN, type Meta, type OrganizationHidden, type Wire, type WithHidden } from "./types.js";

export const ID_RANGES = { organization: 1001, brand: 2001, family: 3001, ingredient: 4001, publicCategory: 501 } as const;

export interface Reference {
  organizations: WithHidden<OrganizationHidden>[];
  /** Suppliers only: the owners of brands. */
  supplierIds: number[];
  brands: Wire[];
  /** Per brand: the supplier organization that owns it. */
  brandOwner: number[];
  /** Embedded forms of each brand: name localized / name as a plain string (both are seen). */
  embeddedBrandLocalized: Wire[];
  embeddedBrandPlain: Wire[];
  productFamilies: Wire[];
  /** Per family: the brand index it belongs to. */
  familyBrand: number[];
  activeIngredients: Wire[];
  /** ATC code of each active ingredient. */
  ingredientAtc: string[];
  publicCategories: Wire[];
  /** Indices into publicCategories of the leaves products attach to. */
  publicCategoryLeaves: number[];
  catalogCategories: Wire[];
  /** The same records pre-serialized (PHP-style JSON), embedded in products as text. */
  json: ReferenceJson;
}

export interface ReferenceJson {
  brandLocalized: string[];
  brandPlain: string[];
  family: string[];
  ingredient: string[];
  publicCategory: string[];
  catalogCategory: string[];
  organization: string[];
  /** `{"name":{...}}` per organization, as photos embed it. */
  organizationName: string[];
}

function meta(rng: Rng): Meta {
  const createdAt = between(CATALOGUE_START, CATALOGUE_START + 5 * 365 * 86400, rng.next());
  return { createdAt, updatedAt: between(createdAt, CATALOGUE_NOW, rng.next()) };
}

const tri = (fr: string, nl: string, en: string): Tri => ({ fr, nl, en });

const ORG_TYPES = ["supplier", "marketing", "medical_professional", "other"] as const;
const ORG_WEIGHTS = [24, 8, 5, 3];

/** ATC codes of INGREDIENTS, same order. N02A* are opioids, N05BA* benzodiazepines (see narcotic). */
export const INGREDIENT_ATC = [
  "N02BE01", "M01AE01", "N02BA01", "J01CA04", "A02BC01", "R06AE07", "R06AX13", "M01AB05", "N02AA59", "N02AX02",
  "N05BA01", "N05BA06", "A10BA02", "C10AA01", "A07DA03", "R01AA07", "D08AC02", "A12CC", "A11CC05", "D03AX05",
  "A12CB01", "B03AA07", "N05CH01", "QP53AX15", "QP54AB51",
] as const;

function organizations(rng: Rng): WithHidden<OrganizationHidden>[] {
  const out: WithHidden<OrganizationHidden>[] = [];
  for (let k = 0; k < 40; k++) {
    const type = k < 24 ? "supplier" : rng.weighted(ORG_TYPES, ORG_WEIGHTS);
    const [city, country, zip] = rng.pick(CITIES);
    const base = `${rng.pick(BRAND_STEMS)}${rng.pick(BRAND_ENDS)}`;
    const legal = country === "BE" ? "NV" : "SAS";
    const org: WithHidden<OrganizationHidden> = {
      id: ID_RANGES.organization + k,
      name: { fr: `${base} ${legal}`, nl: `${base} ${legal}`, en: `${base} ${legal}` },
      type: k < 24 ? "supplier" : type === "supplier" ? "other" : type,
      meta: meta(rng),
      [HIDDEN]: {
        vatNr: country === "BE" ? `BE0${rng.digits(9)}` : `FR${rng.digits(11)}`,
        ...(country === "FR" ? { finessNr: rng.digits(9) } : {}),
        ...(rng.chance(0.5) ? { cipNr: rng.digits(7) } : {}),
      },
    };
    if (org.type === "supplier") {
      org.contactInformation = {
        address: `Rue ${rng.pick(["de la Loi", "Neuve", "du Midi", "Haute"])} ${rng.int(1, 200)}`,
        zipCode: zip,
        city,
        country,
        email: `info@${base.toLowerCase()}.example`,
        url: `https://www.${base.toLowerCase()}.example`,
        ...(rng.chance(0.5) ? { region: country === "BE" ? "BE-BRU" : "FR-IDF" } : {}),
      };
    }
    out.push(org);
  }
  return out;
}

const ROOTS: Tri[] = [
  tri("Douleur & fièvre", "Pijn & koorts", "Pain & fever"), tri("Rhume & grippe", "Verkoudheid & griep", "Cold & flu"),
  tri("Peau", "Huid", "Skin"), tri("Cheveux", "Haar", "Hair"), tri("Bébé & maman", "Baby & mama", "Baby & mother"),
  tri("Vitamines", "Vitaminen", "Vitamins"), tri("Hygiène dentaire", "Mondhygiëne", "Oral care"), tri("Animaux", "Dieren", "Pets"),
];
const SUBS: Tri[] = [
  tri("Adultes", "Volwassenen", "Adults"), tri("Enfants", "Kinderen", "Children"), tri("Naturel", "Natuurlijk", "Natural"),
  tri("Accessoires", "Accessoires", "Accessories"),
];

const LEAVES: Tri[] = [tri("Comprimés & gélules", "Tabletten & capsules", "Tablets & capsules"), tri("Sirops & gouttes", "Siropen & druppels", "Syrups & drops")];

function publicCategories(rng: Rng): { list: Wire[]; leaves: number[] } {
  const list: Wire[] = [];
  const leaves: number[] = [];
  let id = ID_RANGES.publicCategory;
  const add = (name: Tri, parent: number | null, order: number): number => {
    list.push({ id, name: { ...name }, parent, order, meta: meta(rng) });
    return id++;
  };
  ROOTS.forEach((root, r) => {
    const rootId = add(root, null, r + 1);
    SUBS.forEach((sub, s) => {
      // Short names as in real trees ("Pijn & koorts > Kinderen"): the same name under several roots.
      const subId = add(sub, rootId, s + 1);
      if ((r + s) % 3 === 0) {
        LEAVES.forEach((leaf, g) => {
          leaves.push(list.length);
          add(leaf, subId, g + 1);
        });
      } else {
        leaves.push(list.length - 1);
      }
    });
  });
  return { list, leaves };
}

const CATALOG: [string, string | null, "medicine" | "veterinary_medicine" | "non_medical", Tri][] = [
  ["MED", null, "medicine", tri("Médicaments", "Geneesmiddelen", "Medicines")],
  ["MED-ANALG", "MED", "medicine", tri("Analgésiques", "Pijnstillers", "Analgesics")],
  ["MED-RESP", "MED", "medicine", tri("Voies respiratoires", "Luchtwegen", "Respiratory")],
  ["MED-DIGEST", "MED", "medicine", tri("Digestion", "Spijsvertering", "Digestion")],
  ["MED-PSY", "MED", "medicine", tri("Système nerveux", "Zenuwstelsel", "Nervous system")],
  ["VET", null, "veterinary_medicine", tri("Médicaments vétérinaires", "Diergeneesmiddelen", "Veterinary medicines")],
  ["VET-PARA", "VET", "veterinary_medicine", tri("Antiparasitaires", "Antiparasitaire middelen", "Antiparasitics")],
  ["NONMED", null, "non_medical", tri("Parapharmacie", "Parafarmacie", "Non-medical")],
  ["NONMED-COSM", "NONMED", "non_medical", tri("Cosmétique", "Cosmetica", "Cosmetics")],
  ["NONMED-FOOD", "NONMED", "non_medical", tri("Compléments alimentaires", "Voedingssupplementen", "Food supplements")],
  ["NONMED-HYG", "NONMED", "non_medical", tri("Hygiène", "Hygiëne", "Hygiene")],
  ["NONMED-DEVICE", "NONMED", "non_medical", tri("Dispositifs médicaux", "Medische hulpmiddelen", "Medical devices")],
];

export function buildReference(seed: number): Reference {
  const rng = new Rng(seed ^ 0x5eed);
  const orgs = organizations(rng);
  const supplierIds = orgs.filter((o) => o.type === "supplier").map((o) => o.id as number);

  const brands: Wire[] = [];
  const brandOwner: number[] = [];
  const embeddedBrandLocalized: Wire[] = [];
  const embeddedBrandPlain: Wire[] = [];
  const used = new Set<string>();
  for (let k = 0; k < 150; k++) {
    let name = k % 25 === 7 ? (ODD_BRANDS[(k / 25) | 0] as string) : `${rng.pick(BRAND_STEMS)}${rng.pick(BRAND_ENDS)}`;
    while (used.has(name)) name = `${rng.pick(BRAND_STEMS)}${rng.pick(BRAND_ENDS)}`;
    used.add(name);
    const id = ID_RANGES.brand + k;
    const m = meta(rng);
    brands.push({ id, name, logo: rng.chance(0.8) ? `https://logos.sandbox.invalid/${id}.png` : null, meta: m });
    brandOwner.push(rng.pick(supplierIds));
    embeddedBrandLocalized.push({ id, name: { fr: name, nl: name, en: name }, meta: m });
    embeddedBrandPlain.push({ id, name, meta: m });
  }

  const productFamilies: Wire[] = [];
  const familyBrand: number[] = [];
  for (let k = 0; k < 80; k++) {
    const b = rng.int(0, brands.length - 1);
    const base = (brands[b] as Wire).name as string;
    const line = rng.pick(["Sensitive", "Kids", "Forte", "Hydra", "Repair", "Daily"]);
    productFamilies.push({ id: ID_RANGES.family + k, name: { fr: `${base} ${line}`, nl: `${base} ${line}`, en: `${base} ${line}` }, meta: meta(rng) });
    familyBrand.push(b);
  }

  const activeIngredients: Wire[] = INGREDIENTS.map((name, k) => ({ id: ID_RANGES.ingredient + k, name: { ...name }, meta: meta(rng) }));
  const cats = publicCategories(rng);
  const catalogCategories: Wire[] = CATALOG.map(([id, parent, type, name], k) => ({
    id,
    name: { ...name },
    description: { fr: `Catégorie ${name.fr}`, nl: `Categorie ${name.nl}`, en: `${name.en} category` },
    parent,
    order: k + 1,
    type,
  }));
  const json: ReferenceJson = {
    brandLocalized: embeddedBrandLocalized.map(phpJson),
    brandPlain: embeddedBrandPlain.map(phpJson),
    family: productFamilies.map(phpJson),
    ingredient: activeIngredients.map(phpJson),
    publicCategory: cats.list.map(phpJson),
    catalogCategory: catalogCategories.map(phpJson),
    organization: orgs.map(phpJson),
    organizationName: orgs.map((o) => phpJson({ name: o.name })),
  };
  return {
    json,
    organizations: orgs,
    supplierIds,
    brands,
    brandOwner,
    embeddedBrandLocalized,
    embeddedBrandPlain,
    productFamilies,
    familyBrand,
    activeIngredients,
    ingredientAtc: [...INGREDIENT_ATC],
    publicCategories: cats.list,
    publicCategoryLeaves: cats.leaves,
    catalogCategories,
  };
}
