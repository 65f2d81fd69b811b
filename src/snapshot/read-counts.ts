/**
 * The source counts of a run whose lines came from a snapshot (issue 22, point 5):
 * the catalogue read behind the snapshot refused some lines before they could be
 * kept (malformed JSON, a repeated id), so a refresh that maps the kept lines alone
 * would report fewer rejections and a smaller total than that read did. The
 * snapshot keeps those refusals (format.ts ReadCounts) and they are added back here.
 */
import type { ReadCounts } from "./format.js";

export interface SourceCounts {
  total: number;
  received: number;
  rejected: number;
  rejectedByCode: Record<string, number>;
}

/** `own`: what this run counted; `read`: the snapshot's read, when the lines came from one. */
export function sourceCounts(own: SourceCounts, read: ReadCounts | undefined): SourceCounts & { readAt?: string } {
  if (!read) return own;
  const rejectedByCode = { ...own.rejectedByCode };
  let refused = 0;
  for (const [code, n] of Object.entries(read.refusedByCode)) {
    rejectedByCode[code] = (rejectedByCode[code] ?? 0) + n;
    refused += n;
  }
  return { total: read.total, received: own.received, rejected: own.rejected + refused, rejectedByCode, readAt: read.readAt };
}
