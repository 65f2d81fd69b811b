/**
 * The run's one seam to the Merchant API (a hook of pipeline/run.ts): after the feeds are
 * published, read Google's statuses back for the run's feeds that have an account,
 * and send the Merchant Center alerts (alerts.ts). What fails comes back as Problems
 * (kind "merchant"): the run is degraded, never failed.
 */
import type { LoadedConfig } from "../config/types.js";
import type { Logger } from "../log.js";
import { notify } from "../notify/index.js";
import type { ChannelEntry, Problem } from "../publish/manifest.js";
import type { AfterPublishHook } from "../publish/run-parts.js";
import { PUSHABLE_LAYOUTS } from "./push/values.js";
import { merchantAlerts } from "./alerts.js";
import type { MerchantChannel } from "./settings.js";
import type { SyncResult } from "./sync.js";

export interface AfterRunOptions {
  config: LoadedConfig;
  outputDir: string;
  logger: Logger;
  dryRun: boolean;
  /** The run's channel entries: only a published feed is pushed from. */
  entries: readonly ChannelEntry[];
  /** Where the run's products came from: a run that read the catalogue sets what Google is taken to have. */
  sourceUsed: "full" | "delta" | "snapshot";
  now: Date;
  signal?: AbortSignal;
}

/** Sends the alerts of a read-back (never throws: notify logs what it could not send). */
export async function sendMerchantAlerts(config: Pick<LoadedConfig, "notify" | "shop">, channels: readonly MerchantChannel[], result: SyncResult, logger: Logger, now = new Date()): Promise<void> {
  const alerts = merchantAlerts(result.feeds, result.previous, channels, { shop: config.shop.name, now, ...(config.notify ? { language: config.notify.language } : {}), ...(config.notify?.statusUrl ? { statusUrl: config.notify.statusUrl } : {}) });
  for (const alert of alerts) {
    logger.warn(alert.title, { event: alert.event, channels: alert.channels.map((c) => `${c.name}: ${c.reason}`).join("; ") });
    await notify(config.notify, alert, logger);
  }
}

/** The run's hook (publish/run-parts.ts): Google's work once the feeds are published. */
export function merchantHook(options: Omit<AfterRunOptions, "outputDir" | "dryRun" | "entries">): AfterPublishHook {
  return {
    name: "merchant",
    run: async ({ outputDir, dryRun, entries }) => ({ problems: await merchantAfterRun({ ...options, outputDir, dryRun, entries }) }),
  };
}

/** Intraday push first (Google gets today's prices sooner), then the read-back. */
async function merchantAfterRun(options: AfterRunOptions): Promise<Problem[]> {
  if (options.dryRun) return [];
  const problems: Problem[] = [];
  const published = new Map(options.entries.filter((e) => e.published === true).map((e) => [e.name, e.file]));
  const pushing = options.config.channels.flatMap((c) => {
    const file = published.get(c.name);
    const layout = (PUSHABLE_LAYOUTS as readonly string[]).includes(c.preset.name) ? (c.preset.name as (typeof PUSHABLE_LAYOUTS)[number]) : undefined;
    return c.merchant?.settings.push.enabled && file && layout ? [{ merchant: c.merchant, file, layout }] : [];
  });
  if (pushing.length > 0) {
    const { pushMerchant } = await import("./push/push.js");
    const pushed = await pushMerchant({ outputDir: options.outputDir, channels: pushing, fullRun: options.sourceUsed !== "snapshot", now: options.now, logger: options.logger });
    problems.push(...pushed.problems);
  }
  const channels = options.config.channels.flatMap((c) => (c.merchant?.settings.readAfterRun ? [c.merchant] : []));
  if (channels.length === 0) return problems;
  const { syncMerchant } = await import("./sync.js");
  const result = await syncMerchant({ outputDir: options.outputDir, channels, logger: options.logger, ...(options.signal ? { signal: options.signal } : {}) });
  await sendMerchantAlerts(options.config, channels, result, options.logger);
  return [...problems, ...result.problems];
}
