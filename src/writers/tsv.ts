/**
 * Tab-separated text that Google reads the same with quoting on or off (and
 * Microsoft, without): no quoting at all, so a value never carries a tab, a line
 * break (they become spaces) or a `"` (a typographic quote): see escape.ts.
 */
import { tsvValue } from "./escape.js";
import type { LoadedLayout } from "./layout.js";
import { compileColumns } from "./columns.js";
import type { FeedWriter } from "./types.js";

export function createTsvWriter(layout: LoadedLayout): FeedWriter {
  if (layout.spec.format !== "tsv") throw new TypeError(`tsv writer given a ${layout.spec.format} layout`);
  const { columns } = layout.spec;
  const render = compileColumns(columns, layout.source);
  const filled: number[] = [];
  return {
    header: () => columns.map((c) => tsvValue(c.header)).join("\t") + "\n",
    columns: columns.map((c) => c.header),
    filled,
    row: (item) => render(item, filled).map(tsvValue).join("\t") + "\n",
    separator: "",
    footer: () => "",
  };
}
