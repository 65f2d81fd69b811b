/**
 * Offers files, CSV or JSON, to an OffersIndex plus the list of refused rows
 * with their line numbers. Pure: text in, data out; never throws.
 *
 * CSV: a header row naming the columns (id | gtin | cip13, price, sale_price,
 * sale_from, sale_until, quantity, availability, link); the delimiter (`,` `;`
 * or tab) is taken from the header. JSON: an array of objects, `{"offers": [...]}`,
 * or one object per line (NDJSON).
 */
import { parse as parseCsv } from "csv-parse/sync";
import { addOfferRow, emptyOffersIndex, isOfferField, type OfferError, type OffersIndex } from "./offers.js";

export interface ParsedOffers {
  offers: OffersIndex;
  errors: OfferError[];
}

export function parseOffers(text: string, format: "csv" | "json"): ParsedOffers {
  const offers = emptyOffersIndex();
  const errors: OfferError[] = [];
  try {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    if (format === "csv") readCsv(body, offers, errors);
    else readJson(body, offers, errors);
  } catch (error) {
    errors.push({ line: 0, reason: "OFFER_PARSE", detail: error instanceof Error ? error.message : String(error) });
  }
  errors.sort((a, b) => a.line - b.line);
  return { offers, errors };
}

function detectDelimiter(header: string): string {
  let best = ",";
  let bestCount = 0;
  for (const d of [";", "\t", ","]) {
    const count = header.split(d).length - 1;
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}

function readCsv(text: string, offers: OffersIndex, errors: OfferError[]): void {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  if (firstLine.trim() === "") {
    if (text.trim() !== "") errors.push({ line: 1, reason: "OFFER_PARSE", detail: "the first line must be the header" });
    return;
  }
  const records = parseCsv(text, {
    delimiter: detectDelimiter(firstLine),
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (err) => {
      const line = (err as { lines?: unknown } | undefined)?.lines;
      errors.push({ line: typeof line === "number" ? line : 0, reason: "OFFER_PARSE", detail: err?.message ?? "invalid CSV" });
    },
  }) as unknown as { record: string[]; info: { lines: number } }[];
  const [head, ...rows] = records;
  if (head === undefined) return;
  const columns = head.record.map((c) => c.trim().toLowerCase());
  for (const c of columns) {
    if (!isOfferField(c)) errors.push({ line: head.info.lines, reason: "OFFER_UNKNOWN_FIELD", detail: c });
  }
  if (!columns.some((c) => c === "id" || c === "gtin" || c === "cip13")) {
    errors.push({ line: head.info.lines, reason: "OFFER_NO_KEY", detail: "the header has no id, gtin or cip13 column" });
    return;
  }
  for (const { record, info } of rows) {
    if (record.length > columns.length) {
      errors.push({ line: info.lines, reason: "OFFER_PARSE", detail: `${record.length} fields, the header has ${columns.length}` });
      continue;
    }
    const row: Record<string, unknown> = {};
    record.forEach((value, i) => {
      const name = columns[i];
      if (name !== undefined && isOfferField(name)) row[name] = value;
    });
    errors.push(...addOfferRow(offers, row, info.lines));
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

function readEntry(entry: unknown, line: number, offers: OffersIndex, errors: OfferError[]): void {
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
    errors.push({ line, reason: "OFFER_PARSE", detail: "an offer must be an object" });
    return;
  }
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (isOfferField(key)) row[key] = value;
    else errors.push({ line, reason: "OFFER_UNKNOWN_FIELD", detail: key });
  }
  errors.push(...addOfferRow(offers, row, line));
}

function readJson(text: string, offers: OffersIndex, errors: OfferError[]): void {
  if (text.trim() === "") return;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    if (text.trim().startsWith("{") && text.trim().includes("\n")) return readNdjson(text, offers, errors);
    errors.push({ line: 0, reason: "OFFER_PARSE", detail: error instanceof Error ? error.message : "invalid JSON" });
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
  entries.forEach((entry) => {
    // Non-object entries have no '{': report them at the previous object's line.
    const line = entry !== null && typeof entry === "object" && !Array.isArray(entry) ? (lines.shift() ?? lastLine) : lastLine;
    lastLine = line;
    readEntry(entry, line, offers, errors);
  });
}

function readNdjson(text: string, offers: OffersIndex, errors: OfferError[]): void {
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    let entry: unknown;
    try {
      entry = JSON.parse(raw);
    } catch (error) {
      errors.push({ line: i + 1, reason: "OFFER_PARSE", detail: error instanceof Error ? error.message : "invalid JSON" });
      return;
    }
    readEntry(entry, i + 1, offers, errors);
  });
}
