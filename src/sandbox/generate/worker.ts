/**
 * A stream pool worker (see server/pool.ts): builds its own catalogue from the
 * sandbox's (seed, products, assetBaseUrl), which is cheap and gives the same
 * records, then writes each batch's lines into the slot that came with the
 * request and sends the slot back. Slots are plain ArrayBuffers that travel
 * (transferred, never copied): bytes written into a SharedArrayBuffer cost a
 * third more, and a slot owned by one thread at a time needs no locking.
 *
 *   in:  { id, source, total, from, items: Int32Array, slot }   items[j]: the record of position from+j
 *   out: { id, slot, length }        the lines are the first `length` bytes of the slot
 *        { id, slot, bytes, length } they did not fit: in `bytes`, an ArrayBuffer of their own
 *        { id, slot, error }
 */
import { parentPort, workerData } from "node:worker_threads";
import { createCatalogue, type CatalogueOptions } from "./catalogue.js";
import { recordWriter, writeLines, type LineSource } from "./worker-lines.js";

export interface BatchRequest {
  id: number;
  source: LineSource;
  total: number;
  from: number;
  items: Int32Array;
  slot: ArrayBuffer;
}

export type BatchAnswer = { id: number; slot: ArrayBuffer; length: number; bytes?: ArrayBuffer } | { id: number; slot: ArrayBuffer; error: string };

const port = parentPort;
if (port) {
  const catalogue = createCatalogue(workerData as CatalogueOptions);
  const records = { products: recordWriter(catalogue, "products"), media: recordWriter(catalogue, "media") };
  port.on("message", (request: BatchRequest) => {
    const { id, slot } = request;
    let answer: BatchAnswer;
    const transfer: ArrayBuffer[] = [slot];
    try {
      const lines = writeLines(records[request.source], request.total, request.from, request.items, Buffer.from(slot));
      answer = { id, slot, length: lines.length };
      if (lines.buffer !== slot) {
        // Grown past the slot: a buffer of its own (allocUnsafeSlow, so the whole ArrayBuffer is ours).
        answer.bytes = lines.buffer as ArrayBuffer;
        transfer.push(answer.bytes);
      }
    } catch (error) {
      answer = { id, slot, error: String((error as Error)?.stack ?? error) };
    }
    port.postMessage(answer, transfer);
  });
}
