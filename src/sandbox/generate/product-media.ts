/**
 * Photos, frontals, links, descriptions and leaflets of product i, as JSON
 * text. Media ids come from the product index (10 slots per product), so a
 * media item is found from its id alone. Image URLs point at the sandbox
 * itself: `${assetBaseUrl}/media/<format>/<hex>.<ext>`.
 */
import { localizedJson } from "./json.js";
import { hash3, type Rng } from "./prng.js";
import { descriptionHtmlJson, type Locale } from "./text.js";
import type { MediaHidden } from "./types.js";

export const MEDIA_ID_BASE = 100000;
export const MEDIA_SLOTS = 10;
/** Slots: 0-5 photos, 6 the frontal, 7-8 links. */
export const FRONTAL_SLOT = 6;
export const LINK_SLOT = 7;

export const MEDIA_ODDITY = { noPhoto: 0.06, oneLocalePhoto: 0.05, untaggedPhoto: 0.7, severalPhotos: 0.25, frontal: 0.3, link: 0.08 } as const;

const PHOTO_FORMATS = ["thumbnail", "thumbnailWebp", "medium", "mediumWebp", "large", "largeWebp", "huge", "hugeWebp"].map((key) => [key, key.endsWith("Webp") ? "webp" : "jpeg"]);
const FRONTAL_FORMATS = ["thumbnail", "thumbnailWebp", "medium", "mediumJpeg", "mediumWebp", "largeJpg", "largeWebp", "huge", "hugeWebp"].map((key) => [
  key,
  key.endsWith("Webp") ? "webp" : key === "mediumJpeg" || key === "largeJpg" ? "jpeg" : "png",
]);
const PHOTO_TYPES = ["productshot", "lifestyle_image", "pillshot", "packshot"];
const SIDES = ["front", "left", "right", "back", "top", "bottom"];
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** 40 hex characters, like the service's content hashes, from (seedHash, mediaId). */
export function mediaHex(seedHash: number, mediaId: number): string {
  let out = "";
  for (let k = 0; k < 5; k++) {
    const h = hash3(seedHash, mediaId, k + 11);
    out += HEX[h >>> 24]! + HEX[(h >>> 16) & 255]! + HEX[(h >>> 8) & 255]! + HEX[h & 255]!;
  }
  return out;
}

/**
 * The constant text around the hex of each format URL, for one asset base:
 * parts[0] hex parts[1] hex ... parts[n]. Built once per catalogue so a
 * formats object costs n+1 concatenations, not 8 URL builds.
 */
export function formatParts(baseEsc: string, frontal: boolean): string[] {
  const formats = frontal ? FRONTAL_FORMATS : PHOTO_FORMATS;
  const parts: string[] = [];
  let pending = "{";
  formats.forEach(([key, ext], k) => {
    parts.push(`${pending}${k === 0 ? "" : ","}"${key}":"${baseEsc}\\/media\\/${key}\\/`);
    pending = `.${ext}"`;
  });
  parts.push(pending + "}");
  return parts;
}

function formatsJson(parts: string[], hex: string): string {
  let out = parts[0] as string;
  for (let k = 1; k < parts.length; k++) out += hex + (parts[k] as string);
  return out;
}

export interface MediaContext {
  seedHash: number;
  /** The asset base URL, escaped as JSON string contents. */
  baseEsc: string;
  photoFormats: string[];
  frontalFormats: string[];
  index: number;
  productId: string;
  locales: readonly string[];
  localesJson: string;
  createdAt: number;
  updatedAt: number;
  organization: number;
  /** `{"name":{...}}` of that organization, or "" when the product has none. */
  organizationNameJson: string;
  /** Hidden facts of every media item written, in order. */
  hidden: MediaHidden[];
}

function metaJson(rng: Rng, ctx: MediaContext): string {
  return `{"createdAt":${ctx.createdAt + rng.int(0, 86400 * 30)},"updatedAt":${ctx.updatedAt}}`;
}

function note(ctx: MediaContext, id: number, frontal: boolean, published: boolean): void {
  ctx.hidden.push({ id, productIndex: ctx.index, productId: ctx.productId, frontal, published, organization: ctx.organization });
}

/** `,"photos":[...],"frontals":[...],"links":[...]` of a product (embedded form, with displayOrder). */
export function mediaJson(rng: Rng, ctx: MediaContext): { json: string; photoCount: number } {
  const base = MEDIA_ID_BASE + ctx.index * MEDIA_SLOTS;
  let photos = "";
  let frontals = "";
  let links = "";
  let photoCount = 0;
  if (!rng.chance(MEDIA_ODDITY.noPhoto)) {
    photoCount = rng.chance(MEDIA_ODDITY.severalPhotos) ? rng.int(2, 6) : 1;
    // Packshots are mostly language-neutral (no locale tag = any locale); some are tagged with
    // the product's locales, a few with one locale only (a language edition of the pack).
    const locales = rng.chance(MEDIA_ODDITY.oneLocalePhoto) ? `["${ctx.locales[0]}"]` : rng.chance(MEDIA_ODDITY.untaggedPhoto) ? "[]" : ctx.localesJson;
    const orgs = ctx.organizationNameJson === "" ? "[]" : `[${ctx.organizationNameJson}]`;
    for (let k = 0; k < photoCount; k++) {
      const id = base + k;
      const photoType = k === 0 ? "packshot" : rng.pick(PHOTO_TYPES);
      const side = k === 0 ? "front" : rng.pick(SIDES);
      photos += `${k === 0 ? "" : ","}{"id":${id},"type":"photo","photoType":"${photoType}","locales":${locales},"targetGroups":["public","pharmacist"],"formats":${formatsJson(ctx.photoFormats, mediaHex(ctx.seedHash, id))},"visibleSides":["${side}"],"displayOrder":${k + 1},"organizations":${orgs},"meta":${metaJson(rng, ctx)}}`;
      note(ctx, id, false, !rng.chance(0.03));
    }
    if (rng.chance(MEDIA_ODDITY.frontal)) {
      const id = base + FRONTAL_SLOT;
      frontals = `{"id":${id},"type":"photo","photoType":"packshot","locales":${ctx.localesJson},"targetGroups":["public"],"formats":${formatsJson(ctx.frontalFormats, mediaHex(ctx.seedHash, id))},"visibleSides":["front"],"displayOrder":1,"meta":${metaJson(rng, ctx)}}`;
      note(ctx, id, true, true);
    }
  }
  if (rng.chance(MEDIA_ODDITY.link)) {
    const id = base + LINK_SLOT;
    const linkType = rng.pick(["video", "website", "brochure", "app"]);
    const url = linkType === "video" ? `https:\\/\\/video.sandbox.invalid\\/watch?v=${mediaHex(ctx.seedHash, id).slice(0, 11)}` : `https:\\/\\/www.sandbox.invalid\\/${ctx.productId}`;
    const until = rng.chance(0.2) ? ctx.createdAt + 86400 * 365 : 1893456000;
    links = `{"id":${id},"type":"link","linkType":"${linkType}","url":"${url}","name":${LINK_NAME},"description":${LINK_DESCRIPTION},"available":{"from":${ctx.createdAt},"until":${until}},"locales":${ctx.localesJson},"targetGroups":["public"],"meta":${metaJson(rng, ctx)}}`;
    note(ctx, id, false, true);
  }
  return { json: `,"photos":[${photos}],"frontals":[${frontals}],"links":[${links}]`, photoCount };
}

const LINK_NAME = localizedJson({ fr: "Vidéo de présentation", en: "Presentation video" });
const LINK_DESCRIPTION = localizedJson({ fr: "Découvrez le produit & ses bienfaits.", en: "Discover the product & its benefits." });
const DESCRIPTION_TYPES_MEDICINE = ["indication", "usage", "composition", "side_effects", "contra_indication", "warnings"];
const DESCRIPTION_TYPES_OTHER = ["full_description", "usage", "composition", "properties"];

/** `,"descriptions":[...]` and how many were written. */
export function descriptionsJson(rng: Rng, ctx: MediaContext, medicine: boolean, legal: boolean): { json: string; count: number } {
  if (rng.chance(0.05)) return { json: ',"descriptions":[]', count: 0 };
  const types = medicine ? DESCRIPTION_TYPES_MEDICINE : DESCRIPTION_TYPES_OTHER;
  const count = rng.int(1, 3) + (legal ? 1 : 0);
  // Most products lead with their main text (indication, full_description); a few only have side texts.
  const first = rng.chance(0.9) ? 0 : rng.int(0, types.length - 1);
  const meta = `{"createdAt":${ctx.createdAt},"updatedAt":${ctx.updatedAt}}`;
  let out = ',"descriptions":[';
  for (let k = 0; k < count; k++) {
    let content = "{";
    for (let l = 0; l < ctx.locales.length; l++) {
      const locale = ctx.locales[l] as Locale;
      content += `${l === 0 ? "" : ","}"${locale}":"${descriptionHtmlJson(rng, locale)}"`;
    }
    const type = legal && k === count - 1 ? "legal_text" : (types[(first + k) % types.length] as string);
    out += `${k === 0 ? "" : ","}{"id":${500000 + ctx.index * 8 + k},"locales":${ctx.localesJson},"targetGroups":${k === 0 ? '["public","pharmacist"]' : '["public"]'},"type":"${type}","content":${content}},"meta":${meta}}`;
  }
  return { json: out + "]", count };
}

export function leafletsJson(rng: Rng, ctx: MediaContext): string {
  const kinds = rng.chance(0.4) ? ["pil", "spc"] : ["pil"];
  const meta = `{"createdAt":${ctx.createdAt},"updatedAt":${ctx.updatedAt}}`;
  let out = ',"leaflets":[';
  kinds.forEach((type, k) => {
    const id = 900000 + ctx.index * 2 + k;
    const hex = mediaHex(ctx.seedHash, id).slice(0, 16);
    let url = "{";
    ctx.locales.forEach((locale, l) => {
      url += `${l === 0 ? "" : ","}"${locale}":"${ctx.baseEsc}\\/leaflets\\/${hex}-${type}-${locale}.pdf"`;
    });
    out += `${k === 0 ? "" : ","}{"id":${id},"locales":${ctx.localesJson},"type":"${type}","url":${url}},"meta":${meta}}`;
  });
  return out + "]";
}
