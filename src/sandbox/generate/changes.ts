/**
 * A catalogue that changes over time, deterministically per seed: what the
 * catalogue looks like at a moment T is a pure function of (seed, T), so a
 * delta read and a full read taken at the same moment see the same products.
 *
 *   product i ─ base record (generate/product.ts) ─ changes at t1 < t2 < ... <= T ─> record at T
 *   new product N+m appears at since + (m+1) / newPerHour hours
 *
 * Each product's change times form its own chain of exponential gaps (a Poisson
 * process of rate perHour), each gap drawn from hash(seed, i, k): finding the
 * changes before T walks only the chain's first links, so the facts filters use
 * (status, updatedAt) stay cheap and a record is regenerated (parsed, changed,
 * encoded again) only when it changed. A change is a price, a name, the photos,
 * a status (active <-> inactive) or a deletion (`deleted: true`, the last change
 * of a product: the service keeps deleted products and flags them, see the
 * spec's `deleted`); every change moves meta.updatedAt, so updatedSince returns
 * exactly the products changed since.
 */
import { phpJson } from "./json.js";
import { hash3, unit3 } from "./prng.js";

export interface ChangeOptions {
  /** Changes start here (Unix seconds); products keep their generated dates before. */
  since: number;
  /** Expected changes per product per hour (0.01: 1 % of the catalogue changes per hour). */
  perHour: number;
  /** New products per hour (they come after the generated ones, in id order). */
  newPerHour: number;
}

export type ChangeKind = "price" | "name" | "photos" | "status" | "deleted";

/** Shares of each kind of change, in this order. */
const KIND_SHARES: readonly [ChangeKind, number][] = [
  ["price", 0.45],
  ["name", 0.15],
  ["photos", 0.15],
  ["status", 0.2],
  ["deleted", 0.05],
];

const SALT_GAP = 0x6a11;
const SALT_KIND = 0x6a12;
/** Chains longer than this stop: a product changed that often in the window is changed enough. */
const MAX_CHANGES = 64;

export interface Changes {
  /** When product i changes up to moment `at`: times (ascending) and kinds. */
  of(i: number, start: number, at: number): { times: number[]; kinds: ChangeKind[] };
  /** Products added by moment `at`. */
  added(at: number): number;
  /** When the m-th added product appears. */
  addedAt(m: number): number;
}

function kindOf(seedHash: number, i: number, k: number): ChangeKind {
  let u = unit3(seedHash, i, SALT_KIND + k * 7919);
  for (const [kind, share] of KIND_SHARES) {
    if (u < share) return kind;
    u -= share;
  }
  return "price";
}

export function createChanges(seedHash: number, options: ChangeOptions): Changes {
  const rate = options.perHour / 3600;
  const every = options.newPerHour > 0 ? 3600 / options.newPerHour : Infinity;
  return {
    of(i, start, at) {
      const times: number[] = [];
      const kinds: ChangeKind[] = [];
      if (rate <= 0) return { times, kinds };
      let t = start;
      for (let k = 0; k < MAX_CHANGES; k++) {
        // Exponential gap; whole seconds after the previous change, at least one.
        const u = unit3(seedHash, i, SALT_GAP + k * 104729);
        t += Math.max(1, Math.ceil(-Math.log(1 - u) / rate));
        if (t > at) break;
        const kind = kindOf(seedHash, i, k);
        times.push(t);
        kinds.push(kind);
        if (kind === "deleted") break;
      }
      return { times, kinds };
    },
    added(at) {
      return at < options.since || every === Infinity ? 0 : Math.floor((at - options.since) / every);
    },
    addedAt(m) {
      return options.since + Math.ceil((m + 1) * every);
    },
  };
}

/** A product's status after its changes: a status change toggles active and inactive (other statuses stay). */
export function statusAfter(base: string, kinds: readonly ChangeKind[]): string {
  let status = base;
  for (const kind of kinds) {
    if (kind !== "status") continue;
    if (status === "active") status = "inactive";
    else if (status === "inactive") status = "active";
  }
  return status;
}

const NAME_SUFFIXES = ["Plus", "Forte", "Duo", "Classic", "Sensitive", "Max"];
const PRICE_FIELDS = ["publicPrice", "manufacturerPrice", "pharmacistPrice"] as const;

type Json = Record<string, unknown>;

/** Applies one change to a parsed record (in place). `k`: the change's rank, `t`: its time. */
function apply(record: Json, kind: ChangeKind, seedHash: number, i: number, k: number, t: number): void {
  const h = hash3(seedHash, i, 0x6a13 + k);
  switch (kind) {
    case "price": {
      // -20 % .. +20 %, whole cents, never below 1.
      const factor = 0.8 + (h % 401) / 1000;
      for (const field of PRICE_FIELDS) {
        const value = record[field];
        if (typeof value === "number") record[field] = Math.max(1, Math.round(value * factor));
      }
      break;
    }
    case "name": {
      const name = record.name as Record<string, unknown> | undefined;
      const suffix = NAME_SUFFIXES[h % NAME_SUFFIXES.length] as string;
      if (name && typeof name === "object") for (const [locale, text] of Object.entries(name)) if (typeof text === "string" && text !== "") name[locale] = `${text} ${suffix}`;
      break;
    }
    case "photos": {
      // The first photo goes last (another one is chosen) and every photo is touched.
      const photos = record.photos as Json[] | undefined;
      if (Array.isArray(photos) && photos.length > 0) {
        photos.push(photos.shift() as Json);
        photos.forEach((photo, n) => {
          photo.displayOrder = n + 1;
          if (photo.meta && typeof photo.meta === "object") (photo.meta as Json).updatedAt = t;
        });
      }
      break;
    }
    case "status":
      record.status = statusAfter(String(record.status), ["status"]);
      break;
    case "deleted":
      record.deleted = true;
      break;
  }
}

/**
 * The record at a moment: the base JSON when nothing changed (and it is not a
 * new product), else parsed, changed and encoded again the service's way.
 */
export function changedJson(baseJson: string, seedHash: number, i: number, changes: { times: number[]; kinds: ChangeKind[] }, createdAt?: number): string {
  if (changes.times.length === 0 && createdAt === undefined) return baseJson;
  const record = JSON.parse(baseJson) as Json;
  changes.kinds.forEach((kind, k) => apply(record, kind, seedHash, i, k, changes.times[k] as number));
  const meta = (record.meta ?? {}) as Json;
  if (createdAt !== undefined) meta.createdAt = createdAt;
  meta.updatedAt = changes.times.at(-1) ?? createdAt ?? meta.updatedAt;
  record.meta = meta;
  return phpJson(record);
}
