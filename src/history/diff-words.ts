/**
 * A diff (diff.ts) in words: the one-line summary the gate's reasons and the log give, the counts
 * the manifest keeps per channel (the status page words them in its language), and the report
 * `pharmafeed diff` prints.
 */
import type { FeedDiff, NamedItem, PriceChange } from "./diff.js";

/** What a channel's manifest entry keeps of the diff against the version live before it. */
export interface ChangeCounts {
  added: number;
  removed: number;
  prices: number;
  availability: number;
  titles: number;
  links: number;
  images: number;
}

export function changeCounts(diff: FeedDiff): ChangeCounts {
  return { added: diff.added.length, removed: diff.removed.length, prices: diff.prices.changed, availability: diff.availability.changed, titles: diff.titles, links: diff.links, images: diff.images };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "+12 -3, 41 price changes" (and availability, title, link, photo changes when any). */
export function diffSummary(diff: FeedDiff): string {
  const c = changeCounts(diff);
  const parts = [`+${c.added} -${c.removed}`, plural(c.prices, "price change")];
  if (c.availability > 0) parts.push(plural(c.availability, "availability change"));
  if (c.titles > 0) parts.push(plural(c.titles, "title change"));
  if (c.links > 0) parts.push(plural(c.links, "link change"));
  if (c.images > 0) parts.push(plural(c.images, "photo change"));
  return parts.join(", ");
}

export function money(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

function priceLine(label: string, p: PriceChange | undefined): string | undefined {
  if (!p) return undefined;
  const pct = Number.isFinite(p.percent) ? `${p.percent > 0 ? "+" : ""}${p.percent.toFixed(1)}%` : "from 0";
  return `  ${label}: ${p.id} ${p.name ? `(${p.name}) ` : ""}${money(p.from, p.currency)} -> ${money(p.to, p.currency)} (${pct})`;
}

function itemLines(label: string, items: readonly NamedItem[], limit: number): string[] {
  if (items.length === 0) return [];
  const shown = items.slice(0, limit).map((i) => `    ${i.id}${i.name ? `  ${i.name}` : ""}`);
  const more = items.length > limit ? [`    ... and ${items.length - limit} more (--json lists them all)`] : [];
  return [`  ${label} (${items.length}):`, ...shown, ...more];
}

/** The report `pharmafeed diff` prints for one channel. */
export function diffReport(channel: string, from: string, to: string, diff: FeedDiff, limit = 20): string {
  const lines = [`${channel}: ${from} -> ${to}`, `  ${diff.from.items} -> ${diff.to.items} items: ${diffSummary(diff)}`];
  lines.push(...itemLines("added", diff.added, limit), ...itemLines("removed", diff.removed, limit));
  const p = diff.prices;
  if (p.changed > 0) lines.push(`  prices: ${p.up} up, ${p.down} down`);
  for (const line of [priceLine("largest rise", p.largestUp), priceLine("largest fall", p.largestDown)]) if (line) lines.push(line);
  const transitions = Object.entries(diff.availability.transitions).sort((a, b) => b[1] - a[1]);
  if (transitions.length > 0) lines.push(`  availability: ${transitions.map(([k, n]) => `${k} ${n}`).join(", ")}`);
  return lines.join("\n");
}
