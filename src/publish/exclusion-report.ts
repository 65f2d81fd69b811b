/**
 * reports/<channel>.csv: every product left out of a channel, with what a
 * catalogue team needs to find and fix it (GTIN, name in the channel's language,
 * brand) and every reason, the first in plain words. reports/<channel>.warnings.csv:
 * every warning and locale fallback of the items that were published. Written as
 * the run goes, through the same atomic output as the feeds.
 */
import type { ChannelMapping } from "../mapping/settings.js";
import { dropControlChars } from "../mapping/controls.js";
import { fallbackDetail, reasonDetail } from "../mapping/reason-details.js";
import type { Reason } from "../mapping/reasons.js";
import { rowStringifier } from "../writers/csv.js";
import { AtomicOutput } from "../core/atomic-output.js";


export const REPORT_COLUMNS = ["id", "gtin", "name", "brand", "reason", "detail", "other_reasons"] as const;
export const WARNING_COLUMNS = ["id", "gtin", "name", "brand", "kind", "code", "detail"] as const;

/** The warnings report's name beside reports/<channel>.csv. */
export function warningsReportName(channel: string): string {
  return `${channel}.warnings.csv`;
}

/** Who a report line is about. */
export interface ReportProduct {
  id: string;
  gtin: string | undefined;
  /** In the channel's language (or its fallback). */
  name: string | undefined;
  brand: string | undefined;
}

const cells = (p: ReportProduct): string[] => [p.id, p.gtin ?? "", p.name ?? "", p.brand ?? ""];

/**
 * `line` of the cells, each rid of the characters no feed carries either (mapping/controls.ts): a
 * catalogue's text can hold NUL and the like, and CSV readers (spreadsheets, csv-parse, Python's
 * csv) refuse a file with a NUL. The feeds drop them the same way. The array is the caller's own.
 */
function printable(line: (cells: string[]) => string, values: string[]): string {
  for (let i = 0; i < values.length; i++) values[i] = dropControlChars(values[i]!);
  return line(values);
}

/** The reason columns of an exclusion's line: the first reason (counted) in plain words, the others' codes. */
export interface ExclusionCells {
  code: string;
  detail: string;
  others: string;
}

export function exclusionCells(reasons: readonly Reason<string>[], settings: ChannelMapping): ExclusionCells {
  const first = reasons[0];
  let others = "";
  for (let i = 1; i < reasons.length; i++) others += (i > 1 ? "|" : "") + reasons[i]!.code;
  return { code: first?.code ?? "", detail: first ? reasonDetail(first, settings) : "", others };
}

/** A report's CSV line for one excluded product, of its reason columns (exclusionCells). */
export function exclusionLineOf(line: (cells: string[]) => string, product: ReportProduct, reason: ExclusionCells): string {
  const values = cells(product);
  values.push(reason.code, reason.detail, reason.others);
  return printable(line, values);
}

/** A report's CSV line for one excluded product: the first reason is the one counted; the others are listed for the reader. */
export function exclusionLine(line: (cells: string[]) => string, product: ReportProduct, reasons: readonly Reason<string>[], settings: ChannelMapping): string {
  return exclusionLineOf(line, product, exclusionCells(reasons, settings));
}

/** The warnings report's lines for one published item ("" when it has none). */
export function warningLines(
  line: (cells: string[]) => string,
  product: ReportProduct,
  warnings: readonly Reason<string>[],
  fallbacks: Record<string, string>,
  settings: ChannelMapping,
): string {
  let out = "";
  for (const w of warnings) out += printable(line, [...cells(product), "warning", w.code, reasonDetail(w, settings)]);
  for (const field in fallbacks) out += printable(line, [...cells(product), "fallback", field, fallbackDetail(field, fallbacks[field]!, settings)]);
  return out;
}

export class ExclusionReport {
  private readonly out: AtomicOutput;
  readonly file: string;
  /** The header line's bytes: the products' lines follow, in catalogue order (a refresh copies them, see src/rowcache/). */
  readonly headerBytes: number;

  /** The lines come from exclusionLine() or warningLines(), in the thread that mapped the products (pipeline/channel-mapper.ts). */
  constructor(file: string, columns: readonly string[] = REPORT_COLUMNS) {
    this.file = file;
    this.out = new AtomicOutput(file);
    const header = rowStringifier({})([...columns]);
    this.headerBytes = Buffer.byteLength(header);
    // One short line into an empty block: no flush, so nothing to wait for; a failure of the file
    // is the output's and finish() reports it.
    void this.out.write(header)?.catch(() => undefined);
  }

  /** A line made by exclusionLine(). */
  addLine(line: string): Promise<void> | undefined {
    return line === "" ? undefined : this.out.write(line);
  }

  /** Lines made by exclusionLine() elsewhere (a worker thread), UTF-8. */
  addBytes(lines: Uint8Array): Promise<void> | undefined {
    return this.out.writeBytes(lines);
  }

  async publish(): Promise<void> {
    await this.out.finish();
    await this.out.publish();
  }

  abort(): Promise<void> {
    return this.out.abort();
  }
}
