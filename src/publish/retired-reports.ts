/**
 * A retired channel's reports (reports/<channel>.csv and its warnings report) go with it: the
 * status page and a manager's file browser would otherwise keep showing reports of a feed that is
 * no longer served. Removed after the manifest that no longer lists the channel; a failure is
 * logged, never a reason for the run to fail.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../log.js";
import { warningsReportName } from "./exclusion-report.js";
import { REPORTS_DIR } from "../core/layout.js";

export async function removeRetiredReports(outputDir: string, channels: readonly string[], logger: Logger): Promise<void> {
  await Promise.all(
    channels.flatMap((channel) =>
      [`${channel}.csv`, warningsReportName(channel)].map((name) =>
        rm(join(outputDir, REPORTS_DIR, name), { force: true }).catch((error: unknown) => logger.warn("report of a retired channel not removed", { channel, error: (error as Error).message })),
      ),
    ),
  );
}
