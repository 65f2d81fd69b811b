/**
 * A stale channel's answer from what is certain: the channel's report of left-out products
 * (reports/<channel>.csv, written by the last run whatever its gate said). Read once per query
 * for all the products asked about, streamed: reports of large catalogues run to megabytes.
 */
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse";
import { REPORTS_DIR } from "../core/layout.js";

export interface ReportedExclusion {
  reason: string;
  detail: string;
  otherReasons: string[];
}

/** The report's line of each of `ids` that has one; undefined when there is no readable report. */
export async function lookUpReport(outputDir: string, channel: string, ids: ReadonlySet<string>): Promise<Map<string, ReportedExclusion> | undefined> {
  const found = new Map<string, ReportedExclusion>();
  const file = createReadStream(join(outputDir, REPORTS_DIR, `${channel}.csv`));
  const parser = file.pipe(parse({ columns: true, relax_column_count: true, bom: true }));
  file.on("error", (error) => parser.destroy(error));
  try {
    for await (const record of parser as AsyncIterable<Record<string, string | undefined>>) {
      const id = record["id"];
      if (id === undefined || !ids.has(id)) continue;
      found.set(id, { reason: record["reason"] ?? "", detail: record["detail"] ?? "", otherReasons: (record["other_reasons"] ?? "").split("|").filter((r) => r !== "") });
      if (found.size === ids.size) break;
    }
  } catch {
    return undefined;
  } finally {
    file.destroy();
  }
  return found;
}
