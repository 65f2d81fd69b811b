/**
 * reports/google-issues.csv: one line per product and issue Google reported, in Google's
 * words, beside the feeds' own reports of products pharmafeed left out (reports/<channel>.csv).
 * `source` says whose verdict it is, so that the two are never confused. An issue Google
 * lists per reporting context is one line, its contexts in `contexts` (space-separated).
 */
import { join } from "node:path";
import { stringify } from "csv-stringify/sync";
import { AtomicOutput } from "../core/atomic-output.js";
import { MerchantStore } from "./store.js";
import { REPORTS_DIR } from "../core/layout.js";

export const ISSUES_REPORT = "google-issues.csv";
export const ISSUE_COLUMNS = ["channel", "id", "google_status", "countries", "contexts", "severity", "code", "attribute", "description", "detail", "documentation", "source"] as const;

export async function writeIssuesReport(outputDir: string): Promise<number> {
  const store = MerchantStore.open(outputDir);
  const out = new AtomicOutput(join(outputDir, REPORTS_DIR, ISSUES_REPORT));
  let lines = 0;
  try {
    await out.write(stringify([[...ISSUE_COLUMNS]]));
    for (const v of store?.withIssues() ?? []) {
      const rows = v.issues.map((i) => [v.channel, v.offerId, v.state, i.applicableCountries.join(" "), i.contexts.join(" "), i.severity, i.code, i.attribute ?? "", i.description ?? "", i.detail ?? "", i.documentation ?? "", "google"]);
      lines += rows.length;
      await out.write(stringify(rows));
    }
    await out.finish();
    await out.publish();
  } catch (error) {
    await out.abort();
    throw error;
  } finally {
    store?.close();
  }
  return lines;
}
