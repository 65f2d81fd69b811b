/**
 * The one place every writer goes through (registry.ts wraps each factory):
 * each string of an item, and of the feed's header values, loses the control
 * characters of mapping/controls.ts before any format sees it. Escaping stays
 * each writer's job; this only decides which characters may reach a feed at all,
 * the same for CSV, TSV, XML, JSON and NDJSON.
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

/** A writer whose header values and rows are cleaned first. */
export function sanitizingWriter(create: (meta: FeedMeta) => FeedWriter, meta: FeedMeta): FeedWriter {
  // The feed's own link (the shop's home page, from the config) is a URL like the items' (feed-url.ts).
  const writer = create(sanitizeValue({ ...meta, link: feedUrl(meta.link) }));
  const row = writer.row.bind(writer);
  return { ...writer, row: (item) => row(sanitizeItem(item)) };
}
