/**
 * The run's one seam to the Merchant API (pipeline/run.ts): after the feeds are
 * published, read Google's statuses back for the run's feeds that have an account.
 * What fails comes back as Problems (kind "merchant"): the run is degraded, never failed.
 */
import type { LoadedConfig } from "../config/types.js";
import type { Logger } from "../log.js";
import type { Problem } from "../publish/manifest.js";

export interface AfterRunOptions {
  config: LoadedConfig;
  outputDir: string;
  logger: Logger;
  dryRun: boolean;
  signal?: AbortSignal;
}

export async function merchantAfterRun(options: AfterRunOptions): Promise<Problem[]> {
  const channels = options.config.channels.flatMap((c) => (c.merchant?.settings.readAfterRun ? [c.merchant] : []));
  if (channels.length === 0 || options.dryRun) return [];
  const { syncMerchant } = await import("./sync.js");
  const result = await syncMerchant({ outputDir: options.outputDir, channels, logger: options.logger, ...(options.signal ? { signal: options.signal } : {}) });
  return result.problems;
}
