/**
 * A stream pool worker (see server/pool.ts): builds its own catalogue from the
 * sandbox's (seed, products, assetBaseUrl), which is cheap and gives the same
 * records, then answers each batch request with the batch's lines as one byte
 * block, transferred to the main thread without a copy.
 *
 *   in:  { id, source, total, from, items: Int32Array, slot }   (items[j]: record of position from+j;
 *         slot: where to write, a region of a SharedArrayBuffer the writer owns until it is written)
 *   out: { id, length }  the lines are in the slot
 *        { id, bytes }   they did not fit: an ArrayBuffer of their own, transferred
 *        { id, error }
 */
import { parentPort, workerData } from "node:worker_threads";
import { createCatalogue, type CatalogueOptions } from "./catalogue.js";
import { recordJson, writeLines, type LineSource } from "./worker-lines.js";

export interface Slot {
  buffer: SharedArrayBuffer;
  offset: number;
  size: number;
}

export interface BatchRequest {
  id: number;
  source: LineSource;
  total: number;
  from: number;
  items: Int32Array;
  slot: Slot;
}

export type BatchAnswer = { id: number; length: number } | { id: number; bytes: ArrayBuffer } | { id: number; error: string };

const port = parentPort;
if (port) {
  const catalogue = createCatalogue(workerData as CatalogueOptions);
  const records = { products: recordJson(catalogue, "products"), media: recordJson(catalogue, "media") };
  port.on("message", (request: BatchRequest) => {
    let answer: BatchAnswer;
    try {
      const { slot } = request;
      const target = Buffer.from(slot.buffer, slot.offset, slot.size);
      const lines = writeLines(records[request.source], request.total, request.from, request.items, target);
      if (lines.buffer === slot.buffer) {
        answer = { id: request.id, length: lines.length };
      } else {
        const bytes = lines.buffer.slice(lines.byteOffset, lines.byteOffset + lines.length) as ArrayBuffer;
        port.postMessage({ id: request.id, bytes } satisfies BatchAnswer, [bytes]);
        return;
      }
    } catch (error) {
      answer = { id: request.id, error: String((error as Error)?.stack ?? error) };
    }
    port.postMessage(answer);
  });
}
