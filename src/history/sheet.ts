/**
 * A kept version's item sheet: output/history/feeds/<sha256>.items.gz, one line per item of that
 * version of the feed: its published id, its name, and what "what changed?" compares of it
 * (mapping/item-facts.ts): the price the shopper pays, availability, and hashes of the title, the
 * link and the main photo. `pharmafeed diff`, the status page and the price gate read these, never
 * the feed itself: a feed of any layout (CSV, XML, JSON, a custom template) has the same sheet.
 *
 *   {"sheet":1,"sha256":"<the version's digest>","items":<lines that follow>}
 *   ["<catalogue id>",["<14-digit code>",...],"<name>",<cents>,"<currency>","<availability>",<title>,<link>,<image>(,"<published id>")]
 *
 * The catalogue id and codes let the next run find the price a product was last published at
 * (last-prices.ts), whatever id the channel published it under.
 *
 * Kept state is checked before use: the first line names the version and how many lines follow,
 * gzip's CRC covers the bytes; a sheet that is not whole is not used (and is removed).
 */
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { createGunzip } from "node:zlib";
import { FEED_HISTORY_DIR } from "../core/layout.js";

export const SHEET_VERSION = 1;

export function sheetPath(outputDir: string, sha256: string): string {
  return join(outputDir, FEED_HISTORY_DIR, `${sha256}.items.gz`);
}

/** One item of a sheet. */
export interface SheetItem {
  /** The id the feed carries. */
  id: string;
  catalogueId: string;
  /** The product's valid codes (GTIN, CIP13) as 14-digit keys. */
  codes: string[];
  name: string;
  cents: number;
  currency: string;
  availability: string;
  title: number;
  link: number;
  image: number;
}

/** A sheet line's item; undefined for a line that is not one. */
export function parseSheetLine(line: string): SheetItem | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!Array.isArray(v) || v.length < 9) return undefined;
  const [catalogueId, codes, name, cents, currency, availability, title, link, image, publishedId] = v as unknown[];
  if (typeof catalogueId !== "string" || !Array.isArray(codes) || !codes.every((c) => typeof c === "string")) return undefined;
  if (typeof name !== "string" || typeof cents !== "number" || typeof currency !== "string" || typeof availability !== "string") return undefined;
  if (typeof title !== "number" || typeof link !== "number" || typeof image !== "number") return undefined;
  return { id: typeof publishedId === "string" ? publishedId : catalogueId, catalogueId, codes: codes as string[], name, cents, currency, availability, title, link, image };
}

/** The first line of a sheet. */
export function sheetHeader(sha256: string, items: number): string {
  return JSON.stringify({ sheet: SHEET_VERSION, sha256, items });
}

/** Calls `onLine` with every line of a text stream (the last one without its "\n"). */
export async function eachLine(stream: AsyncIterable<string>, onLine: (line: string) => void): Promise<void> {
  let rest = "";
  for await (const chunk of stream) {
    const text = rest + chunk;
    let start = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
      onLine(text.slice(start, nl));
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  if (rest !== "") onLine(rest);
}

function parseHeader(text: string): { sheet?: unknown; sha256?: unknown; items?: unknown } | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === "object" ? (v as { sheet?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

export type SheetRead = { ok: true; items: number } | { ok: false; why: string };

/**
 * Reads the sheet of version `sha256` (gzipped, as kept), calling `onLine` with each item's line
 * (parseSheetLine reads one). Not ok when there is none, it is not this version's, or not whole
 * (then lines already given must be dropped by the caller).
 */
export async function readSheetLines(outputDir: string, sha256: string, onLine: (line: string) => void): Promise<SheetRead> {
  const file = sheetPath(outputDir, sha256);
  const seen: { header?: { sheet?: unknown; sha256?: unknown; items?: unknown }; items: number; bad?: string } = { items: 0 };
  const line = (text: string): void => {
    if (seen.bad !== undefined) return;
    if (seen.header === undefined) {
      const header = parseHeader(text);
      seen.header = header ?? {};
      if (header?.sheet !== SHEET_VERSION || header.sha256 !== sha256) seen.bad = "its first line is not this version's sheet header";
      return;
    }
    seen.items++;
    onLine(text);
  };
  try {
    // pipe() does not pass the file's errors on (a missing sheet would leave the reader waiting forever).
    // Large chunks: a line split out of a 16 KB chunk joined to the last one's rest cost twice the time.
    const input = createReadStream(file, { highWaterMark: 1 << 18 });
    const stream = createGunzip({ chunkSize: 1 << 18 });
    input.on("error", (error) => stream.destroy(error));
    input.pipe(stream);
    stream.setEncoding("utf8");
    await eachLine(stream, line);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, why: code === "ENOENT" ? "no item sheet is kept for this version (kept before pharmafeed kept sheets, or pruned)" : `its item sheet is damaged (${(error as Error).message})` };
  }
  if (seen.bad !== undefined) return { ok: false, why: `its item sheet is damaged: ${seen.bad}` };
  if (seen.header?.items !== seen.items) return { ok: false, why: `its item sheet is damaged: ${seen.items} items, the header says ${String(seen.header?.items)}` };
  return { ok: true, items: seen.items };
}

/** As readSheetLines, each line parsed; a line that is not an item makes the sheet not ok. */
export async function readSheet(outputDir: string, sha256: string, onItem: (item: SheetItem) => void): Promise<SheetRead> {
  let bad: string | undefined;
  let n = 0;
  const read = await readSheetLines(outputDir, sha256, (line) => {
    n++;
    if (bad !== undefined) return;
    const item = parseSheetLine(line);
    if (item === undefined) bad = `line ${n + 1} is not an item`;
    else onItem(item);
  });
  if (!read.ok) return read;
  return bad === undefined ? read : { ok: false, why: `its item sheet is damaged: ${bad}` };
}
