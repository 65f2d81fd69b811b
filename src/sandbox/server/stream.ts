/**
 * Writes a stream response: one `{"meta":{"total","index"},"result"}` line per
 * record, generated as it is written. Lines are batched into ~64 KB writes
 * (one chunk each) and every write that fills the socket buffer waits for
 * 'drain', so a slow client holds back generation instead of filling memory.
 * Faults (drop, stall, delay, corrupt line, tiny chunks) are applied here.
 */
import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { StreamFaults } from "./faults.js";

export const STREAM_CONTENT_TYPE = "application/x-json-stream";
const BATCH_BYTES = 64 * 1024;


export interface StreamReply {
  kind: "stream";
  total: number;
  /** The JSON of the record at result position k (0 <= k < total). */
  record(k: number): string;
  /**
   * Records are pure ASCII (PHP-style escapes; tested), so the writer can use
   * latin1, which for ASCII is a plain copy instead of a UTF-8 encode.
   */
  ascii?: boolean;
}

function waitDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

function writeFlushed(res: ServerResponse, data: string | Buffer): Promise<void> {
  return new Promise((resolve) => res.write(data, () => resolve()));
}

export async function writeStream(res: ServerResponse, reply: StreamReply, faults: StreamFaults): Promise<void> {
  res.writeHead(200, { "content-type": STREAM_CONTENT_TYPE });
  // Headers go out now: a stalled first line must look like a slow body, not a slow response.
  res.flushHeaders();
  const prefix = `{"meta":{"total":${reply.total},"index":`;
  let pending = "";
  const flush = async (): Promise<void> => {
    if (pending === "") return;
    const data = pending;
    pending = "";
    if (faults.chunkBytes !== undefined) {
      const bytes = Buffer.from(data, "utf8");
      for (let at = 0; at < bytes.length && !res.destroyed; at += faults.chunkBytes) {
        if (!res.write(bytes.subarray(at, at + faults.chunkBytes))) await waitDrain(res);
      }
    } else if (!res.write(data, reply.ascii ? "latin1" : "utf8")) {
      await waitDrain(res);
    }
  };
  const perLine = faults.lineDelayMs > 0;
  for (let k = 0; k < reply.total; k++) {
    if (res.destroyed) return;
    if (k === faults.dropAfter) {
      if (pending !== "") await writeFlushed(res, pending);
      res.destroy();
      return;
    }
    if (k === faults.stallAfter) {
      await flush();
      await sleep(faults.stallMs);
    }
    if (perLine) await sleep(faults.lineDelayMs);
    if (k === faults.corruptIndex) {
      const line = prefix + k + '},"result":' + reply.record(k) + "}";
      pending += line.slice(0, Math.floor(line.length / 2)) + "\n";
    } else {
      pending += prefix + k + '},"result":' + reply.record(k) + "}\n";
    }
    if (perLine || pending.length >= BATCH_BYTES) await flush();
  }
  await flush();
  if (!res.destroyed) res.end();
}
