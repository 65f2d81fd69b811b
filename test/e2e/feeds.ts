/**
 * Reading what a run published, with the independent readers of the writer
 * tests (never the code that wrote it), plus the checks the tests share:
 * GS1 check digits, item ids per layout, directory snapshots.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { gunzipSync } from "node:zlib";
import { parse as parseCsv } from "csv-parse/sync";
import { readJson, readNdjson, readTsv, readXml, readCsv, type Row } from "../writers/read-back.js";

/** The manifest as the tests read it: plain JSON, not through the code's zod schema. */
export interface ManifestEntry {
  name: string;
  preset: string;
  locale: string;
  format: string;
  file: string;
  items: number;
  excluded: Record<string, number>;
  /** Products left out by a health policy row, by the row's key. */
  policy?: Record<string, number>;
  bytes: number;
  sha256: string;
  published: true | string;
  report?: string;
  live: { file: string; items: number; bytes: number; sha256: string; publishedAt: string; gzip?: { file: string; bytes: number } } | null;
}
export interface ManifestJson {
  version: number;
  startedAt: string;
  endedAt: string;
  status: string;
  error?: { code: string; message: string };
  offers?: { file: string; accepted: number; refused: number };
  source: { total: number | null; received: number; rejected: number; retries: number; resumes: number };
  channels: ManifestEntry[];
}

export async function readManifestJson(outputDir: string): Promise<ManifestJson> {
  return JSON.parse(await readFile(join(outputDir, "manifest.json"), "utf8")) as ManifestJson;
}

export function parseFeed(text: string, format: string): Row[] {
  switch (format) {
    case "xml":
      return readXml(text).items;
    case "csv":
      return readCsv(text, csvDelimiter(text));
    case "tsv":
      return readTsv(text);
    case "json":
      return readJson(text);
    case "ndjson":
      return readNdjson(text);
    default:
      throw new Error(`unknown feed format ${format}`);
  }
}

/**
 * The delimiter of a CSV feed, from its header line: `,` for most presets, `;` (medizinfuchs), a
 * tab (billiger). Header names hold none of them, so the one the header line has is the one.
 */
export function csvDelimiter(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/));
  return [",", ";", "\t"].find((d) => header.includes(d)) ?? ",";
}

/** Where each built-in layout puts the item id. */
export const ID_FIELD: Record<string, string> = {
  google: "g:id",
  microsoft: "g:id",
  "meta-xml": "g:id",
  "google-tsv": "id",
  meta: "id",
  idealo: "sku",
  kelkoo: "offer-id",
  beslist: "code",
  medizinfuchs: "id",
  billiger: "aid",
  "idealo-de": "sku",
  "generic-csv": "id",
  "generic-json": "id",
  "generic-ndjson": "id",
};

export function itemId(row: Row, preset: string): string {
  const field = ID_FIELD[preset];
  if (field === undefined) throw new Error(`no id field known for preset ${preset}`);
  const value = row[field];
  if (typeof value !== "string" || value === "") throw new Error(`item without ${field} in a ${preset} feed: ${JSON.stringify(row).slice(0, 200)}`);
  return value;
}

/**
 * RFC 4180 as strict consumers (Excel, Python's csv, most marketplace importers)
 * read it, with CRLF records: outside quotes a CR or LF may only appear as the
 * CRLF ending a record, and a quote only opens a field. csv-parse accepts a bare
 * LF inside an unquoted field once it has seen CRLF, so it cannot catch this.
 * Returns undefined, or where the first problem is. The delimiter is the header line's.
 */
export function rfc4180Problem(text: string, delimiter = csvDelimiter(text)): string | undefined {
  let line = 1;
  let inQuotes = false;
  let fieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"' && text[i + 1] === '"') i++;
      else if (c === '"') inQuotes = false;
      else if (c === "\n") line++;
      continue;
    }
    if (c === '"') {
      if (!fieldStart) return `line ${line}: a quote inside an unquoted field`;
      inQuotes = true;
    } else if (c === "\r") {
      if (text[i + 1] !== "\n") return `line ${line}: a bare CR outside quotes`;
    } else if (c === "\n") {
      if (text[i - 1] !== "\r") return `line ${line}: a bare LF outside quotes (a value with a line break is not quoted)`;
      line++;
    }
    fieldStart = c === delimiter || c === "\n";
  }
  return inQuotes ? "an unterminated quoted field" : undefined;
}

/** GS1 mod-10 check digit, written here from the GS1 definition (not the mapping's code). */
export function hasValidCheckDigit(code: string): boolean {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop()!;
  let sum = 0;
  // Weights 3, 1, 3, ... from the digit next to the check digit.
  digits.reverse().forEach((d, i) => (sum += d * (i % 2 === 0 ? 3 : 1)));
  return (10 - (sum % 10)) % 10 === check;
}

export function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

export function gunzip(data: Buffer): Buffer {
  return gunzipSync(data);
}

/** reports/<channel>.csv as rows (id, reason, detail, other_reasons). */
export async function readReport(outputDir: string, channel: string): Promise<Row[]> {
  const text = await readFile(join(outputDir, "reports", `${channel}.csv`), "utf8");
  return parseCsv(text, { columns: true, relax_quotes: false, relax_column_count: false }) as Row[];
}

/** Every file under `dir` (relative path -> sha256), for "nothing changed" checks. */
export async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(at: string): Promise<void> {
    let names: string[];
    try {
      names = await readdir(at);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const path = join(at, name);
      if ((await stat(path)).isDirectory()) await walk(path);
      else out.set(relative(dir, path), sha256(await readFile(path)));
    }
  }
  await walk(dir);
  return out;
}

export type { Row };
