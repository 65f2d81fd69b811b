/**
 * What changed between two versions of a feed, from their item sheets (sheet.ts): items added and
 * removed, price changes (how many, the largest up and down), availability, title, link and photo
 * changes. The older version is held in memory as columns (one slot per item: numbers and small
 * codes, its name for the removed list), the newer one streamed past it: a million items cost about
 * as much memory as the older sheet's ids and names.
 */
import type { SheetItem, SheetRead } from "./sheet.js";

/** Where a sheet's items come from: a kept version's sheet, or the one a run is writing. */
export type SheetSource = (onItem: (item: SheetItem) => void) => Promise<SheetRead>;

export interface NamedItem {
  id: string;
  name: string;
}

export interface PriceChange extends NamedItem {
  from: number;
  to: number;
  currency: string;
  /** (to - from) / from, in percent; Infinity from 0. */
  percent: number;
}

export interface FeedDiff {
  from: { items: number };
  to: { items: number };
  added: NamedItem[];
  removed: NamedItem[];
  prices: {
    /** Items in both whose price changed. */
    changed: number;
    up: number;
    down: number;
    largestUp?: PriceChange;
    largestDown?: PriceChange;
    /** Of `changed`, those that moved by more than `movedPercent` (the gate's measure); 0 without it. */
    movedBeyond: number;
    /** The one of those with the largest move, for the gate's reason. */
    largestMove?: PriceChange;
  };
  /** Items in both whose availability changed, by "from -> to". */
  availability: { changed: number; transitions: Record<string, number> };
  titles: number;
  links: number;
  images: number;
  /** Items in both with none of the above changed. */
  unchanged: number;
}

export interface DiffOptions {
  /** Count price moves larger than this many percent (prices.movedBeyond). */
  movedPercent?: number;
}

/** A small table of the few distinct texts a column holds (currencies, availabilities). */
class Codes {
  private readonly index = new Map<string, number>();
  readonly texts: string[] = [];
  code(text: string): number {
    let code = this.index.get(text);
    if (code === undefined) {
      code = this.texts.length;
      this.texts.push(text);
      this.index.set(text, code);
    }
    return code;
  }
}

export class SheetDiffError extends Error {}

function grown<T extends Float64Array | Uint16Array | Uint32Array>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length);
  next.set(array);
  return next;
}

function percentOf(from: number, to: number): number {
  return from === 0 ? (to === 0 ? 0 : Infinity) : ((to - from) / from) * 100;
}

/** Compares version `from` with version `to`; throws SheetDiffError when either sheet cannot be read whole. */
export async function diffSheets(from: SheetSource, to: SheetSource, options: DiffOptions = {}): Promise<FeedDiff> {
  const slots = new Map<string, number>();
  const ids: string[] = [];
  const names: string[] = [];
  // Numbers in typed columns, grown by doubling: a million items' numbers in ~30 MB, not boxed in arrays.
  let cents = new Float64Array(1024);
  let codes = new Uint16Array(2048);
  let hashes = new Uint32Array(3072);
  const currencies = new Codes();
  const availabilities = new Codes();
  const read = await from((item) => {
    // A duplicate id (a layout that publishes one id twice): the first is the one compared.
    if (slots.has(item.id)) return;
    const slot = ids.length;
    if (slot === cents.length) {
      cents = grown(cents, slot * 2);
      codes = grown(codes, slot * 4);
      hashes = grown(hashes, slot * 6);
    }
    slots.set(item.id, slot);
    ids.push(item.id);
    names.push(item.name);
    cents[slot] = item.cents;
    codes[slot * 2] = currencies.code(item.currency);
    codes[slot * 2 + 1] = availabilities.code(item.availability);
    hashes[slot * 3] = item.title;
    hashes[slot * 3 + 1] = item.link;
    hashes[slot * 3 + 2] = item.image;
  });
  if (!read.ok) throw new SheetDiffError(`the older version: ${read.why}`);

  const seen = new Uint8Array(ids.length);
  const diff: FeedDiff = {
    from: { items: read.items },
    to: { items: 0 },
    added: [],
    removed: [],
    prices: { changed: 0, up: 0, down: 0, movedBeyond: 0 },
    availability: { changed: 0, transitions: {} },
    titles: 0,
    links: 0,
    images: 0,
    unchanged: 0,
  };
  const moved = options.movedPercent;
  const change = (slot: number, item: SheetItem): PriceChange => ({ id: item.id, name: item.name, from: cents[slot]!, to: item.cents, currency: item.currency, percent: percentOf(cents[slot]!, item.cents) });
  const readTo = await to((item) => {
    const slot = slots.get(item.id);
    if (slot === undefined || seen[slot] === 1) {
      if (slot === undefined) diff.added.push({ id: item.id, name: item.name });
      return;
    }
    seen[slot] = 1;
    let same = true;
    const was = cents[slot]!;
    // Another currency is a price change whatever the number.
    if (was !== item.cents || currencies.texts[codes[slot * 2]!] !== item.currency) {
      same = false;
      const p = diff.prices;
      p.changed++;
      const delta = item.cents - was;
      if (delta >= 0) {
        p.up++;
        if (p.largestUp === undefined || delta > p.largestUp.to - p.largestUp.from) p.largestUp = change(slot, item);
      } else {
        p.down++;
        if (p.largestDown === undefined || delta < p.largestDown.to - p.largestDown.from) p.largestDown = change(slot, item);
      }
      if (moved !== undefined && Math.abs(percentOf(was, item.cents)) > moved) {
        p.movedBeyond++;
        if (p.largestMove === undefined || Math.abs(percentOf(was, item.cents)) > Math.abs(p.largestMove.percent)) p.largestMove = change(slot, item);
      }
    }
    const wasAvailability = availabilities.texts[codes[slot * 2 + 1]!]!;
    if (wasAvailability !== item.availability) {
      same = false;
      diff.availability.changed++;
      const key = `${wasAvailability} -> ${item.availability}`;
      diff.availability.transitions[key] = (diff.availability.transitions[key] ?? 0) + 1;
    }
    const title = hashes[slot * 3] !== item.title;
    const link = hashes[slot * 3 + 1] !== item.link;
    const image = hashes[slot * 3 + 2] !== item.image;
    if (title) diff.titles++;
    if (link) diff.links++;
    if (image) diff.images++;
    if (same && !title && !link && !image) diff.unchanged++;
  });
  if (!readTo.ok) throw new SheetDiffError(`the newer version: ${readTo.why}`);
  diff.to.items = readTo.items;
  for (let slot = 0; slot < ids.length; slot++) if (seen[slot] === 0) diff.removed.push({ id: ids[slot]!, name: names[slot]! });
  return diff;
}
