/**
 * CSV, RFC 4180: quoting by csv-stringify (node-csv), CRLF records, optional BOM.
 *
 * Most cells need no quoting and are written as they are (cellwise below); csv-stringify's
 * public sync API renders the others.
 */
import { stringify } from "csv-stringify/sync";
import { classBody } from "./escape.js";
import type { LoadedLayout } from "./layout.js";
import { compileColumns } from "./columns.js";
import type { FeedWriter } from "./types.js";

/** The options rowStringifier is given; the names and meanings are csv-stringify's. */
export interface RowOptions {
  delimiter?: string;
  record_delimiter?: "windows" | "unix";
  /** Values matching it are quoted too (non-global: it is tested, not matched). */
  quoted_match?: RegExp;
}

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|-]/g, "\\$&");

/**
 * csv-stringify decides each cell on its own (with the options above and its
 * defaults for the rest: quote and escape `"`, nothing quoted unless needed): a
 * cell is written as it is unless it holds the delimiter, the quote, a CR or an
 * LF, or matches `quoted_match`. So a record is built here from plain cells as
 * they are and, for the others, csv-stringify's own rendering of a one-cell
 * record (its record delimiter cut off). Quoting stays csv-stringify's; most
 * cells skip its per-cell machinery (casting contexts, option lookups, a few
 * arrays per cell), which was a CSV row's main cost.
 * test/writers/csv.test.ts checks records against csv-stringify's sync API.
 */
function cellwise(options: RowOptions, library: (cells: string[]) => string): ((cells: string[]) => string) | undefined {
  const delimiter = options.delimiter ?? ",";
  if (delimiter.length !== 1) return undefined;
  const end = options.record_delimiter === "windows" ? "\r\n" : "\n";
  const extra = options.quoted_match;
  const extraClass = extra && classBody(extra);
  // One class when quoted_match is one (/[\r\n]/, as createCsvWriter's): one scan per cell.
  const special = new RegExp(`["\\r\\n${escapeRegExp(delimiter)}${extraClass ?? ""}]`);
  const alsoQuoted = extraClass === undefined ? extra : undefined;
  const plain = (cell: string) => !special.test(cell) && (alsoQuoted === undefined || !alsoQuoted.test(cell));
  // Cells that need quoting repeat: a report's reason sentences (with their commas), and a
  // product's title and description in every shop of a run that writes this channel (docs/shops.md;
  // the shops are written product by product). Each is quoted by the library once; the cells are
  // kept for every writer of this thread with these options, and boundedly.
  const quotedCells = quotedCache(`${delimiter}|${end}|${extra ? `${extra.source}/${extra.flags}` : ""}`);
  const quoted = (cell: string): string => {
    let out = quotedCells.get(cell);
    if (out === undefined) {
      out = library([cell]).slice(0, -end.length);
      if (cell.length <= QUOTED_CELL_MAX_LENGTH) {
        if (quotedCells.size >= QUOTED_CELLS) quotedCells.clear();
        quotedCells.set(cell, out);
      }
    }
    return out;
  };
  return (cells) => {
    let out = "";
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]!;
      if (i > 0) out += delimiter;
      out += plain(cell) ? cell : quoted(cell);
    }
    return out + end;
  };
}

/**
 * At most this many quoted cells kept per kind of stringifier, each at most this long: ~4 MB at
 * worst, per thread. Long enough for a description: cut to 5,000 characters by most presets.
 */
const QUOTED_CELLS = 256;
const QUOTED_CELL_MAX_LENGTH = 8192;

/** The quoted cells of every stringifier of this thread with the same options (their signature). */
const QUOTED = new Map<string, Map<string, string>>();

function quotedCache(signature: string): Map<string, string> {
  let cache = QUOTED.get(signature);
  if (cache === undefined) QUOTED.set(signature, (cache = new Map()));
  return cache;
}

/**
 * csv-stringify's rendering of a record, through its public sync API. Its stream core was faster
 * per call (2.2 us against 4.7 us for a one-cell record here) but is private (`api.__transform`);
 * cellwise() calls this only for the cells that need quoting.
 */
function libraryRecord(options: RowOptions): (cells: string[]) => string {
  return (cells) => stringify([cells], options);
}

export function rowStringifier(options: RowOptions): (cells: string[]) => string {
  const library = libraryRecord(options);
  return cellwise(options, library) ?? library;
}

export function createCsvWriter(layout: LoadedLayout): FeedWriter {
  if (layout.spec.format !== "csv") throw new TypeError(`csv writer given a ${layout.spec.format} layout`);
  const { delimiter, bom, columns } = layout.spec;
  const render = compileColumns(columns, layout.source);
  // With CRLF records csv-stringify quotes only values holding CRLF; a bare LF or CR must be
  // quoted too, or strict readers (Python csv, spreadsheets) split the record.
  const options: RowOptions = { delimiter, record_delimiter: "windows", quoted_match: /[\r\n]/ };
  const line = rowStringifier(options);
  const filled: number[] = [];
  return {
    header: () => (bom ? "\uFEFF" : "") + stringify([columns.map((c) => c.header)], options),
    row: (item) => line(render(item, filled)),
    rowIfClean: (item) => {
      const cells = render.ifClean(item, filled);
      return cells && line(cells);
    },
    separator: "",
    columns: columns.map((c) => c.header),
    filled,
    footer: () => "",
  };
}
