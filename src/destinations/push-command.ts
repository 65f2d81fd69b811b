/**
 * The work of `pharmafeed push` (src/commands/push.ts holds its flags): under
 * the run lock, the manifest's live files of each channel go to its
 * destinations; the manifest is rewritten with the records; a failure is the
 * RUN_DEGRADED error (exit 8) and alerts like a run's.
 */
import type { LoadedConfig } from "../config/types.js";
import { exitCodeFor, PharmafeedError } from "../errors.js";
import type { Logger } from "../log.js";
import { notify, runAlert } from "../notify/index.js";
import { acquireLock } from "../publish/lock.js";
import { readManifest } from "../publish/manifest.js";
import { pushFromManifest } from "./after-publish.js";
import { recordLine } from "../publish/destination-record.js";

export interface PushOutcome {
  /** What went (or would go), for stdout. */
  text: string;
  error?: PharmafeedError;
}

export async function runPush(input: { config: LoadedConfig; outputDir: string; dryRun: boolean; force: boolean; logger: Logger }): Promise<PushOutcome> {
  const { config, outputDir, logger } = input;
  if (!config.channels.some((c) => c.destinations.length > 0)) {
    return { text: "", error: new PharmafeedError("USAGE", "no channel of this config has destinations (see docs/destinations.md)") };
  }
  const lock = await acquireLock(outputDir, { ...(config.lock ? { staleAfterMs: config.lock.staleAfterMs } : {}) });
  try {
    const manifest = await readManifest(outputDir);
    if (!manifest) return { text: "", error: new PharmafeedError("USAGE", `nothing published in ${outputDir} yet: run pharmafeed generate first`) };
    const { manifest: updated, jobs, result } = await pushFromManifest({ config, outputDir, manifest, logger, dryRun: input.dryRun, force: input.force });
    const lines: string[] = [];
    for (const job of jobs) {
      for (const record of result.records.get(job.channel) ?? []) {
        if (input.dryRun) {
          const what = record.uploaded === 0 ? "nothing (unchanged)" : `${record.uploaded} file${record.uploaded === 1 ? "" : "s"}, ${record.uploadedBytes} bytes`;
          lines.push(`would upload: ${job.channel}: ${record.name}: ${what}${record.ok ? "" : ` (${record.reason ?? ""})`}`);
        } else lines.push(`upload: ${job.channel}: ${recordLine(record)}`);
      }
    }
    const skipped = config.channels.filter((c) => c.destinations.length > 0 && !jobs.some((j) => j.channel === c.name));
    for (const c of skipped) lines.push(`upload: ${c.name}: nothing published yet`);
    const text = lines.length > 0 ? `${lines.join("\n")}\n` : "";
    if (input.dryRun || result.problems.length === 0) return { text };
    const error = new PharmafeedError("RUN_DEGRADED", `the feeds are published, but: ${result.problems.map((p) => `${p.channel ?? "run"}: ${p.reason}`).join("; ")}`);
    const alert = runAlert({
      shop: config.shop.name,
      ...(config.notify?.statusUrl ? { statusUrl: config.notify.statusUrl } : {}),
      manifest: updated,
      channels: config.channels.map((c) => c.name),
      error: { code: error.code, message: error.message },
      exitCode: exitCodeFor(error),
    });
    await notify(config.notify, alert, logger);
    return { text, error };
  } finally {
    await lock.release();
  }
}
