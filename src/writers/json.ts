/** JSON (one array, streamed item by item) and NDJSON (one object per line). */
import type { FeedItem } from "../mapping/feed-item.js";
import type { LoadedLayout } from "./layout.js";
import { compileColumns } from "./columns.js";
import type { FeedWriter } from "./types.js";

function toObject(layout: LoadedLayout): (item: FeedItem, filled?: number[]) => unknown {
  if (layout.spec.format !== "json" && layout.spec.format !== "ndjson") {
    throw new TypeError(`json writer given a ${layout.spec.format} layout`);
  }
  const { columns } = layout.spec;
  if (!columns) {
    // The whole item, less the run-report bookkeeping.
    return ({ fallbacks: _fallbacks, ...rest }) => rest;
  }
  const render = compileColumns(columns, layout.source);
  const keys = columns.map((c) => c.header);
  return (item, filled) => {
    const cells = render(item, filled);
    const object: Record<string, string> = {};
    keys.forEach((key, i) => (object[key] = cells[i] ?? ""));
    return object;
  };
}

/** The keys of a JSON layout with columns (the whole item has no columns to check). */
function columnNames(layout: LoadedLayout, filled: number[]): { columns?: string[]; filled?: number[] } {
  const spec = layout.spec;
  return spec.format !== "xml" && spec.columns ? { columns: spec.columns.map((c) => c.header), filled } : {};
}

export function createJsonWriter(layout: LoadedLayout): FeedWriter {
  const project = toObject(layout);
  const filled: number[] = [];
  return {
    ...columnNames(layout, filled),
    header: () => "[",
    row: (item) => "\n" + JSON.stringify(project(item, filled)),
    separator: ",",
    footer: (rows) => (rows === 0 ? "]\n" : "\n]\n"),
  };
}

export function createNdjsonWriter(layout: LoadedLayout): FeedWriter {
  const project = toObject(layout);
  const filled: number[] = [];
  return {
    ...columnNames(layout, filled),
    header: () => "",
    row: (item) => JSON.stringify(project(item, filled)) + "\n",
    separator: "",
    footer: () => "",
  };
}
