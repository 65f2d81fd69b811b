import type { FeedItem } from "../mapping/feed-item.js";

/**
 * A writer is pure: it turns items into strings and does no I/O. The publish
 * stream (src/core/atomic-output.ts) owns files, buffering and backpressure.
 */
export interface FeedWriter {
  header(): string;
  /**
   * A row depends on its item only (worker threads render rows apart, see
   * pipeline/shard/); what goes between two rows (JSON's comma) is this.
   */
  row(item: FeedItem): string;
  /**
   * row(item) for an item that sanitize.ts has not cleaned, if cleaning would change none of
   * the values this writer reads from it; undefined otherwise. sanitizingWriter tries it first,
   * then row(the cleaned item): the same bytes, without a copy of every item.
   */
  rowIfClean?(item: FeedItem): string | undefined;
  separator: string;
  /** What `filled` counts: the headers of a column format, the item template's top-level `{{...}}` in XML. */
  columns?: readonly string[];
  /**
   * Non-zero for each of `columns` some row so far rendered non-blank (the writer marks it as rows
   * go): a column empty in every row is a warning. A live array, so that a wrapper that copies the
   * writer's properties (`{ ...writer, row }`) still sees it.
   */
  filled?: number[];
  /** `rows`: how many rows the feed has. */
  footer(rows: number): string;
}

/** Run-level values a layout's header and footer may show. */
export interface FeedMeta {
  channel: string;
  title: string;
  link: string;
  description: string;
  /** ISO 8601 */
  generatedAt: string;
  locale: string;
  country: string;
}
