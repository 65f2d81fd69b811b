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
  const line = (cells: string[]) => cells.map(tsvValue).join("\t") + "\n";
  return {
    header: () => line(columns.map((c) => c.header)),
    columns: columns.map((c) => c.header),
    filled,
    row: (item) => line(render(item, filled)),
    rowIfClean: (item) => {
      const cells = render.ifClean(item, filled);
      return cells && line(cells);
    },
    separator: "",
    footer: () => "",
  };
}
