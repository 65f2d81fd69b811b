/**
 * The one place every writer goes through (registry.ts wraps each factory):
 * each string of an item, and of the feed's header values, loses the control
 * characters of mapping/controls.ts before any format sees it. Escaping stays
 * each writer's job; this only decides which characters may reach a feed at all,
 * the same for CSV, TSV, XML, JSON and NDJSON.
 *
 * Most items hold no such character, and a layout reads a part of an item: a writer
 * may offer rowIfClean (types.ts), which reads the item as it is and checks each value
 * it reads (isClean, MAY_NEED_CLEANING), giving up at the first that cleaning would
 * change. Only then is the item copied clean (sanitizeItem) and the row written from
 * the copy: the same bytes either way (test/writers/sanitize.test.ts).
 */
import { dropControlChars } from "../mapping/controls.js";
import { feedUrl } from "../mapping/feed-url.js";
import type { FeedItem } from "../mapping/feed-item.js";
import type { FeedMeta, FeedWriter } from "./types.js";

/**
 * `value` with every string inside it cleaned. Returns the very same value when
 * nothing had to change (the common case: no copy per row).
 */
export function sanitizeValue<T>(value: T): T {
  if (typeof value === "string") return dropControlChars(value) as T;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const clean = sanitizeValue(v);
      if (clean !== v) (out ??= value.slice())[i] = clean;
    }
    return (out ?? value) as T;
  }
  let out: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const v = record[key];
    const clean = sanitizeValue(v);
    if (clean !== v) (out ??= { ...record })[key] = clean;
  }
  return (out ?? value) as T;
}

/**
 * Items already cleaned, by the item the mapping gave: channels with the same mapping
 * settings get the very same item (mapping/locale-cache.ts), so it is cleaned once per
 * product and not once per channel (22 outputs share 14 mappings in the benchmark).
 */
const cleaned = new WeakMap<FeedItem, FeedItem>();

export function sanitizeItem(item: FeedItem): FeedItem {
  let clean = cleaned.get(item);
  if (clean === undefined) cleaned.set(item, (clean = sanitizeValue(item)));
  return clean;
}

/** Whether sanitizeValue leaves `value` as it is. */
export function isClean(value: unknown): boolean {
  return typeof value === "string" ? dropControlChars(value) === value : sanitizeValue(value) === value;
}

/**
 * A first test for a string: one this does not match is clean. A superset of the characters
 * dropControlChars removes (test/writers/sanitize.test.ts checks every UTF-16 code unit), as
 * one character class that a writer joins with its escaper's (template.ts).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
export const MAY_NEED_CLEANING = /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * A writer whose header values and rows are cleaned first. A row is first asked of the writer's
 * rowIfClean (FeedWriter), which reads the item as it is and gives up at the first value that
 * cleaning would change; only then is the item copied clean: most items need no copy.
 */
export function sanitizingWriter(create: (meta: FeedMeta) => FeedWriter, meta: FeedMeta): FeedWriter {
  // The feed's own link (the shop's home page, from the config) is a URL like the items' (feed-url.ts).
  const { rowIfClean, ...writer } = create(sanitizeValue({ ...meta, link: feedUrl(meta.link) }));
  const row = writer.row.bind(writer);
  if (!rowIfClean) return { ...writer, row: (item) => row(sanitizeItem(item)) };
  const fast = rowIfClean.bind(writer);
  return { ...writer, row: (item) => fast(item) ?? row(sanitizeItem(item)) };
}
