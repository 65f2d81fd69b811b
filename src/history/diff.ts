/**
 * What changed between two versions of a feed, from their item sheets (sheet.ts): items added and
 * removed, price changes (how many, the largest up and down), availability, title, link and photo
 * changes. The older version's lines are held in memory by catalogue id, the newer one streamed
 * past them.
 */
import { parseSheetLine, type SheetItem, type SheetRead } from "./sheet.js";

/** Where a sheet's lines come from (sheet.ts): a kept version's sheet, or the one a run is writing. */
export type SheetSource = (onLine: (line: string) => void) => Promise<SheetRead>;

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

export class SheetDiffError extends Error {}

function percentOf(from: number, to: number): number {
  return from === 0 ? (to === 0 ? 0 : Infinity) : ((to - from) / from) * 100;
}

/** A line's catalogue id as its JSON text (`"M2D28194D9"`), found without parsing the line. */
function keyOf(line: string): string {
  if (line.startsWith('["')) {
    for (let i = 2; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x22) return line.slice(1, i + 1);
    }
  }
  throw new SheetDiffError(`a line of a sheet is not an item: ${line.slice(0, 80)}`);
}

function parsed(line: string): SheetItem {
  const item = parseSheetLine(line);
  if (item === undefined) throw new SheetDiffError(`a line of a sheet is not an item: ${line.slice(0, 80)}`);
  return item;
}

/**
 * Compares version `from` with version `to`; throws SheetDiffError when either sheet cannot be read
 * whole. Lines are matched by catalogue id; a line the same in both is an unchanged item, and only
 * lines that differ are parsed: on a night when a few percent of the prices move, most of a sheet
 * is read, never parsed (a diff of 22 feeds runs on every generate).
 */
export async function diffSheets(from: SheetSource, to: SheetSource, options: DiffOptions = {}): Promise<FeedDiff> {
  const older = new Map<string, string>();
  const read = await from((line) => {
    const key = keyOf(line);
    // A duplicate (one product twice in a feed): the first is the one compared.
    if (!older.has(key)) older.set(key, line);
  });
  if (!read.ok) throw new SheetDiffError(`the older version: ${read.why}`);
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
  const readTo = await to((line) => {
    const key = keyOf(line);
    const was = older.get(key);
    if (was === undefined) {
      const item = parsed(line);
      diff.added.push({ id: item.id, name: item.name });
      return;
    }
    older.delete(key);
    if (was === line) diff.unchanged++;
    else compareItems(diff, parsed(was), parsed(line), options.movedPercent);
  });
  if (!readTo.ok) throw new SheetDiffError(`the newer version: ${readTo.why}`);
  diff.to.items = readTo.items;
  for (const line of older.values()) {
    const item = parsed(line);
    diff.removed.push({ id: item.id, name: item.name });
  }
  return diff;
}

const change = (was: SheetItem, now: SheetItem): PriceChange => ({ id: now.id, name: now.name, from: was.cents, to: now.cents, currency: now.currency, percent: percentOf(was.cents, now.cents) });

/** One product in both versions whose lines differ: what changed of it (maybe only its name: unchanged). */
function compareItems(diff: FeedDiff, was: SheetItem, now: SheetItem, moved: number | undefined): void {
  // Published under another id (the channel's id template changed): to a marketplace, one item gone and one new.
  if (was.id !== now.id) {
    diff.removed.push({ id: was.id, name: was.name });
    diff.added.push({ id: now.id, name: now.name });
    return;
  }
  let same = true;
  // Another currency is a price change whatever the number.
  if (was.cents !== now.cents || was.currency !== now.currency) {
    same = false;
    const p = diff.prices;
    p.changed++;
    const delta = now.cents - was.cents;
    if (delta >= 0) {
      p.up++;
      if (p.largestUp === undefined || delta > p.largestUp.to - p.largestUp.from) p.largestUp = change(was, now);
    } else {
      p.down++;
      if (p.largestDown === undefined || delta < p.largestDown.to - p.largestDown.from) p.largestDown = change(was, now);
    }
    const percent = Math.abs(percentOf(was.cents, now.cents));
    if (moved !== undefined && percent > moved) {
      p.movedBeyond++;
      if (p.largestMove === undefined || percent > Math.abs(p.largestMove.percent)) p.largestMove = change(was, now);
    }
  }
  if (was.availability !== now.availability) {
    same = false;
    diff.availability.changed++;
    const key = `${was.availability} -> ${now.availability}`;
    diff.availability.transitions[key] = (diff.availability.transitions[key] ?? 0) + 1;
  }
  const title = was.title !== now.title;
  const link = was.link !== now.link;
  const image = was.image !== now.image;
  if (title) diff.titles++;
  if (link) diff.links++;
  if (image) diff.images++;
  if (same && !title && !link && !image) diff.unchanged++;
}
