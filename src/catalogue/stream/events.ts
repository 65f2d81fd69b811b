/** What a client reports while it reads: counters, and events as they happen. */
import type { RetryEvent } from "../http/retry.js";
import type { Rejection } from "./line.js";

/** Only the first rejections are kept in `stats.rejections`; `stats.rejected` counts them all. */
export const KEPT_REJECTIONS = 1000;

export interface ReadStats {
  /** Records delivered. */
  records: number;
  /** Lines or records refused (see `rejections`). */
  rejected: number;
  rejections: Rejection[];
  /** Requests repeated after a 429, a 5xx, a network error or a timeout. */
  retries: number;
  /** Streams cut mid-way and picked up again (already delivered lines skipped). */
  resumes: number;
  /** HTTP requests sent, retries included. */
  requests: number;
  /** Requests a query was split into (identifier lists over 1000 codes). */
  parts: number;
  /** Records that matched more than one part of a split query, delivered once. */
  duplicates: number;
}

export type ReadEvent =
  | { type: "total"; total: number }
  | { type: "rejected"; rejection: Rejection }
  | { type: "retry"; retry: RetryEvent }
  | { type: "resume"; fromIndex: number; resumes: number };

export type EventListener = (event: ReadEvent) => void;

export function emptyStats(): ReadStats {
  return { records: 0, rejected: 0, rejections: [], retries: 0, resumes: 0, requests: 0, parts: 0, duplicates: 0 };
}

export function recordRejection(stats: ReadStats, rejection: Rejection, emit: EventListener): void {
  stats.rejected++;
  if (stats.rejections.length < KEPT_REJECTIONS) stats.rejections.push(rejection);
  emit({ type: "rejected", rejection });
}
