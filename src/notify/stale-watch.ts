/**
 * `serve` looks now and then whether the feeds went stale (the newest one older
 * than serve.maxFeedAgeHours: the nightly job stopped publishing). It logs and
 * alerts once when an episode begins, and logs when it ends; a restart of
 * `serve` during an episode alerts again.
 */
import type { Logger } from "../log.js";
import type { Manifest } from "../publish/manifest.js";
import { runState } from "../publish/run-state.js";
import { notify, staleAlert } from "./index.js";
import type { NotifySettings } from "./settings.js";

export interface StaleWatchOptions {
  manifest: () => Promise<Manifest | undefined>;
  maxFeedAgeHours: number;
  shop: string;
  notify: NotifySettings | undefined;
  logger: Logger;
  now: () => Date;
}

export class StaleWatch {
  private stale = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: StaleWatchOptions) {}

  /** One check; concurrent calls share it. */
  check(): Promise<void> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<void> {
    const { logger } = this.options;
    const manifest = await this.options.manifest();
    // Before the first run there is nothing to go stale.
    if (!manifest) return;
    const now = this.options.now();
    const state = runState(manifest, now, this.options.maxFeedAgeHours);
    if (state.status !== "stale") {
      if (this.stale) logger.info("feeds are fresh again", { newestFeedAt: state.newestFeedAt });
      this.stale = false;
      return;
    }
    if (this.stale) return;
    this.stale = true;
    logger.warn("feeds are stale", { newestFeedAt: state.newestFeedAt, newestFeedAgeHours: state.newestFeedAgeHours, maxFeedAgeHours: state.maxFeedAgeHours });
    const settings = this.options.notify;
    const alert = staleAlert({ shop: this.options.shop, ...(settings?.statusUrl ? { statusUrl: settings.statusUrl } : {}), state, manifest, now, ...(settings ? { language: settings.language } : {}) });
    await notify(settings, alert, logger);
  }

  start(everyMs: number): void {
    void this.check().catch(() => {});
    this.timer = setInterval(() => void this.check().catch((error: unknown) => this.options.logger.warn("stale check failed", { error: (error as Error).message })), everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => {});
  }
}
