/** Shared by the column formats: compile every column expression once. */
import type { FeedItem } from "../mapping/feed-item.js";
import type { Column } from "./layout.js";
import { createTemplateEngine } from "./template.js";

const raw = createTemplateEngine((value) => value);

export type CellRenderer = (item: FeedItem) => string[];

/** Renders each column unescaped: the format escapes the whole cell, once. */
export function compileColumns(columns: readonly Column[], source: string): CellRenderer {
  const cells = columns.map((column) => raw.compile(column.value, `${source} column "${column.header}"`));
  return (item) => cells.map((render) => render(item));
}
