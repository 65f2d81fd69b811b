/**
 * Which of our offers fields a file's column (CSV header) or key (JSON) holds.
 * Pharmacy software writes its own headers (`EAN;Prix TTC;Stock`): the main
 * config's `offers.columns` maps them to ours, `offers.ignoreColumns` skips the
 * extra ones a POS export carries. A header matches as written first, then
 * trimmed and in any case (exports vary in both); a configured header wins over
 * our own name at each step. A header of no one's is refused with the closest
 * field and the line of config that would read it.
 */
import { closest, distance } from "fastest-levenshtein";
import { jsonPath } from "../core/issues.js";
import { OFFER_FIELDS, type OfferField } from "./offers.js";

export interface OfferColumns {
  /** A header as the file writes it -> the field its cells hold. */
  readonly columns: Readonly<Record<string, OfferField>>;
  /** Headers whose cells are never read. */
  readonly ignoreColumns: readonly string[];
}

export const NO_OFFER_COLUMNS: OfferColumns = { columns: {}, ignoreColumns: [] };

/** A header listed in offers.ignoreColumns. */
export const IGNORED = "(ignored)" as const;
/** A field, IGNORED, or undefined for a header nobody knows. */
export type HeaderRole = OfferField | typeof IGNORED | undefined;

const loose = (header: string) => header.trim().toLowerCase();

/** Lower case, no accents, no spaces or punctuation: `Prix TTC` and `prix_ttc` are one word. */
const squash = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");

/**
 * Headers of French, Dutch, German and English pharmacy POS exports that no edit
 * distance finds (squashed). Only sure ones: `Prix HT` (VAT excluded), `PVC` (a
 * recommended price) are left out on purpose; national codes map to their own columns, never gtin.
 */
const SYNONYMS: Readonly<Record<string, OfferField>> = {
  ...of("gtin", ["ean", "ean13", "ean8", "eancode", "codeean", "codeean13", "eannummer", "gtin8", "gtin12", "gtin13", "gtin14", "upc", "barcode", "codebarre", "codebarres", "streepjescode", "strichcode"]),
  ...of("cip13", ["cip", "codecip", "codecip13", "cipcode"]),
  ...of("price", ["prix", "prixttc", "prixvente", "prixventettc", "prixdevente", "prixdeventettc", "prixpublic", "prixpublicttc", "priceinclvat", "priceincvat", "pricevatincl", "pricevatincluded", "prijs", "prijsinclbtw", "verkoopprijs", "preis", "bruttopreis", "verkaufspreis"]),
  ...of("sale_price", ["prixpromo", "prixpromottc", "prixpromotion", "prixsolde", "promoprice", "promotionprice", "specialprice", "actieprijs", "promoprijs", "aanbiedingsprijs", "aktionspreis", "angebotspreis", "sonderpreis"]),
  ...of("quantity", ["stock", "stocks", "stockdisponible", "quantite", "qte", "qty", "stockquantity", "stockqty", "inventory", "voorraad", "aantal", "bestand", "lagerbestand", "menge"]),
  ...of("availability", ["disponibilite", "dispo", "beschikbaarheid", "verfugbarkeit"]),
  ...of("cnk", ["codecnk", "cnkcode", "cnknummer"]),
  ...of("pzn", ["pharmazentralnummer", "pznnummer", "pznnr"]),
  ...of("zi", ["zinummer", "zinr", "zindex", "zindexnummer"]),
  ...of("aic", ["codiceaic", "minsan", "codiceminsan"]),
  ...of("cn", ["codigonacional", "cnacional"]),
  ...of("cip7", ["codecip7", "cip7code", "acl7"]),
  ...of("link", ["url", "lien", "producturl", "productlink", "lienproduit", "urlproduit"]),
};

function of(field: OfferField, names: readonly string[]): Record<string, OfferField> {
  return Object.fromEntries(names.map((name) => [name, field]));
}

const SQUASHED = new Map<string, OfferField>(OFFER_FIELDS.map((f) => [squash(f), f]));
const SQUASHED_NAMES = [...SQUASHED.keys()];

/** The field a header nobody knows most likely holds: a synonym, else the closest name within one edit in three characters. */
export function suggestOfferField(header: string): OfferField | undefined {
  const word = squash(header);
  if (word === "") return undefined;
  const known = SQUASHED.get(word) ?? (Object.hasOwn(SYNONYMS, word) ? SYNONYMS[word] : undefined);
  if (known !== undefined) return known;
  const near = closest(word, SQUASHED_NAMES);
  return distance(word, near) <= Math.max(1, Math.floor(word.length / 3)) ? SQUASHED.get(near) : undefined;
}

/**
 * `unknown column "EAN" (did you mean "gtin"? map it with offers.columns {"EAN": "gtin"}, or list it in offers.ignoreColumns)`
 */
export function describeUnknownHeader(header: string, what: "column" | "key"): string {
  const name = header.trim();
  const near = suggestOfferField(name);
  if (near === undefined) return `unknown ${what} ${JSON.stringify(name)} (known: ${OFFER_FIELDS.join(", ")}; map it with offers.columns, or list it in offers.ignoreColumns)`;
  return `unknown ${what} ${JSON.stringify(name)} (did you mean "${near}"? map it with offers.columns {${JSON.stringify(name)}: "${near}"}, or list it in offers.ignoreColumns)`;
}

/** Headers remembered: a JSON file repeats its keys on every object, but one with random keys must not grow a map without end. */
const REMEMBERED = 1024;

/** Reads a file's headers (or keys) against our fields and the config's columns. */
export class OfferHeaders {
  private readonly exact = new Map<string, OfferField | typeof IGNORED>();
  private readonly loose = new Map<string, OfferField | typeof IGNORED>();
  private readonly seen = new Map<string, HeaderRole>();

  constructor(settings: OfferColumns = NO_OFFER_COLUMNS) {
    const configured: [string, OfferField | typeof IGNORED][] = [...Object.entries(settings.columns), ...settings.ignoreColumns.map((h): [string, typeof IGNORED] => [h, IGNORED])];
    for (const [header, role] of configured) if (!this.exact.has(header)) this.exact.set(header, role);
    for (const field of OFFER_FIELDS) if (!this.exact.has(field)) this.exact.set(field, field);
    for (const [header, role] of configured) if (!this.loose.has(loose(header))) this.loose.set(loose(header), role);
    for (const field of OFFER_FIELDS) if (!this.loose.has(field)) this.loose.set(field, field);
  }

  role(header: string): HeaderRole {
    if (this.seen.has(header)) return this.seen.get(header);
    const role = this.exact.get(header) ?? this.loose.get(loose(header));
    if (this.seen.size < REMEMBERED) this.seen.set(header, role);
    return role;
  }
}

/**
 * What the config schema cannot see: two entries that are one header once trimmed and
 * lower-cased but read differently (the file's `prix` would match both). Paths as in the file.
 */
export function offerColumnsProblems(settings: OfferColumns): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const first = new Map<string, { header: string; role: OfferField | typeof IGNORED }>();
  const entries: { header: string; role: OfferField | typeof IGNORED; path: string }[] = [
    ...Object.entries(settings.columns).map(([header, role]) => ({ header, role, path: jsonPath(["offers", "columns", header]) })),
    ...settings.ignoreColumns.map((header, i) => ({ header, role: IGNORED, path: `offers.ignoreColumns[${i}]` })),
  ];
  for (const { header, role, path } of entries) {
    const other = first.get(loose(header));
    if (other === undefined) first.set(loose(header), { header, role });
    else if (other.role !== role) {
      const says = (r: string) => (r === IGNORED ? "ignored" : `read as ${r}`);
      problems.push({ path, message: `${JSON.stringify(header)} is ${says(role)} but ${JSON.stringify(other.header)} is ${says(other.role)}: headers match trimmed and in any case, so a file's ${JSON.stringify(loose(header))} would be both` });
    }
  }
  return problems;
}
