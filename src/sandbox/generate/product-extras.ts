/** Small fixed vocabularies embedded in products, pre-serialized once. */
import { phpJson } from "./json.js";

/** allowedSpecies entries; the filter takes the codes, the wire carries id and name. */
export const SPECIES = [
  { id: 1, code: "human", name: { fr: "Humain", nl: "Mens", en: "Human" } },
  { id: 2, code: "veterinary", name: { fr: "Vétérinaire", nl: "Veterinair", en: "Veterinary" } },
  { id: 3, code: "surface_maintenance", name: { fr: "Entretien des surfaces", nl: "Oppervlakteonderhoud", en: "Surface maintenance" } },
  { id: 4, code: "phytopharmacy", name: { fr: "Phytopharmacie", nl: "Fytofarmacie", en: "Phytopharmacy" } },
] as const;
export const SPECIES_JSON = SPECIES.map(({ id, code, name }) => ({ code, json: phpJson({ id, name }) }));

export const DIETARY_JSON = [
  { id: "gluten_free", name: { fr: "Sans gluten", nl: "Glutenvrij", en: "Gluten free" } },
  { id: "lactose_free", name: { fr: "Sans lactose", nl: "Lactosevrij", en: "Lactose free" } },
  { id: "vegan", name: { fr: "Végan", nl: "Veganistisch", en: "Vegan" } },
].map(phpJson);

export const COLORS_JSON = [
  { id: "white", name: { fr: "Blanc", nl: "Wit", en: "White" } },
  { id: "beige", name: { fr: "Beige", nl: "Beige", en: "Beige" } },
  { id: "blue", name: { fr: "Bleu", nl: "Blauw", en: "Blue" } },
].map(phpJson);

export const GALENIC_JSON = [
  { id: "CPR", parent: "ORAL", name: { fr: "Comprimé" } },
  { id: "GEL", parent: "CUT", name: { fr: "Gel" } },
  { id: "SIR", parent: "ORAL", name: { fr: "Sirop" } },
].map(phpJson);

export const NOT_APPLICABLE = ["productFamily", "weight", "activeIngredients", "leaflets", "colors"];

const LABEL: Record<string, string> = {
  refrigerator: "À conserver au réfrigérateur (entre 2 °C et 8 °C)",
  fresh: "À conserver au frais",
  frozen: "À conserver au congélateur (-18 °C)",
};
const TEMPERATURES: Record<string, [number, number]> = { refrigerator: [2, 8], fresh: [8, 15], frozen: [-25, -18] };
const temperature = (c: number) => ({ celsius: c, fahrenheit: Math.round(((c * 9) / 5) * 10 + 320) / 10, kelvin: Math.round((c + 273.15) * 100) / 100 });

const CONSERVATION_JSON: Record<string, string> = {
  room: ',"conservation":"room"',
  ...Object.fromEntries(
    Object.keys(TEMPERATURES).map((key) => {
      const [min, max] = TEMPERATURES[key] as [number, number];
      const members = phpJson({ conservationLabel: LABEL[key], conservationMin: temperature(min), conservationMax: temperature(max), conservation: key });
      return [key, "," + members.slice(1, -1)];
    }),
  ),
};

/** The conservation members (label, min, max, conservation) of a conservation type. */
export function conservationJson(type: string): string {
  return CONSERVATION_JSON[type] ?? CONSERVATION_JSON.room!;
}
