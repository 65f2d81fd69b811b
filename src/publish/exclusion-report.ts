/**
 * reports/<channel>.csv: every product left out of a channel, with its reason
 * code and detail, so that the catalogue team can fix the data. Written as the
 * run goes, through the same atomic output as the feeds.
 */
import type { Reason } from "../mapping/reasons.js";
import { rowStringifier } from "../writers/csv.js";
import { AtomicOutput } from "./atomic-output.js";

/** Folder of the reports, inside the output directory. */
export const REPORTS_DIR = "reports";

export const REPORT_COLUMNS = ["id", "reason", "detail", "other_reasons"] as const;

/** A report's CSV line for one excluded product: the first reason is the one counted; the others are listed for the reader. */
export function exclusionLine(line: (cells: string[]) => string, productId: string, reasons: readonly Reason<string>[]): string {
  const [first, ...others] = reasons;
  return line([productId, first?.code ?? "", first?.detail ?? "", others.map((r) => r.code).join("|")]);
}

export class ExclusionReport {
  private readonly out: AtomicOutput;

  /** The lines come from exclusionLine(), in the thread that mapped the products (pipeline/channel-mapper.ts). */
  constructor(file: string) {
    this.out = new AtomicOutput(file);
    this.out.write(rowStringifier({})([...REPORT_COLUMNS]));
  }

  /** A line made by exclusionLine(). */
  addLine(line: string): Promise<void> | undefined {
    return this.out.write(line);
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
