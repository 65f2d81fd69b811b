/**
 * Choosing the photos of an item. Per photo: the locale tags (empty = any),
 * the target group (empty = any), the type preference (frontal photos count as
 * type `frontal`; untyped photos rank after every listed type), then
 * displayOrder. Per photo the largest rendition the channel accepts is used,
 * never below the channel's minimum size (the spec's pixel sizes), never in a
 * file type the channel refuses (by the format key and by the URL's extension).
 */
import type { Photo } from "../catalogue/schemas/media.js";
import { FRONTAL_FORMATS, PHOTO_FORMATS } from "../catalogue/schemas/media.js";
import type { Product } from "../catalogue/schemas/product.js";
import type { ImageSource } from "./feed-item.js";
import type { ChannelMapping } from "./settings.js";
import { isHttpUrl } from "./url.js";
import { feedUrl } from "./feed-url.js";

type Kind = "jpeg" | "png" | "webp";

/** A format key to try, with the URL extensions that confirm its file type. */
interface Rendition {
  key: string;
  extensions: readonly string[];
}
const KIND_ORDER: Record<Kind, number> = { jpeg: 0, png: 1, webp: 2 };

export interface ImagePlan {
  typeRank: Map<string, number>;
  frontalRank: number | undefined;
  untypedRank: number;
  photoKeys: Rendition[];
  frontalKeys: Rendition[];
  accept: Record<Kind, boolean>;
  locales: Set<string> | undefined;
  targetGroup: string | null;
  maxAdditional: number;
  maxUrlLength: number;
}

function keyKind(key: string, frontal: boolean): Kind {
  if (key.endsWith("Webp")) return "webp";
  if (!frontal || key === "mediumJpeg" || key === "largeJpg") return "jpeg";
  return "png";
}

const EXTENSIONS: Record<Kind, readonly string[]> = { jpeg: [".jpeg", ".jpg"], png: [".png"], webp: [".webp"] };

function orderedKeys(formats: Record<string, { size: number }>, frontal: boolean, settings: ChannelMapping["images"]): Rendition[] {
  return Object.entries(formats)
    .filter(([key, f]) => settings.formats[keyKind(key, frontal)] && f.size >= settings.minPixels)
    .sort(([ka, a], [kb, b]) => b.size - a.size || KIND_ORDER[keyKind(ka, frontal)] - KIND_ORDER[keyKind(kb, frontal)])
    .map(([key]) => ({ key, extensions: EXTENSIONS[keyKind(key, frontal)] }));
}

export function compileImages(settings: ChannelMapping["images"], chain: readonly string[]): ImagePlan {
  const typeRank = new Map<string, number>();
  settings.photoTypes.forEach((t, i) => {
    if (!typeRank.has(t)) typeRank.set(t, i);
  });
  const channelLocales = new Set([chain[0] ?? "", (chain[0] ?? "").split(/[-_]/)[0] ?? ""]);
  return {
    typeRank,
    frontalRank: typeRank.get("frontal"),
    untypedRank: settings.photoTypes.length,
    photoKeys: orderedKeys(PHOTO_FORMATS, false, settings),
    frontalKeys: orderedKeys(FRONTAL_FORMATS, true, settings),
    accept: { ...settings.formats },
    locales: settings.locales === "any" ? undefined : settings.locales === "chain" ? new Set(chain) : channelLocales,
    targetGroup: settings.targetGroup,
    maxAdditional: settings.maxAdditional,
    maxUrlLength: settings.maxUrlLength,
  };
}

const EXT_KIND: Record<string, Kind | "other"> = { jpg: "jpeg", jpeg: "jpeg", png: "png", webp: "webp", gif: "other", bmp: "other", tif: "other", tiff: "other" };

/** The URL's file type, when its extension tells it. */
function urlKind(url: string): Kind | "other" | undefined {
  let end = url.indexOf("?");
  const hash = url.indexOf("#");
  if (end === -1 || (hash !== -1 && hash < end)) end = hash;
  if (end === -1) end = url.length;
  const dot = url.lastIndexOf(".", end);
  if (dot === -1 || url.lastIndexOf("/", end) > dot) return undefined;
  return EXT_KIND[url.slice(dot + 1, end).toLowerCase()];
}

function endsWithAny(url: string, extensions: readonly string[]): boolean {
  for (let i = 0; i < extensions.length; i++) if (url.endsWith(extensions[i] as string)) return true;
  return false;
}

function usableUrl(photo: Photo, renditions: readonly Rendition[], plan: ImagePlan): string | undefined {
  const formats = photo.formats;
  if (!formats) return undefined;
  for (const { key, extensions } of renditions) {
    const raw = formats[key];
    if (typeof raw !== "string") continue;
    // Encoded first (ASCII, RFC 3986: feed-url.ts), then judged: a space or an accent is not a reason to drop a photo.
    const url = feedUrl(raw);
    if (url.length > plan.maxUrlLength || !isHttpUrl(url)) continue;
    // The usual case, the URL ends with the key's own extension, needs no parsing.
    if (endsWithAny(url, extensions)) return url;
    const kind = urlKind(url);
    if (kind === "other" || (kind !== undefined && !plan.accept[kind])) continue;
    return url;
  }
  return undefined;
}

function passes(photo: Photo, plan: ImagePlan): boolean {
  const locales = photo.locales;
  if (plan.locales !== undefined && locales && locales.length > 0 && !locales.some((l) => plan.locales?.has(l))) return false;
  const groups = photo.targetGroups;
  if (plan.targetGroup !== null && groups && groups.length > 0 && !groups.includes(plan.targetGroup)) return false;
  return true;
}

interface Candidate {
  url: string;
  rank: number;
  order: number;
  index: number;
  photo: Photo;
}

function collect(photos: readonly Photo[] | null | undefined, frontal: boolean, plan: ImagePlan, out: Candidate[]): void {
  if (!photos) return;
  for (let i = 0; i < photos.length; i++) {
    const photo = photos[i] as Photo;
    const type = photo.photoType;
    const rank = frontal ? plan.frontalRank : typeof type === "string" && type !== "" ? plan.typeRank.get(type) : plan.untypedRank;
    if (rank === undefined || !passes(photo, plan)) continue;
    const url = usableUrl(photo, frontal ? plan.frontalKeys : plan.photoKeys, plan);
    if (url === undefined) continue;
    out.push({ url, rank, order: typeof photo.displayOrder === "number" ? photo.displayOrder : Number.MAX_SAFE_INTEGER, index: out.length, photo });
  }
}

/** Usable photos in preference order (duplicates of a URL included). */
function ranked(product: Product, plan: ImagePlan): Candidate[] {
  const candidates: Candidate[] = [];
  collect(product.photos, false, plan, candidates);
  if (plan.frontalRank !== undefined) collect(product.frontals, true, plan, candidates);
  if (candidates.length > 1) candidates.sort((a, b) => a.rank - b.rank || a.order - b.order || a.index - b.index);
  return candidates;
}

/** URLs of the main image then the additional ones, without duplicates; empty when none is usable. */
export function selectImages(product: Product, plan: ImagePlan): string[] {
  const candidates = ranked(product, plan);
  if (candidates.length === 0) return [];
  const urls: string[] = [];
  for (const c of candidates) {
    if (urls.length > plan.maxAdditional) break;
    if (!urls.includes(c.url)) urls.push(c.url);
  }
  return urls;
}

/**
 * The same choice as selectImages, with the media id and updatedAt of each
 * photo: what the image pipeline downloads and keys its cache by. A URL shared
 * by two photos belongs to the first, as in selectImages.
 */
export function selectImageSources(product: Product, plan: ImagePlan): ImageSource[] {
  const sources: ImageSource[] = [];
  for (const { url, photo } of ranked(product, plan)) {
    if (sources.length > plan.maxAdditional) break;
    if (sources.some((s) => s.url === url)) continue;
    const updatedAt = photo.meta?.updatedAt;
    sources.push(typeof updatedAt === "number" ? { url, mediaId: photo.id, updatedAt } : { url, mediaId: photo.id });
  }
  return sources;
}
