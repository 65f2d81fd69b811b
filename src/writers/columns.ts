/**
 * Shared by the column formats: every column expression of a layout compiled
 * once, unescaped (the format escapes the whole cell, once). All the columns of
 * a layout are one generated function (template.ts, compileList): a row is one
 * call, and the cells come straight out as an array.
 */
import type { FeedItem } from "../mapping/feed-item.js";
import type { Column } from "./layout.js";
import { createTemplateEngine } from "./template.js";

const raw = createTemplateEngine((value) => value, { touches: null });

/**
 * `filled[i]` becomes non-zero once a row's cell i is not blank (a column empty in every row is a
 * warning). A column already seen filled is not looked at again: the check costs nothing per row then.
 * `ifClean`: the cells of an item not yet cleaned, or undefined if cleaning would change a value
 * they read (RenderFn's ifClean).
 */
export type CellRenderer = ((item: FeedItem, filled?: number[]) => string[]) & {
  ifClean: (item: FeedItem, filled?: number[]) => string[] | undefined;
};

function mark(out: readonly string[], filled: number[] | undefined): void {
  if (filled) for (let i = 0; i < out.length; i++) if (!filled[i] && out[i]!.trim() !== "") filled[i] = 1;
}

export function compileColumns(columns: readonly Column[], source: string): CellRenderer {
  const cells = raw.compileList(columns.map((column) => ({ template: column.value, source: `${source} column "${column.header}"` })));
  const render = (item: FeedItem, filled?: number[]): string[] => {
    const out = cells(item);
    mark(out, filled);
    return out;
  };
  const ifClean = (item: FeedItem, filled?: number[]): string[] | undefined => {
    const out = cells.ifClean(item);
    if (out) mark(out, filled);
    return out;
  };
  return Object.assign(render, { ifClean });
}
