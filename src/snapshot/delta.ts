/**
 * A delta merged into the snapshot, as two sorted streams joined by id:
 *
 *   old snapshot lines (id order) ──┐
 *                                   ├─> new snapshot: unchanged lines copied, changed
 *   delta lines (updatedSince, id   ┘   and new ones written when they still match
 *   order, every status)                the source filter, dropped when they do not
 *
 * Memory holds one line of each side. Both sides come in the source sorting's
 * order, which must be by id (ASC or DESC): another order (name, touchedAt)
 * moves changed products, and their new place is not known here. An id out of
 * order on either side stops the merge (the caller reads in full).
 */
import type { LineSource } from "./lines.js";
import type { Snapshot, SnapshotWriter } from "./store.js";

export type MergeCounts = Record<"received" | "changed" | "added" | "removed" | "bytes", number> & {
  /** Lines the delta stream sent. */
  received: number;
  /** Products already in the snapshot, replaced by their new version. */
  changed: number;
  /** Products not in the snapshot, added. */
  added: number;
  /** Products that no longer match the source filter, removed (or never added). */
  removed: number;
  /** Bytes of the delta's lines (what the delta transferred, newlines aside). */
  bytes: number;
};

export class MergeError extends Error {}

/**
 * Where each line of a merged snapshot came from: the old snapshot's line number when it was
 * copied unchanged, -1 when the delta wrote it (changed or new). A refresh of the rows can then
 * copy the last run's lines of every unchanged product (rowcache/reuse.ts): 4 bytes a product.
 */
export class Origins {
  private list = new Int32Array(1024);
  length = 0;

  push(oldLine: number): void {
    if (this.length === this.list.length) {
      const bigger = new Int32Array(this.list.length * 2);
      bigger.set(this.list);
      this.list = bigger;
    }
    this.list[this.length++] = oldLine;
  }

  /** The old line number of new line `i`, or -1. */
  at(i: number): number {
    return i < this.length ? this.list[i]! : -1;
  }
}

/** The record of a stream line: its id and the record, parsed (delta lines only: few). */
function readLine(bytes: Uint8Array): { id: string; record: Record<string, unknown> } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
  } catch {
    throw new MergeError("a line of the delta is not JSON");
  }
  const record = (parsed as { result?: unknown } | null)?.result as Record<string, unknown> | undefined;
  if (record === null || typeof record !== "object" || typeof record.id !== "string") throw new MergeError("a line of the delta has no product id");
  return { id: record.id, record };
}

const RESULT_ID = Buffer.from('"result":{"id":"');

/**
 * The product id of a snapshot line: read from the bytes when the record
 * starts with its id (as the service sends it), parsed otherwise.
 */
export function lineId(bytes: Buffer): string {
  const at = bytes.indexOf(RESULT_ID);
  if (at !== -1) {
    const from = at + RESULT_ID.length;
    const end = bytes.indexOf(0x22, from);
    // An id with an escape in it is read by the parser.
    if (end !== -1 && !bytes.subarray(from, end).includes(0x5c)) return bytes.toString("latin1", from, end);
  }
  return readLine(bytes).id;
}

/**
 * Merges `delta` into `old`, writing every line of the result into `writer` (and where it came
 * from into `origins`). `matches` is the source filter; `descending` the id order.
 */
export async function mergeDelta(
  old: Snapshot,
  delta: LineSource,
  writer: SnapshotWriter,
  matches: (record: Record<string, unknown>) => boolean,
  descending: boolean,
  origins: Origins = new Origins(),
): Promise<MergeCounts> {
  const counts: MergeCounts = { received: 0, changed: 0, added: 0, removed: 0, bytes: 0 };
  const before = (a: string, b: string) => (descending ? a > b : a < b);
  const lines = old.lines();
  let current = lines.next();
  let currentId = current.done ? undefined : lineId(current.value);
  /** The old line number of `current`. */
  let oldLine = 0;
  const advance = () => {
    const previous = currentId;
    current = lines.next();
    oldLine++;
    currentId = current.done ? undefined : lineId(current.value);
    if (previous !== undefined && currentId !== undefined && !before(previous, currentId)) throw new MergeError(`the snapshot is not in id order at ${currentId}`);
  };
  try {
    let lastDelta: string | undefined;
    for await (const line of delta.lines()) {
      counts.received++;
      counts.bytes += line.bytes.length;
      const { id, record } = readLine(line.bytes);
      if (lastDelta !== undefined && !before(lastDelta, id)) throw new MergeError(`the delta is not in id order at ${id}`);
      lastDelta = id;
      while (currentId !== undefined && before(currentId, id)) {
        await writer.add(current.value as Buffer);
        origins.push(oldLine);
        advance();
      }
      const known = currentId === id;
      if (known) advance();
      if (matches(record)) {
        await writer.add(line.bytes);
        origins.push(-1);
        if (known) counts.changed++;
        else counts.added++;
      } else {
        counts.removed++;
      }
    }
    while (currentId !== undefined) {
      await writer.add(current.value as Buffer);
      origins.push(oldLine);
      advance();
    }
  } finally {
    // The snapshot's statement must end before its connection can close.
    lines.return(undefined);
  }
  return counts;
}

export class TooLarge extends Error {
  constructor(
    readonly total: number,
    readonly limit: number,
  ) {
    super(`delta of ${total} products over the limit ${limit}`);
  }
}

/** The delta's lines, stopped with TooLarge as soon as its total passes `limit`. */
export function limitDelta(stream: LineSource, limit: number): LineSource {
  return {
    get total() {
      return stream.total;
    },
    get stats() {
      return stream.stats;
    },
    reject: (r) => stream.reject(r),
    lines: () => ({
      async *[Symbol.asyncIterator]() {
        for await (const line of stream.lines()) {
          if (line.total > limit) throw new TooLarge(line.total, limit);
          yield line;
        }
      },
    }),
  };
}

/** ASC or DESC when the sorting is by id alone, else undefined. */
export function idOrder(sorting: Record<string, unknown>): "ASC" | "DESC" | undefined {
  const keys = Object.keys(sorting);
  const id = sorting.id;
  return keys.length === 1 && (id === "ASC" || id === "DESC") ? id : undefined;
}
