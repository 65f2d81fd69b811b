/** CSV, RFC 4180: quoting by csv-stringify (node-csv), CRLF records, optional BOM. */
import { stringify } from "csv-stringify/sync";
import type { LoadedLayout } from "./layout.js";
import { compileColumns } from "./columns.js";
import type { FeedWriter } from "./types.js";

export function createCsvWriter(layout: LoadedLayout): FeedWriter {
  if (layout.spec.format !== "csv") throw new TypeError(`csv writer given a ${layout.spec.format} layout`);
  const { delimiter, bom, columns } = layout.spec;
  const render = compileColumns(columns, layout.source);
  const options = { delimiter, record_delimiter: "windows" as const };
  return {
    header: () => (bom ? "\uFEFF" : "") + stringify([columns.map((c) => c.header)], options),
    row: (item) => stringify([render(item)], options),
    footer: () => "",
  };
}
