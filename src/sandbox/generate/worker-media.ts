/**
 * The media members of a product as bytes: mediaJson, descriptionsJson and
 * leafletsJson of product-media.ts, MIRRORED draw for draw (see
 * worker-product.ts; test/sandbox/worker-product.test.ts compares them).
 */
import { MEDIA_ID_BASE, MEDIA_ODDITY, MEDIA_SLOTS, FRONTAL_SLOT, LINK_SLOT } from "./product-media.js";
import { localizedJson } from "./json.js";
import type { Rng } from "./prng.js";
import { descriptionHtmlJson, type Locale } from "./text.js";
import { COMMON as C0, holes, hexInto, meta, type FormatsTemplate, type ProductBytes, type ProductMeta } from "./worker-bytes.js";
import { encode, encodeAll, type ByteWriter } from "./worker-writer.js";

// Copies of product-media.ts constants (not exported there).
const PHOTO_TYPES = ["productshot", "lifestyle_image", "pillshot", "packshot"];
const SIDES = ["front", "left", "right", "back", "top", "bottom"];
const LINK_TYPES = ["video", "website", "brochure", "app"];
const DESCRIPTION_TYPES_MEDICINE = ["indication", "usage", "composition", "side_effects", "contra_indication", "warnings"];
const DESCRIPTION_TYPES_OTHER = ["full_description", "usage", "composition", "properties"];

const T = {
  photo: holes('{"id":@,"type":"photo","photoType":"@","locales":@,"targetGroups":["public","pharmacist"],"formats":@,"visibleSides":["@"],"displayOrder":@,"organizations":@,"meta":@}'),
  frontal: holes('{"id":@,"type":"photo","photoType":"packshot","locales":@,"targetGroups":["public"],"formats":@,"visibleSides":["front"],"displayOrder":1,"meta":@}'),
  link: holes('{"id":@,"type":"link","linkType":"@","url":"@","name":@,"description":@,"available":{"from":@,"until":@},"locales":@,"targetGroups":["public"],"meta":@}'),
  description: holes('{"id":@,"locales":@,"targetGroups":@,"type":"@","content":{@},"meta":@}'),
  content: holes('"@":"@"'),
  leaflet: holes('{"id":@,"locales":@,"type":"@","url":{@},"meta":@}'),
  leafletUrl: holes('"@":"@\\/leaflets\\/@-@-@.pdf"'),
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
    groupsFirst: '["public","pharmacist"]',
    groupsOther: '["public"]',
    video: "https:\\/\\/video.sandbox.invalid\\/watch?v=",
    website: "https:\\/\\/www.sandbox.invalid\\/",
    linkName: localizedJson({ fr: "Vidéo de présentation", en: "Presentation video" }),
    linkDescription: localizedJson({ fr: "Découvrez le produit & ses bienfaits.", en: "Discover the product & its benefits." }),
  }),
};
const hex = new Uint8Array(40);

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
export function descriptions(w: ByteWriter, rng: Rng, m: Media, medicine: boolean, legal: boolean): void {
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
      const texts = CONTENTS.get(locale) as Uint8Array[];
      if (l > 0) w.b(C.comma);
      w.b(c[0] as Uint8Array);
      w.s(locale);
      w.b(c[1] as Uint8Array);
      w.b(texts[rng.int(0, texts.length - 1)] as Uint8Array);
      w.b(c[2] as Uint8Array);
    }
    w.b(t[5] as Uint8Array);
    m.meta.write(w);
    w.b(t[6] as Uint8Array);
  }
  w.b(C.end);
}

/** leafletsJson, draw for draw. */
export function leaflets(w: ByteWriter, rng: Rng, m: Media): void {
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

