/**
 * Offers files, CSV or JSON, to an OffersIndex plus the list of refused rows
 * with their line numbers. Pure: lines in, data out; never throws. The reader
 * takes one physical line at a time, so a file of millions of rows is read as
 * a stream (see pipeline/offers-file.ts) and `parseOffers` reads a string.
 *
 * CSV: a header row naming the columns (id | gtin | cip13, price, sale_price,
 * sale_from, sale_until, quantity, availability, link); the delimiter (`,` `;`
 * or tab) is taken from the header. One row per physical line: no offers field
 * holds a line break, so a quote left open is that line's error alone, never a
 * value that swallows the rows after it (csv-parse, on a whole file, reads an
 * unclosed quote to the next quote or the end). Lines go to csv-parse in
 * batches; a batch that does not come out as exactly one clean record per line
 * is parsed again line by line, which pins every problem on its own line.
 *
 * JSON: an array of objects, `{"offers": [...]}` (read whole), or one object
 * per line (NDJSON, streamed: recognised when the first line is an object).
 *
 * Headers and keys are read through offers-columns.ts: the config's
 * `offers.columns` and `offers.ignoreColumns`, and a did-you-mean for the rest.
 */
import { parse as parseCsv, type CsvError, type Options as CsvOptions } from "csv-parse/sync";
import { DECIMAL_COMMA_HINT, decimalCommas, SCIENTIFIC, scientificHint } from "./offers-hints.js";
import { describeUnknownHeader, IGNORED, NO_OFFER_COLUMNS, type OfferColumns, OfferHeaders } from "./offers-columns.js";
import { addOfferRow, emptyOffersIndex, type OfferError, type OfferField, type OffersIndex } from "./offers.js";

export interface ParsedOffers {
  offers: OffersIndex;
  /** The problems, by line, the header's (unknown column, no key column) included; the first MAX_KEPT_ERRORS only. */
  errors: OfferError[];
  /** Every problem, kept or not. */
  errorCount: number;
  /** Problems of the file's structure: an unknown column or key, two read as one field, no key column. */
  structure: OfferError[];
  /** Data rows read (CSV lines after the header that are not blank, JSON entries). */
  rows: number;
  /** Rows without any problem (a row may have several problems: errorCount counts problems, not rows). */
  rowsAccepted: number;
}

/** Lines per csv-parse call: big enough that the parser's set-up cost (~45 us a call) is spread thin. */
const BATCH_LINES = 256;
const DELIMITERS = [";", "\t", ","] as const;

function detectDelimiter(header: string): string {
  let best = ",";
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const count = header.split(d).length - 1;
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}

/** csv-parse's messages count lines inside the piece it was given: say what is wrong, the line comes from us. */
function csvProblem(error: CsvError | undefined): string {
  // INVALID_OPENING_QUOTE is what csv-parse 6 throws; its type list does not name it.
  const code: string | undefined = error?.code;
  switch (code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "a quote opened on this line is not closed (a value cannot span lines)";
    case "CSV_INVALID_CLOSING_QUOTE":
      return "a quoted value is followed by more text before the delimiter";
    case "INVALID_OPENING_QUOTE":
      return "a quote inside an unquoted value";
    case undefined:
      return "not one CSV record";
    default:
      return (error?.message ?? "").replace(/ at line \d+/g, "");
  }
}

const nameOf = (d: string) => (d === "\t" ? "tab" : `'${d}'`);

/** `columns "EAN" and "gtin" are both read as gtin: keep one, or list the other in offers.ignoreColumns` */
function readTwice(what: "columns" | "keys", first: string, second: string, field: OfferField): string {
  return `${what} ${JSON.stringify(first.trim())} and ${JSON.stringify(second.trim())} are both read as ${field}: keep one, or list the other in offers.ignoreColumns`;
}

class CsvRows {
  /** The field of each column of the header; undefined for one ignored, unknown or read twice. */
  private columns: (OfferField | undefined)[] | undefined;
  private options: CsvOptions | undefined;
  private delimiter = ",";
  private batch: string[] = [];
  private batchLines: number[] = [];
  private headerSeen = false;

  constructor(
    private readonly out: ReaderState,
    private readonly headers: OfferHeaders,
  ) {}

  push(text: string, line: number): void {
    if (!this.headerSeen) {
      this.headerSeen = true;
      if (text.trim() !== "") this.header(text, line);
      return;
    }
    if (text.trim() === "") return;
    this.out.rows++;
    if (this.options === undefined) {
      // A blank first line: said once, when a line shows the file is not empty.
      if (this.columns === undefined && this.out.structure.length === 0) {
        this.out.structureError({ line: 1, reason: "OFFER_PARSE", detail: "the first line must be the header" });
      }
      return;
    }
    this.batch.push(text);
    this.batchLines.push(line);
    if (this.batch.length === BATCH_LINES) this.flush();
  }

  finish(): void {
    if (this.batch.length > 0) this.flush();
  }

  private header(text: string, line: number): void {
    this.delimiter = detectDelimiter(text);
    let error: CsvError | undefined;
    const records = parseCsv(text, { delimiter: this.delimiter, skip_records_with_error: true, on_skip: (e) => void (error ??= e) }) as string[][];
    const head = records[0];
    if (error !== undefined || records.length !== 1 || head === undefined) {
      this.out.structureError({ line, reason: "OFFER_PARSE", detail: `header: ${csvProblem(error)}` });
      return;
    }
    const from = new Map<OfferField, string>();
    const columns = head.map((name): OfferField | undefined => {
      const role = this.headers.role(name);
      if (role === undefined) this.out.structureError({ line, reason: "OFFER_UNKNOWN_FIELD", detail: describeUnknownHeader(name, "column") });
      if (role === undefined || role === IGNORED) return undefined;
      const other = from.get(role);
      if (other === undefined) {
        from.set(role, name);
        return role;
      }
      // Which of the two a row means is a guess: the file is refused (under --force the first is read).
      this.out.structureError({ line, reason: "OFFER_PARSE", detail: `header: ${readTwice("columns", other, name, role)}` });
      return undefined;
    });
    if (!columns.some((c) => c === "id" || c === "gtin" || c === "cip13")) {
      this.out.structureError({ line, reason: "OFFER_NO_KEY", detail: "the header has no id, gtin or cip13 column" });
      return;
    }
    this.columns = columns;
    this.options = { delimiter: this.delimiter, relax_column_count: true, record_delimiter: "\n" };
  }

  private flush(): void {
    const [lines, numbers] = [this.batch, this.batchLines];
    this.batch = [];
    this.batchLines = [];
    let failed = false;
    const records = parseCsv(lines.join("\n"), { ...this.options, skip_records_with_error: true, on_skip: () => void (failed = true) }) as string[][];
    // One clean record per line, or some line is not a row on its own: find which, line by line.
    if (!failed && records.length === lines.length) records.forEach((record, i) => this.row(record, numbers[i]!));
    else lines.forEach((text, i) => this.single(text, numbers[i]!));
  }

  private single(text: string, line: number): void {
    let error: CsvError | undefined;
    const records = parseCsv(text, { ...this.options, skip_records_with_error: true, on_skip: (e) => void (error ??= e) }) as string[][];
    const record = records[0];
    if (error !== undefined || records.length !== 1 || record === undefined) this.out.rowErrors([{ line, reason: "OFFER_PARSE", detail: csvProblem(error) }]);
    else this.row(record, line);
  }

  private row(record: string[], line: number): void {
    const columns = this.columns!;
    if (record.length > columns.length) {
      const detail = this.delimiter === "," && decimalCommas(record) >= record.length - columns.length ? DECIMAL_COMMA_HINT : `${record.length} fields, the header has ${columns.length}`;
      return this.out.rowErrors([{ line, reason: "OFFER_PARSE", detail }]);
    }
    if (record.length === 1 && columns.length > 1) {
      const other = DELIMITERS.find((d) => d !== this.delimiter && record[0]!.includes(d));
      if (other !== undefined) {
        return this.out.rowErrors([{ line, reason: "OFFER_PARSE", detail: `1 field where the header has ${columns.length}: this row uses ${nameOf(other)}, the header ${nameOf(this.delimiter)}` }]);
      }
    }
    const row: Record<string, unknown> = {};
    record.forEach((value, i) => {
      const name = columns[i];
      if (name !== undefined) row[name] = value;
    });
    const scientific = (["gtin", "cip13"] as const).find((key) => SCIENTIFIC.test(String(row[key] ?? "").trim()));
    if (scientific !== undefined) return this.out.rowErrors([{ line, reason: "OFFER_BAD_KEY", detail: scientificHint(scientific) }]);
    this.out.row(addOfferRow(this.out.offers, row, line));
  }
}

/** Line (1-based) where each object at nesting `depth` starts, in order. */
function objectLines(text: string, depth: number): number[] {
  const lines: number[] = [];
  let line = 1;
  let level = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") {
      if (c === "{" && level === depth) lines.push(line);
      level++;
    } else if (c === "}" || c === "]") level--;
  }
  return lines;
}

class JsonRows {
  /** Undefined until the first non-blank line says: NDJSON (an object on one line) or one document. */
  private ndjson: boolean | undefined;
  private whole: string[] = [];

  constructor(
    private readonly out: ReaderState,
    private readonly headers: OfferHeaders,
  ) {}

  push(text: string, line: number): void {
    if (this.ndjson === undefined && text.trim() !== "") this.ndjson = text.trim().startsWith("{") && parsesAsObject(text);
    if (this.ndjson === true) this.ndjsonLine(text, line);
    else this.whole.push(text);
  }

  finish(): void {
    if (this.ndjson !== false) return;
    const text = this.whole.join("\n");
    this.whole = [];
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      if (text.trim().startsWith("{") && text.trim().includes("\n")) {
        text.split("\n").forEach((t, i) => this.ndjsonLine(t, i + 1));
        return;
      }
      this.out.structureError({ line: 0, reason: "OFFER_PARSE", detail: error instanceof Error ? error.message : "invalid JSON" });
      return;
    }
    let entries: unknown[];
    let depth: number;
    if (Array.isArray(doc)) [entries, depth] = [doc, 1];
    else if (doc !== null && typeof doc === "object" && Array.isArray((doc as { offers?: unknown }).offers)) {
      [entries, depth] = [(doc as { offers: unknown[] }).offers, 2];
    } else [entries, depth] = [[doc], 0];
    const lines = objectLines(text, depth);
    let lastLine = 1;
    for (const entry of entries) {
      // Non-object entries have no '{': report them at the previous object's line.
      const line = entry !== null && typeof entry === "object" && !Array.isArray(entry) ? (lines.shift() ?? lastLine) : lastLine;
      lastLine = line;
      this.entry(entry, line);
    }
  }

  private ndjsonLine(text: string, line: number): void {
    if (text.trim() === "") return;
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch (error) {
      this.out.rows++;
      this.out.rowErrors([{ line, reason: "OFFER_PARSE", detail: error instanceof Error ? error.message : "invalid JSON" }]);
      return;
    }
    this.entry(entry, line);
  }

  private entry(entry: unknown, line: number): void {
    this.out.rows++;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      this.out.rowErrors([{ line, reason: "OFFER_PARSE", detail: "an offer must be an object" }]);
      return;
    }
    const row: Record<string, unknown> = {};
    const from = new Map<OfferField, string>();
    for (const [key, value] of Object.entries(entry)) {
      const role = this.headers.role(key);
      if (role === undefined) this.out.structureError({ line, reason: "OFFER_UNKNOWN_FIELD", detail: describeUnknownHeader(key, "key") });
      if (role === undefined || role === IGNORED) continue;
      const other = from.get(role);
      if (other !== undefined) this.out.structureError({ line, reason: "OFFER_PARSE", detail: readTwice("keys", other, key, role) });
      else {
        from.set(role, key);
        row[role] = value;
      }
    }
    this.out.row(addOfferRow(this.out.offers, row, line));
  }
}

function parsesAsObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * Problems kept for the report and the messages: a file of millions of bad rows
 * (a wrong export) must not hold a few hundred bytes per row in memory; past
 * this many they are counted only.
 */
export const MAX_KEPT_ERRORS = 100_000;

class ReaderState {
  readonly offers = emptyOffersIndex();
  readonly errors: OfferError[] = [];
  readonly structure: OfferError[] = [];
  rows = 0;
  rowsAccepted = 0;
  errorCount = 0;

  structureError(error: OfferError): void {
    if (this.structure.length < MAX_KEPT_ERRORS) this.structure.push(error);
    this.rowErrors([error]);
  }

  rowErrors(errors: OfferError[]): void {
    for (const e of errors) if (this.errorCount++ < MAX_KEPT_ERRORS) this.errors.push(e);
  }

  /** A data row read whole: accepted when it has no problem (problems are counted apart from rows). */
  row(errors: OfferError[]): void {
    if (errors.length === 0) this.rowsAccepted++;
    this.rowErrors(errors);
  }
}

/** Reads an offers file one physical line (without its line break) at a time. */
export class OffersReader {
  private readonly state = new ReaderState();
  private readonly rows: CsvRows | JsonRows;
  private line = 0;

  /** `columns`: the config's offers.columns and offers.ignoreColumns. */
  constructor(format: "csv" | "json", columns: OfferColumns = NO_OFFER_COLUMNS) {
    const headers = new OfferHeaders(columns);
    this.rows = format === "csv" ? new CsvRows(this.state, headers) : new JsonRows(this.state, headers);
  }

  push(text: string): void {
    this.line++;
    let t = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (this.line === 1 && t.charCodeAt(0) === 0xfeff) t = t.slice(1);
    this.rows.push(t, this.line);
  }

  finish(): ParsedOffers {
    this.rows.finish();
    const { offers, errors, structure, rows, rowsAccepted, errorCount } = this.state;
    // A JSON document's rows are read at its end, after any structure error of its first line.
    errors.sort((a, b) => a.line - b.line);
    return { offers, errors, errorCount, structure, rows, rowsAccepted };
  }
}

export function parseOffers(text: string, format: "csv" | "json", columns: OfferColumns = NO_OFFER_COLUMNS): ParsedOffers {
  const reader = new OffersReader(format, columns);
  if (text !== "") for (const line of text.replace(/\r$/, "").split(/\r\n|\n|\r/)) reader.push(line);
  return reader.finish();
}
