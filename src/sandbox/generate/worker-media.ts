/**
 * The media members of a product as bytes: mediaJson, descriptionsJson and
 * leafletsJson of product-media.ts, MIRRORED draw for draw (see
 * worker-product.ts; test/sandbox/worker-product.test.ts compares them).
 */
import { MEDIA_ID_BASE, MEDIA_ODDITY, MEDIA_SLOTS, FRONTAL_SLOT, LINK_SLOT } from "./product-media.js";
import { localizedJson } from "./json.js";
import type { Rng } from "./prng.js";
import { descriptionHtmlJson, type Locale } from "./text.js";
import { COMMON as C0, holes, hexInto, LOCALES, meta, type FormatsTemplate, type ProductBytes, type ProductMeta } from "./worker-bytes.js";
import { encode, encodeAll, type ByteWriter } from "./worker-writer.js";

// Copies of product-media.ts constants (not exported there).
const PHOTO_TYPES = ["productshot", "lifestyle_image", "pillshot", "packshot"];
const SIDES = ["front", "left", "right", "back", "top", "bottom"];
const LINK_TYPES = ["video", "website", "brochure", "app"];
const DESCRIPTION_TYPES_MEDICINE = ["indication", "usage", "composition", "side_effects", "contra_indication", "warnings"];
const DESCRIPTION_TYPES_OTHER = ["full_description", "usage", "composition", "properties"];

const T = {
  frontal: holes('{"id":@,"type":"photo","photoType":"packshot","locales":@,"targetGroups":["public"],"formats":@,"visibleSides":["front"],"displayOrder":1,"meta":@}'),
  link: holes('{"id":@,"type":"link","linkType":"@","url":"@","name":@,"description":@,"available":{"from":@,"until":@},"locales":@,"targetGroups":["public"],"meta":@}'),
};
const C = {
  ...C0,
  ...encodeAll({
    empty: "[]",
    fr: '["fr"]',
    photos: ',"photos":[',
    frontals: '],"frontals":[',
    links: '],"links":[',
    descriptionsNone: ',"descriptions":[]',
    descriptions: ',"descriptions":[',
    leaflets: ',"leaflets":[',
    video: "https:\\/\\/video.sandbox.invalid\\/watch?v=",
    website: "https:\\/\\/www.sandbox.invalid\\/",
    linkName: localizedJson({ fr: "Vidéo de présentation", en: "Presentation video" }),
    linkDescription: localizedJson({ fr: "Découvrez le produit & ses bienfaits.", en: "Discover the product & its benefits." }),
  }),
};
const hex = new Uint8Array(40);

// Constant text around small enumerations, encoded once per value: one copy instead of three.
const PHOTO = encodeAll({ open: '{"id":', next: ',{"id":', formats: ',"targetGroups":["public","pharmacist"],"formats":', organizations: ',"organizations":', meta: ',"meta":' });
/** `,"type":"photo","photoType":"X","locales":` by PHOTO_TYPES index, and for the first photo (a packshot). */
const PHOTO_TYPE = PHOTO_TYPES.map((type) => encode(`,"type":"photo","photoType":"${type}","locales":`));
const PACKSHOT = encode(',"type":"photo","photoType":"packshot","locales":');
/** `,"visibleSides":["X"],"displayOrder":` by SIDES index. */
const SIDE = SIDES.map((side) => encode(`,"visibleSides":["${side}"],"displayOrder":`));
const INDEXES = (n: number) => Array.from({ length: n }, (_, k) => k);
const PHOTO_TYPE_INDEX = INDEXES(PHOTO_TYPES.length);
const SIDE_INDEX = INDEXES(SIDES.length);
/** `,"targetGroups":[...],"type":"X","content":{` by groups (first description or not) and type. */
const DESCRIPTION_TYPE = new Map(
  [...new Set([...DESCRIPTION_TYPES_MEDICINE, ...DESCRIPTION_TYPES_OTHER, "legal_text"])].map((type) => [
    type,
    [true, false].map((first) => encode(`,"targetGroups":${first ? '["public","pharmacist"]' : '["public"]'},"type":"${type}","content":{`)),
  ]),
);
const DESCRIPTION = encodeAll({ open: '{"id":', next: ',{"id":', locales: ',"locales":', textEnd: '"', meta: '},"meta":' });
/** The `"fr":"` / `,"nl":"` keys of a locale list, in order. */
const LOCALE_KEYS = new Map<readonly string[], Uint8Array[]>(Object.values(LOCALES).map((list) => [list, list.map((locale, l) => encode(`${l === 0 ? "" : ","}"${locale}":"`))]));
const LEAFLET = encodeAll({ open: '{"id":', next: ',{"id":', locales: ',"locales":', path: "\\/leaflets\\/", meta: '},"meta":' });
const LEAFLET_TYPE = new Map(["pil", "spc"].map((type) => [type, encode(`,"type":"${type}","url":{`)]));
/** `-pil-fr.pdf"` by type and locale. */
const LEAFLET_FILE = new Map(["pil", "spc"].map((type) => [type, new Map(["fr", "nl", "en", "de"].map((locale) => [locale, encode(`-${type}-${locale}.pdf"`)]))]));

/**
 * Every description text per locale, encoded once, in descriptionHtmlJson's
 * order: it is read with a stand-in Rng that reports the pool size and picks
 * each index in turn, so a product draws rng.int(0, size - 1) exactly as there.
 */
const CONTENTS = new Map<string, Uint8Array[]>(
  (["fr", "nl", "en", "de"] as const).map((locale) => {
    let size = 0;
    descriptionHtmlJson({ int: (_min: number, max: number) => ((size = max + 1), 0) } as unknown as Rng, locale);
    const texts = Array.from({ length: size }, (_, k) => encode(descriptionHtmlJson({ int: () => k } as unknown as Rng, locale)));
    return [locale, texts];
  }),
);

/** formatsJson: the whole object copied at once, then the digest written into its holes. */
function formats(w: ByteWriter, template: FormatsTemplate, seedHash: number, mediaId: number): void {
  const start = w.pos;
  w.b(template.text);
  const digest = hexInto(hex, seedHash, mediaId);
  for (const at of template.holes) w.buf.set(digest, start + at);
}

/** What the media of a product depend on. */
export interface Media {
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
export function media(w: ByteWriter, rng: Rng, m: Media): void {
  const seedHash = m.pb.ctx.seedHash;
  const base = MEDIA_ID_BASE + m.index * MEDIA_SLOTS;
  w.b(C.photos);
  let frontal = false;
  if (!rng.chance(MEDIA_ODDITY.noPhoto)) {
    const photoCount = rng.chance(MEDIA_ODDITY.severalPhotos) ? rng.int(2, 6) : 1;
    // Every locale list starts with "fr".
    const locales = rng.chance(MEDIA_ODDITY.oneLocalePhoto) ? C.fr : rng.chance(MEDIA_ODDITY.untaggedPhoto) ? C.empty : m.localesJson;
    for (let k = 0; k < photoCount; k++) {
      const id = base + k;
      const type = k === 0 ? PACKSHOT : (PHOTO_TYPE[rng.pick(PHOTO_TYPE_INDEX) as number] as Uint8Array);
      const side = SIDE[k === 0 ? 0 : (rng.pick(SIDE_INDEX) as number)] as Uint8Array;
      w.b(k === 0 ? PHOTO.open : PHOTO.next);
      w.n(id);
      w.b(type);
      w.b(locales);
      w.b(PHOTO.formats);
      formats(w, m.pb.photoFormats, seedHash, id);
      w.b(side);
      w.n(k + 1);
      w.b(PHOTO.organizations);
      w.b(m.pb.organizationNames[m.owner] as Uint8Array);
      w.b(PHOTO.meta);
      meta(w, m.createdAt + rng.int(0, 86400 * 30), m.updatedAt);
      w.b(C.close);
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
export function descriptions(w: ByteWriter, rng: Rng, m: Media, medicine: boolean, legal: boolean): void {
  if (rng.chance(0.05)) {
    w.b(C.descriptionsNone);
    return;
  }
  const types = medicine ? DESCRIPTION_TYPES_MEDICINE : DESCRIPTION_TYPES_OTHER;
  const count = rng.int(1, 3) + (legal ? 1 : 0);
  const first = rng.chance(0.9) ? 0 : rng.int(0, types.length - 1);
  const keys = LOCALE_KEYS.get(m.locales) as Uint8Array[];
  w.b(C.descriptions);
  for (let k = 0; k < count; k++) {
    w.b(k === 0 ? DESCRIPTION.open : DESCRIPTION.next);
    w.n(500000 + m.index * 8 + k);
    w.b(DESCRIPTION.locales);
    w.b(m.localesJson);
    const type = legal && k === count - 1 ? "legal_text" : (types[(first + k) % types.length] as string);
    w.b((DESCRIPTION_TYPE.get(type) as Uint8Array[])[k === 0 ? 0 : 1] as Uint8Array);
    for (let l = 0; l < m.locales.length; l++) {
      const texts = CONTENTS.get(m.locales[l] as Locale) as Uint8Array[];
      w.b(keys[l] as Uint8Array);
      w.b(texts[rng.int(0, texts.length - 1)] as Uint8Array);
      w.b(DESCRIPTION.textEnd);
    }
    w.b(DESCRIPTION.meta);
    m.meta.write(w);
    w.b(C.close);
  }
  w.b(C.end);
}

/** leafletsJson, draw for draw. */
export function leaflets(w: ByteWriter, rng: Rng, m: Media): void {
  const kinds = rng.chance(0.4) ? ["pil", "spc"] : ["pil"];
  const keys = LOCALE_KEYS.get(m.locales) as Uint8Array[];
  w.b(C.leaflets);
  kinds.forEach((type, k) => {
    const id = 900000 + m.index * 2 + k;
    const digest = hexInto(hex, m.pb.ctx.seedHash, id).subarray(0, 16);
    const files = LEAFLET_FILE.get(type) as Map<string, Uint8Array>;
    w.b(k === 0 ? LEAFLET.open : LEAFLET.next);
    w.n(id);
    w.b(LEAFLET.locales);
    w.b(m.localesJson);
    w.b(LEAFLET_TYPE.get(type) as Uint8Array);
    m.locales.forEach((locale, l) => {
      w.b(keys[l] as Uint8Array);
      w.b(m.pb.base);
      w.b(LEAFLET.path);
      w.b(digest);
      w.b(files.get(locale) as Uint8Array);
    });
    w.b(LEAFLET.meta);
    m.meta.write(w);
    w.b(C.close);
  });
  w.b(C.end);
}
