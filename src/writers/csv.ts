/**
 * CSV, RFC 4180: quoting by csv-stringify (node-csv), CRLF records, optional BOM.
 *
 * One Stringifier per writer, fed row by row through its synchronous core, so that
 * csv-stringify's options are normalised once per feed instead of once per row
 * (the sync API does that on every call: half the cost of a row). Should a future
 * csv-stringify hide that core, the sync API takes over, slower but identical.
 */
import { Stringifier } from "csv-stringify";
import { stringify } from "csv-stringify/sync";
import type { LoadedLayout } from "./layout.js";
import { compileColumns } from "./columns.js";
import type { FeedWriter } from "./types.js";

type Transform = (record: string[], push: (text: string) => void) => Error | undefined;

export function rowStringifier(options: Record<string, unknown>): (cells: string[]) => string {
  const core = (new Stringifier(options) as unknown as { api?: { __transform?: Transform } }).api;
  const transform = core?.__transform?.bind(core);
  if (!transform) return (cells) => stringify([cells], options);
  let out = "";
  const push = (text: string) => (out += text);
  return (cells) => {
    out = "";
    const error = transform(cells, push);
    if (error) throw error;
    return out;
  };
}

export function createCsvWriter(layout: LoadedLayout): FeedWriter {
  if (layout.spec.format !== "csv") throw new TypeError(`csv writer given a ${layout.spec.format} layout`);
  const { delimiter, bom, columns } = layout.spec;
  const render = compileColumns(columns, layout.source);
  // With CRLF records csv-stringify quotes only values holding CRLF; a bare LF or CR must be
  // quoted too, or strict readers (Python csv, spreadsheets) split the record.
  const options = { delimiter, record_delimiter: "windows", quoted_match: /[\r\n]/ };
  const line = rowStringifier(options);
  return {
    header: () => (bom ? "\uFEFF" : "") + stringify([columns.map((c) => c.header)], options),
    row: (item) => line(render(item)),
    separator: "",
    footer: () => "",
  };
}
