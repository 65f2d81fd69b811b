/**
 * The lines a run maps, wherever they come from: the catalogue's stream (a
 * full read, every line also kept in the new snapshot) or the snapshot (a
 * refresh, or a delta merged into it). dispatch() sees the same RawLines
 * either way, so the feeds come out byte for byte the same.
 */
import type { RawLine } from "../catalogue/stream/record-stream.js";
import { emptyStats, recordRejection, type EventListener, type ReadStats } from "../catalogue/stream/events.js";
import type { Rejection } from "../catalogue/stream/line.js";
import type { Snapshot, SnapshotWriter } from "./store.js";

/** What run.ts and dispatch() use of a RecordStream. */
export interface LineSource {
  lines(): AsyncIterable<RawLine>;
  reject(rejection: Rejection): void;
  readonly total: number | undefined;
  readonly stats: ReadStats;
}

/** The snapshot's lines, numbered as if they had just been streamed. */
export function snapshotLines(snapshot: Snapshot, onEvent: EventListener): LineSource {
  const stats = emptyStats();
  const total = snapshot.info.records;
  return {
    total,
    stats,
    reject(rejection) {
      stats.records--;
      recordRejection(stats, rejection, onEvent);
    },
    lines() {
      return {
        async *[Symbol.asyncIterator]() {
          let index = 0;
          for (const bytes of snapshot.lines()) {
            stats.records++;
            yield { bytes, line: index + 1, index: index++, total };
          }
        },
      };
    },
  };
}

/**
 * The stream's lines, each also added to the new snapshot (awaiting the writer when
 * it has enough blocks in flight). `rejected` hears of the lines the run refused,
 * which the snapshot holds (the stream's own refusals it does not: run-source.ts).
 */
export function keepLines(stream: LineSource, writer: SnapshotWriter, rejected: (rejection: Rejection) => void): LineSource {
  return {
    get total() {
      return stream.total;
    },
    get stats() {
      return stream.stats;
    },
    reject: (rejection) => {
      rejected(rejection);
      stream.reject(rejection);
    },
    lines() {
      return {
        async *[Symbol.asyncIterator]() {
          for await (const line of stream.lines()) {
            const full = writer.add(line.bytes);
            if (full) await full;
            yield line;
          }
        },
      };
    },
  };
}
