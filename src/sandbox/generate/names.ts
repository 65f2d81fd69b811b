/**
 * Product names per locale, with the oddities a feed meets in real data, each a
 * few percent: `& < > " '`, commas, emoji, very long names, a missing locale or
 * an empty string.
 */
import type { Rng } from "./prng.js";
import { CARE_PRODUCTS, EMOJI, MEDICINE_FORMS, QUALIFIERS, SPECIAL_FRAGMENTS, VET_PRODUCTS, type Tri } from "./text.js";
import type { LocalizedText } from "./types.js";

export type Kind = "medicine" | "veterinary_medicine" | "non_medical";

/** Shares of each name oddity (per product). */
export const NAME_ODDITY = { special: 0.03, comma: 0.05, emoji: 0.02, long: 0.02, missing: 0.03, empty: 0.03 } as const;

/**
 * The package content a name ends with, as the catalogue's packageContent says
 * it: names and contents agree (a unit price needs both to). Care products are
 * volumes, one in ten a multi-pack ("3 x 25 ml", 75 ml as sold); medicines and
 * veterinary products are counted in pieces, the number their name ends with.
 */
function content(kind: Kind, pickA: number, pickB: number, n: number): { inName: string; packageContent: string } {
  if (kind === "medicine") return { inName: `${pickB * 10 + 10}`, packageContent: `${pickB * 10 + 10} pc` };
  if (kind === "veterinary_medicine") return { inName: `${pickB + 2}`, packageContent: `${pickB + 2} pc` };
  const size = `${n * 25} ml`;
  const text = pickA % 10 === 0 ? `${2 + (Math.floor(pickA / 10) % 3)} x ${size}` : size;
  return { inName: text, packageContent: text };
}

function base(kind: Kind, brand: string, locale: keyof Tri, pickA: number, pickB: number, n: number, quantity: string): string {
  if (kind === "medicine") {
    const form = MEDICINE_FORMS[pickA % MEDICINE_FORMS.length] as Tri;
    return `${brand} ${n * 50} mg ${form[locale]} ${quantity}`;
  }
  if (kind === "veterinary_medicine") {
    const what = VET_PRODUCTS[pickA % VET_PRODUCTS.length] as Tri;
    return `${brand} ${what[locale]} ${quantity}`;
  }
  const what = CARE_PRODUCTS[pickA % CARE_PRODUCTS.length] as Tri;
  const qualifier = pickB % 3 === 0 ? ` ${(QUALIFIERS[pickB % QUALIFIERS.length] as Tri)[locale]}` : "";
  return `${brand} ${what[locale]}${qualifier} ${quantity}`;
}

export interface ProductNaming {
  name: LocalizedText;
  /** The catalogue's packageContent, in agreement with the quantity the names state. */
  packageContent: string;
}

/** The name in each locale of `locales` and the package content it states; `rng` decides the oddities. */
export function productName(rng: Rng, kind: Kind, brand: string, locales: readonly string[]): ProductNaming {
  const pickA = rng.int(0, 1000);
  const pickB = rng.int(0, 9);
  const n = rng.int(1, 20);
  const u = rng.next();
  const name: LocalizedText = {};
  const quantity = content(kind, pickA, pickB, n);
  for (const locale of locales) {
    const l = (locale === "de" ? "en" : locale) as keyof Tri;
    name[locale] = base(kind, brand, l, pickA, pickB, n, quantity.inName);
  }
  // One oddity at most per product keeps the shares readable in tests.
  const o = NAME_ODDITY;
  let edge = o.special;
  if (u < edge) {
    const fragment = rng.pick(SPECIAL_FRAGMENTS);
    for (const k of Object.keys(name)) name[k] += fragment;
  } else if (u < (edge += o.comma)) {
    for (const k of Object.keys(name)) name[k] = (name[k] as string).replace(" ", ", ") + ", 1 pc";
  } else if (u < (edge += o.emoji)) {
    const emoji = rng.pick(EMOJI);
    for (const k of Object.keys(name)) name[k] = `${emoji} ${name[k]}`;
  } else if (u < (edge += o.long)) {
    for (const k of Object.keys(name)) {
      let long = name[k] as string;
      while (long.length < 220) long += ` ${(QUALIFIERS[long.length % QUALIFIERS.length] as Tri).fr} ${long.length}`;
      name[k] = long;
    }
  } else if (u < (edge += o.missing)) {
    if (locales.length > 1) delete name[locales[locales.length - 1] as string];
  } else if (u < edge + o.empty) {
    if (locales.length > 1) name[locales[locales.length - 1] as string] = "";
  }
  return { name, packageContent: quantity.packageContent };
}

const FOLD: Record<string, string> = { à: "a", â: "a", ä: "a", á: "a", ç: "c", é: "e", è: "e", ê: "e", ë: "e", î: "i", ï: "i", í: "i", ô: "o", ö: "o", ó: "o", ù: "u", û: "u", ü: "u", ú: "u", ÿ: "y", ñ: "n", œ: "oe", ß: "ss" };

/** A URL slug (the service's seoName): lowercase ASCII words joined by "-". */
export function slug(text: string): string {
  let out = "";
  let dash = false;
  for (const ch of text.toLowerCase()) {
    const c = ch.charCodeAt(0);
    const mapped = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) ? ch : FOLD[ch];
    if (mapped === undefined) {
      dash = out !== "";
      continue;
    }
    out += (dash ? "-" : "") + mapped;
    dash = false;
  }
  return out;
}
