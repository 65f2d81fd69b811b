/**
 * The bytes of a stream line, shared by the in-thread writer (server/stream.ts)
 * and the pool workers (./worker.ts), so both paths send the same bytes by
 * construction: `{"meta":{"total":T,"index":k},"result":<record JSON>}\n`.
 *
 * A source names what a stream walks: product indexes, or media ids. Workers
 * get (source, indexes) and rebuild the records from their own catalogue.
 */
import type { Catalogue, MediaRecord } from "./catalogue.js";
import { phpJson } from "./json.js";
import { MEDIA_ID_BASE, MEDIA_SLOTS } from "./product-media.js";

export type LineSource = "products" | "media";

export function linePrefix(total: number): string {
  return `{"meta":{"total":${total},"index":`;
}

/** One full line, newline included. */
export function streamLine(prefix: string, k: number, record: string): string {
  return prefix + k + '},"result":' + record + "}\n";
}

/** Looks up a media item by id, regenerating its product's media (cached for the next lookup: ids come in runs). */
export function mediaById(catalogue: Catalogue): (id: number) => MediaRecord | undefined {
  let cachedIndex = -1;
  let cached: MediaRecord[] = [];
  return (id) => {
    const i = Math.floor((id - MEDIA_ID_BASE) / MEDIA_SLOTS);
    if (i !== cachedIndex) {
      cached = catalogue.mediaOf(i);
      cachedIndex = i;
    }
    return cached.find((m) => m.id === id);
  };
}

/** The record JSON of a source's item (a product index, a media id). */
export function recordJson(catalogue: Catalogue, source: LineSource): (item: number) => string {
  if (source === "products") return (i) => catalogue.productJson(i);
  const lookup = mediaById(catalogue);
  return (id) => phpJson(lookup(id));
}

/**
 * Writes the lines of result positions from .. from+items.length-1 (items[j]
 * is the record at position from+j) into `target` as latin1 bytes (records
 * are ASCII, see json.ts), and returns the bytes written. When they do not
 * fit, they go on in a buffer of their own (returned, with its own
 * ArrayBuffer so a worker can transfer it).
 *
 * Each line is turned into bytes as soon as it is built: flattening a fresh
 * rope while its pieces are still in the CPU cache costs far less than
 * flattening a whole batch of them at the end.
 */
export function writeLines(record: (item: number) => string, total: number, from: number, items: ArrayLike<number>, target: Buffer): Buffer {
  const prefix = linePrefix(total);
  let out = target;
  let used = 0;
  for (let j = 0; j < items.length; j++) {
    const line = streamLine(prefix, from + j, record(items[j] as number));
    if (used + line.length > out.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(out.length * 2, used + line.length));
      out.copy(bigger, 0, 0, used);
      out = bigger;
    }
    used += out.write(line, used, line.length, "latin1");
  }
  return out.subarray(0, used);
}
