/** JSON (one array, streamed item by item) and NDJSON (one object per line). */
import type { FeedItem } from "../mapping/feed-item.js";
import type { LoadedLayout } from "./layout.js";
import { compileColumns } from "./columns.js";
import type { FeedWriter } from "./types.js";

/**
 * An item's JSON text; `ifClean`, for a layout with columns, the text of an item not yet cleaned
 * or undefined (FeedWriter.rowIfClean). The whole item has none: every value is read, so the
 * cleaned copy (sanitize.ts, once per item for all channels that share it) costs no more.
 */
interface ItemJson {
  json(item: FeedItem, filled?: number[]): string;
  ifClean?(item: FeedItem, filled?: number[]): string | undefined;
}

function toJson(layout: LoadedLayout): ItemJson {
  if (layout.spec.format !== "json" && layout.spec.format !== "ndjson") {
    throw new TypeError(`json writer given a ${layout.spec.format} layout`);
  }
  const { columns } = layout.spec;
  if (!columns) {
    // The whole item, less the run-report bookkeeping.
    return { json: ({ fallbacks: _fallbacks, ...rest }) => JSON.stringify(rest) };
  }
  const render = compileColumns(columns, layout.source);
  // The object's text is written key by key, not built as an object: a column named
  // `__proto__` is a plain key then (`out["__proto__"] = v` would set the prototype and the
  // key would vanish from every record), and each key's text is made once.
  const prefixes = columns.map((c, i) => `${i === 0 ? "{" : ","}${JSON.stringify(c.header)}:`);
  const object = (cells: string[]) => {
    let out = "";
    for (let i = 0; i < prefixes.length; i++) out += prefixes[i]! + JSON.stringify(cells[i] ?? "");
    return out + "}";
  };
  return {
    json: (item, filled) => object(render(item, filled)),
    ifClean: (item, filled) => {
      const cells = render.ifClean(item, filled);
      return cells && object(cells);
    },
  };
}

/** The keys of a JSON layout with columns (the whole item has no columns to check). */
function columnNames(layout: LoadedLayout, filled: number[]): { columns?: string[]; filled?: number[] } {
  const spec = layout.spec;
  return spec.format !== "xml" && spec.columns ? { columns: spec.columns.map((c) => c.header), filled } : {};
}

export function createJsonWriter(layout: LoadedLayout): FeedWriter {
  const item = toJson(layout);
  const filled: number[] = [];
  return {
    ...columnNames(layout, filled),
    header: () => "[",
    row: (it) => "\n" + item.json(it, filled),
    ...(item.ifClean && {
      rowIfClean: (it: FeedItem) => {
        const json = item.ifClean!(it, filled);
        return json === undefined ? undefined : "\n" + json;
      },
    }),
    separator: ",",
    footer: (rows) => (rows === 0 ? "]\n" : "\n]\n"),
  };
}

export function createNdjsonWriter(layout: LoadedLayout): FeedWriter {
  const item = toJson(layout);
  const filled: number[] = [];
  return {
    ...columnNames(layout, filled),
    header: () => "",
    row: (it) => item.json(it, filled) + "\n",
    ...(item.ifClean && {
      rowIfClean: (it: FeedItem) => {
        const json = item.ifClean!(it, filled);
        return json === undefined ? undefined : json + "\n";
      },
    }),
    separator: "",
    footer: () => "",
  };
}
