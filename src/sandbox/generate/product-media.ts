/**
 * Photos, frontals, links, descriptions and leaflets of product i. Media ids
 * come from the product index (10 slots per product), so a media item can be
 * generated from its id alone and media/stream needs no index. Image URLs point
 * at the sandbox itself: `${assetBaseUrl}/media/<format>/<hex>.<ext>`.
 */
import { hash3, type Rng } from "./prng.js";
import { descriptionHtml, type Locale } from "./text.js";
import { HIDDEN, type MediaHidden, type Meta, type Wire, type WithHidden } from "./types.js";

export const MEDIA_ID_BASE = 100000;
export const MEDIA_SLOTS = 10;
/** Slots: 0-5 photos, 6 the frontal, 7-8 links. */
export const FRONTAL_SLOT = 6;
export const LINK_SLOT = 7;

export const MEDIA_ODDITY = { noPhoto: 0.1, oneLocalePhoto: 0.05, severalPhotos: 0.25, frontal: 0.3, link: 0.08 } as const;

const PHOTO_KEYS = ["thumbnail", "thumbnailWebp", "medium", "mediumWebp", "large", "largeWebp", "huge", "hugeWebp"] as const;
const FRONTAL_KEYS = ["thumbnail", "thumbnailWebp", "medium", "mediumJpeg", "mediumWebp", "largeJpg", "largeWebp", "huge", "hugeWebp"] as const;

function photoExt(key: string): string {
  return key.endsWith("Webp") ? "webp" : "jpeg";
}
function frontalExt(key: string): string {
  if (key.endsWith("Webp")) return "webp";
  return key === "mediumJpeg" || key === "largeJpg" ? "jpeg" : "png";
}

/** 40 hex characters, like the service's content hashes, from (seedHash, mediaId). */
export function mediaHex(seedHash: number, mediaId: number): string {
  let out = "";
  for (let k = 0; k < 5; k++) out += hash3(seedHash, mediaId, k + 11).toString(16).padStart(8, "0");
  return out;
}

function formats(assetBaseUrl: string, hex: string, frontal: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  const keys = frontal ? FRONTAL_KEYS : PHOTO_KEYS;
  for (const key of keys) out[key] = `${assetBaseUrl}/media/${key}/${hex}.${frontal ? frontalExt(key) : photoExt(key)}`;
  return out;
}

export interface MediaContext {
  seedHash: number;
  assetBaseUrl: string;
  index: number;
  productId: string;
  locales: readonly string[];
  meta: Meta;
  /** The photo's organization (the brand owner), embedded as {name}. */
  organization: number;
  organizationName: Wire | undefined;
}

function photoMeta(rng: Rng, m: Meta): Meta {
  return { createdAt: m.createdAt + rng.int(0, 86400 * 30), updatedAt: m.updatedAt };
}

function hidden(ctx: MediaContext, frontal: boolean, published: boolean): MediaHidden {
  return { productIndex: ctx.index, productId: ctx.productId, frontal, published, organization: ctx.organization };
}

/** photos[], frontals[] and links[] of a product, as embedded in it (with displayOrder). */
export function productMedia(rng: Rng, ctx: MediaContext): { photos: Wire[]; frontals: Wire[]; links: Wire[] } {
  const photos: Wire[] = [];
  const frontals: Wire[] = [];
  const links: Wire[] = [];
  const base = MEDIA_ID_BASE + ctx.index * MEDIA_SLOTS;
  if (!rng.chance(MEDIA_ODDITY.noPhoto)) {
    const count = rng.chance(MEDIA_ODDITY.severalPhotos) ? rng.int(2, 6) : 1;
    const oneLocale = rng.chance(MEDIA_ODDITY.oneLocalePhoto);
    for (let k = 0; k < count; k++) {
      const id = base + k;
      const photo: WithHidden<MediaHidden> = {
        id,
        type: "photo",
        photoType: k === 0 ? "packshot" : rng.pick(["productshot", "lifestyle_image", "pillshot", "packshot"]),
        locales: oneLocale ? [ctx.locales[0] as string] : ctx.locales,
        targetGroups: ["public", "pharmacist"],
        formats: formats(ctx.assetBaseUrl, mediaHex(ctx.seedHash, id), false),
        visibleSides: k === 0 ? ["front"] : [rng.pick(["front", "left", "right", "back", "top", "bottom"])],
        displayOrder: k + 1,
        organizations: ctx.organizationName ? [ctx.organizationName] : [],
        meta: photoMeta(rng, ctx.meta),
        [HIDDEN]: hidden(ctx, false, !rng.chance(0.03)),
      };
      photos.push(photo);
    }
    if (rng.chance(MEDIA_ODDITY.frontal)) {
      const id = base + FRONTAL_SLOT;
      const frontal: WithHidden<MediaHidden> = {
        id,
        type: "photo",
        photoType: "packshot",
        locales: ctx.locales,
        targetGroups: ["public"],
        formats: formats(ctx.assetBaseUrl, mediaHex(ctx.seedHash, id), true),
        visibleSides: ["front"],
        displayOrder: 1,
        meta: photoMeta(rng, ctx.meta),
        [HIDDEN]: hidden(ctx, true, true),
      };
      frontals.push(frontal);
    }
  }
  if (rng.chance(MEDIA_ODDITY.link)) {
    const id = base + LINK_SLOT;
    const linkType = rng.pick(["video", "website", "brochure", "app"]);
    const from = ctx.meta.createdAt;
    const link: WithHidden<MediaHidden> = {
      id,
      type: "link",
      linkType,
      url: linkType === "video" ? `https://video.sandbox.invalid/watch?v=${mediaHex(ctx.seedHash, id).slice(0, 11)}` : `https://www.sandbox.invalid/${ctx.productId}`,
      name: { fr: "Vidéo de présentation", en: "Presentation video" },
      description: { fr: "Découvrez le produit & ses bienfaits.", en: "Discover the product & its benefits." },
      available: { from, until: rng.chance(0.2) ? from + 86400 * 365 : 1893456000 },
      locales: ctx.locales,
      targetGroups: ["public"],
      meta: photoMeta(rng, ctx.meta),
      [HIDDEN]: hidden(ctx, false, true),
    };
    links.push(link);
  }
  return { photos, frontals, links };
}

const DESCRIPTION_TYPES_MEDICINE = ["indication", "usage", "composition", "side_effects", "contra_indication", "warnings"] as const;
const DESCRIPTION_TYPES_OTHER = ["full_description", "usage", "composition", "properties"] as const;

export function descriptions(rng: Rng, index: number, locales: readonly string[], medicine: boolean, legal: boolean, m: Meta): Wire[] {
  if (rng.chance(0.08)) return [];
  const types = medicine ? DESCRIPTION_TYPES_MEDICINE : DESCRIPTION_TYPES_OTHER;
  const count = rng.int(1, 3);
  const out: Wire[] = [];
  const first = rng.int(0, types.length - 1);
  for (let k = 0; k < count + (legal ? 1 : 0); k++) {
    const content: Record<string, string> = {};
    for (const locale of locales) content[locale] = descriptionHtml(rng, locale as Locale);
    out.push({
      id: 500000 + index * 8 + k,
      locales,
      targetGroups: k === 0 ? ["public", "pharmacist"] : ["public"],
      type: k === count ? "legal_text" : (types[(first + k) % types.length] as string),
      content,
      meta: m,
    });
  }
  return out;
}

export function leaflets(rng: Rng, ctx: MediaContext): Wire[] {
  const out: Wire[] = [];
  const kinds = rng.chance(0.4) ? ["pil", "spc"] : ["pil"];
  kinds.forEach((type, k) => {
    const id = 900000 + ctx.index * 2 + k;
    const hex = mediaHex(ctx.seedHash, id).slice(0, 16);
    const url: Record<string, string> = {};
    for (const locale of ctx.locales) url[locale] = `${ctx.assetBaseUrl}/leaflets/${hex}-${type}-${locale}.pdf`;
    out.push({ id, locales: ctx.locales, type, url, meta: ctx.meta });
  });
  return out;
}
