/** preview's table: one line per item (id, title, price, availability, GTIN, link), reasons for those left out. */
import type { FeedItem } from "../mapping/feed-item.js";

export type PreviewLine = { id: string; item: FeedItem } | { id: string; reasons: { code: string; detail: string }[] };

const COLUMNS = ["id", "title", "price", "availability", "gtin", "brand", "link"] as const;

function cut(text: string, width: number): string {
  return text.length <= width ? text.padEnd(width) : `${text.slice(0, Math.max(0, width - 1))}…`;
}

export function renderTable(lines: readonly PreviewLine[], width: number): string {
  const items = lines.filter((l): l is Extract<PreviewLine, { item: FeedItem }> => "item" in l);
  const cells = items.map((l): string[] => [l.item.id, l.item.title, l.item.salePrice ? `${l.item.salePrice.text} (was ${l.item.price.text})` : l.item.price.text, l.item.availability, l.item.gtin ?? "", l.item.brand ?? "", l.item.link]);
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  // Title and link give way first when the terminal is narrow.
  let over = widths.reduce((a, b) => a + b + 2, 0) - width;
  for (const i of [6, 1]) {
    if (over <= 0) break;
    const give = Math.min(over, widths[i]! - 12);
    if (give > 0) {
      widths[i] = widths[i]! - give;
      over -= give;
    }
  }
  const line = (row: readonly string[]) => row.map((c, i) => cut(c, widths[i]!)).join("  ").trimEnd();
  const out: string[] = [];
  if (items.length > 0) out.push(line(COLUMNS), line(widths.map((w) => "-".repeat(w))), ...cells.map(line));
  else out.push("no item");
  const left = lines.filter((l) => "reasons" in l);
  if (left.length > 0) out.push("", leftOutText(left).trimEnd());
  return `${out.join("\n")}\n`;
}

/** "Left out:" and each product left out with its reasons in words (the table's end; stderr in raw format). */
export function leftOutText(lines: readonly PreviewLine[]): string {
  const out = ["Left out:"];
  for (const l of lines) if ("reasons" in l) out.push(`  ${l.id}`, ...l.reasons.map((r) => `    ${r.code}: ${r.detail}`));
  return `${out.join("\n")}\n`;
}
