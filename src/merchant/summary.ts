/** One line per feed: what Google approved, left pending and disapproved, and why (top issues). */
import type { FeedSummary } from "./store.js";

export function summaryLines(feeds: readonly FeedSummary[], top = 3): string[] {
  const lines: string[] = [];
  for (const f of feeds) {
    const stale = f.error ? ` (read ${f.syncedAt}; the last read-back failed)` : "";
    lines.push(`${f.channel} (Merchant Center ${f.accountId}): ${f.products} products at Google: ${f.approved} approved, ${f.pending} pending, ${f.disapproved} disapproved${stale}`);
    for (const i of f.topIssues.slice(0, top)) lines.push(`  ${i.products} x ${i.severity.toLowerCase()} ${i.code}${i.attribute ? ` (${i.attribute})` : ""}: ${i.description ?? ""}`);
    for (const a of f.accountIssues) lines.push(`  account issue, ${a.severity.toLowerCase()}: ${a.title}`);
  }
  return lines;
}
