/** explain's answer for a terminal: one block per product, one paragraph per channel. */
import type { ChannelAnswer, ExplainAnswer, ProductAnswer } from "./explain.js";
import { googleLines } from "../merchant/explain.js";

const indent = (text: string, by: string): string =>
  text
    .split("\n")
    .map((line) => by + line)
    .join("\n");

function channel(c: ChannelAnswer): string[] {
  return [...pharmafeed(c), ...googleLines(c.google)];
}

function pharmafeed(c: ChannelAnswer): string[] {
  switch (c.outcome) {
    case "not_run":
      return [`${c.channel}: not run by the last run (generate --channel ran other channels)`];
    case "channel_failed":
      return [`${c.channel}: the channel failed during the last run; nothing is known of this product there`];
    case "left_out":
      return [
        `${c.channel}: LEFT OUT${c.from === "report" ? " (from the last run's report)" : c.stale !== undefined ? " (as of the run that wrote the explain index)" : ""}`,
        ...(c.reasons ?? []).map((r) => `    ${r.code}: ${r.detail}`),
        ...(c.stale !== undefined && c.from === "index" ? [`    (not checked against the feed served now: ${c.stale})`] : []),
      ];
    case "in_feed": {
      const lines = [
        c.stale !== undefined
          ? `${c.channel}: IN THE FEED as of the run that wrote the explain index (${c.file}); not in the last run's report of left-out products`
          : `${c.channel}: IN THE FEED (${c.file}, ${c.bytes} bytes at offset ${c.offset})`,
      ];
      for (const w of c.warnings ?? []) lines.push(`    warning ${w.code}: ${w.detail}`);
      for (const f of c.fallbacks ?? []) lines.push(`    fallback: ${f.detail}`);
      lines.push(c.row !== undefined ? indent(c.row.replace(/^\n+|\n+$/g, ""), "    | ") : `    (row not shown: ${c.rowNote})`);
      return lines;
    }
  }
}

function product(p: ProductAnswer): string {
  const facts = [p.gtin ? `GTIN ${p.gtin}` : "", p.cip13 ? `CIP13 ${p.cip13}` : "", p.brand ? `brand ${p.brand}` : ""].filter((x) => x !== "");
  const head = `${p.id}${p.name ? `  ${p.name}` : ""}${facts.length > 0 ? `  (${facts.join(", ")})` : ""}`;
  // A row's lines are one element: indented line by line, not only its first.
  return [head, ...p.channels.flatMap(channel).flatMap((l) => l.split("\n")).map((l) => `  ${l}`)].join("\n");
}

/** Said first when the index does not describe every served file: its answers are then partly older. */
function staleNote(answer: ExplainAnswer): string {
  if (!answer.staleChannels || answer.staleChannels.length === 0) return "";
  const served = answer.servedRunAt ? `; the feeds served now are from the run of ${answer.servedRunAt}` : "";
  return (
    `Note: the explain index is of the run of ${answer.runStartedAt}${served}. For ${answer.staleChannels.join(", ")} it does not describe the file served now: ` +
    `no row is shown there, and what the channel's report of left-out products says comes first. The next run writes a new index.\n\n`
  );
}

export function renderExplain(answer: ExplainAnswer): string {
  return staleNote(answer) + renderAnswer(answer);
}

function renderAnswer(answer: ExplainAnswer): string {
  const run = answer.runStartedAt ? ` (last run ${answer.runStartedAt})` : "";
  if (answer.matchedBy === "catalogue" && answer.catalogue) {
    const c = answer.catalogue;
    if (!c.found) return `${answer.query}: not received by the last run${run}, and not in the catalogue.\n`;
    const p = c.product!;
    return `${p.id}${p.name ? `  ${p.name}` : ""}: not received by the last run${run}; found in the catalogue (status ${p.status}).\n${c.why.map((w) => `  ${w}`).join("\n")}\n`;
  }
  if (answer.products.length === 0) return `${answer.query}: no product of the last run${run} matches.\n`;
  const more = answer.total > answer.products.length ? `\n${answer.total - answer.products.length} more match; add words to narrow.` : "";
  const head = answer.matchedBy === "words" ? `${answer.total} product${answer.total === 1 ? "" : "s"} match "${answer.query}"${run}:\n\n` : "";
  return `${head}${answer.products.map(product).join("\n\n")}${more}\n`;
}
