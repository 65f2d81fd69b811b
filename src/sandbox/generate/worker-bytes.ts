/**
 * What the byte writers of records share (worker-product.ts, worker-media.ts):
 * a catalogue's product context with its reference records encoded once, the
 * locale lists, the meta object, the media digests, and templates: constant
 * text with `@` holes, encoded once and written in order (t[0], value, t[1], ...).
 */
import { idBase } from "./codes.js";
import { qInner } from "./json.js";
import { hash3 } from "./prng.js";
import { formatParts } from "./product-media.js";
import type { ProductContext } from "./product.js";
import type { Reference } from "./reference.js";
import { encode, encodeAll, type ByteWriter } from "./worker-writer.js";

/** A template's constant parts around its `@` holes, encoded. */
export const holes = (template: string): Uint8Array[] => template.split("@").map(encode);

export const COMMON = encodeAll({ comma: ",", close: "}", end: "]", none: "" });

/** The locale lists a product can have (product.ts), each with its JSON. */
export const LOCALES = { fr2: ["fr", "en"], be3: ["fr", "nl", "en"], be4: ["fr", "nl", "en", "de"] };
export const LOCALES_JSON = new Map(Object.values(LOCALES).map((l) => [l, encode(`["${l.join('","')}"]`)]));

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

const HEX_DIGITS = Array.from("0123456789abcdef", (c) => c.charCodeAt(0));

/** mediaHex(seedHash, mediaId) as bytes, into `out` (40 bytes). */
export function hexInto(out: Uint8Array, seedHash: number, mediaId: number): Uint8Array {
  for (let k = 0; k < 5; k++) {
    const h = hash3(seedHash, mediaId, k + 11);
    for (let n = 0; n < 8; n++) out[k * 8 + n] = HEX_DIGITS[(h >>> (28 - 4 * n)) & 15] as number;
  }
  return out;
}

/** Lowercase hex of a uint32 without leading zeros, as Number#toString(16). */
export function hex32(w: ByteWriter, value: number): void {
  let shift = 28;
  while (shift > 0 && value >>> shift === 0) shift -= 4;
  for (; shift >= 0; shift -= 4) w.c(HEX_DIGITS[(value >>> shift) & 15] as number);
}

const META = holes('{"createdAt":@,"updatedAt":@}') as [Uint8Array, Uint8Array, Uint8Array];

export function meta(w: ByteWriter, createdAt: number, updatedAt: number): void {
  w.b(META[0]);
  w.n(createdAt);
  w.b(META[1]);
  w.n(updatedAt);
  w.b(META[2]);
}

/** The product's own meta, written in full once, then copied from there. */
export class ProductMeta {
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

// Templates with one or two holes, by the holes' type (fixed arity and types keep them inlined).
export function s1(w: ByteWriter, t: Uint8Array[], a: string): void {
  w.b(t[0] as Uint8Array);
  w.s(a);
  w.b(t[1] as Uint8Array);
}
export function s2(w: ByteWriter, t: Uint8Array[], a: string, b: string): void {
  w.b(t[0] as Uint8Array);
  w.s(a);
  w.b(t[1] as Uint8Array);
  w.s(b);
  w.b(t[2] as Uint8Array);
}
export function n1(w: ByteWriter, t: Uint8Array[], a: number): void {
  w.b(t[0] as Uint8Array);
  w.n(a);
  w.b(t[1] as Uint8Array);
}
export function b1(w: ByteWriter, t: Uint8Array[], a: Uint8Array): void {
  w.b(t[0] as Uint8Array);
  w.b(a);
  w.b(t[1] as Uint8Array);
}
export function b2(w: ByteWriter, t: Uint8Array[], a: Uint8Array, b: Uint8Array): void {
  w.b(t[0] as Uint8Array);
  w.b(a);
  w.b(t[1] as Uint8Array);
  w.b(b);
  w.b(t[2] as Uint8Array);
}
