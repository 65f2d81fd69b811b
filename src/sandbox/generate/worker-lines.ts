/**
 * The bytes of a stream line, shared by the in-thread writer (server/stream.ts)
 * and the pool workers (./worker.ts), so both paths send the same bytes by
 * construction: `{"meta":{"total":T,"index":k},"result":<record JSON>}\n`.
 *
 * A source names what a stream walks: product indexes, or media ids. Workers
 * get (source, indexes) and rebuild the records from their own catalogue.
 * Lines go straight into bytes (worker-writer.ts); products are written by
 * worker-product.ts, byte for byte what catalogue.productJson returns.
 */
import type { Catalogue, MediaRecord } from "./catalogue.js";
import { phpJson } from "./json.js";
import { MEDIA_ID_BASE, MEDIA_SLOTS } from "./product-media.js";
import { productBytes } from "./worker-bytes.js";
import { writeProduct } from "./worker-product.js";
import { ByteWriter } from "./worker-writer.js";

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

/** Writes the record of a source's item into a ByteWriter: the same bytes as recordJson. */
export type RecordWriter = (w: ByteWriter, item: number) => void;

const writers = new WeakMap<Catalogue, Partial<Record<LineSource, RecordWriter>>>();

/** The record writer of a catalogue's source, made once per catalogue and thread. */
export function recordWriter(catalogue: Catalogue, source: LineSource): RecordWriter {
  let mine = writers.get(catalogue);
  if (!mine) writers.set(catalogue, (mine = {}));
  let writer = mine[source];
  if (!writer) {
    if (source === "products") {
      const bytes = productBytes(catalogue.seed, catalogue.reference, catalogue.assetBaseUrl);
      writer = (w, i) => writeProduct(w, bytes, i);
    } else {
      const json = recordJson(catalogue, source);
      writer = (w, id) => w.s(json(id));
    }
    mine[source] = writer;
  }
  return writer;
}

/**
 * Writes the lines of result positions from .. from+items.length-1 (items[j]
 * is the source item at position from+j) into `target`, and returns the bytes
 * written: a view of `target`, or, when they did not fit, of a buffer of its
 * own (with its own ArrayBuffer, so a worker can transfer it).
 */
export function writeLines(record: RecordWriter, total: number, from: number, items: ArrayLike<number>, target: Buffer): Buffer {
  const prefix = linePrefix(total);
  const w = new ByteWriter(target);
  for (let j = 0; j < items.length; j++) {
    w.s(prefix);
    w.n(from + j);
    w.s('},"result":');
    record(w, items[j] as number);
    w.s("}\n");
  }
  return w.bytes();
}
