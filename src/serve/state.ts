/**
 * The last fetch of each feed by each marketplace, kept in memory and saved to
 * output/serve-state.json now and then (and on shutdown) so that the status
 * page still knows after a restart. A file that does not parse is ignored:
 * this is a convenience, never a reason not to serve.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { Logger } from "../log.js";
import { marketplaceOf } from "./bots.js";
import { replaceFile } from "../core/atomic-file.js";
import { SERVE_STATE_FILE } from "../core/layout.js";

/** `verified`: the marketplace's documented check passed (bot-verify.ts); absent in files saved before it existed. */
const Fetch = z.object({ at: z.string(), status: z.number().int(), userAgent: z.string(), verified: z.boolean().optional() });
export type Fetch = z.infer<typeof Fetch>;

const StateFile = z.object({
  version: z.literal(1),
  savedAt: z.string(),
  /** channel -> marketplace id -> last fetch */
  fetches: z.record(z.string(), z.record(z.string(), Fetch)),
});

export function unverifiedKey(marketplaceId: string): string {
  return `${marketplaceId}:unverified`;
}

export class FetchState {
  private fetches: Record<string, Record<string, Fetch>> = {};
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly outputDir: string,
    private readonly logger: Logger,
  ) {}

  get file(): string {
    return join(this.outputDir, SERVE_STATE_FILE);
  }

  async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch {
      return; // first start
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = StateFile.safeParse(json);
    if (parsed.success) this.fetches = parsed.data.fetches;
    else this.logger.warn("serve-state.json ignored: not a state file of this version", { file: this.file });
  }

  /**
   * Records a feed request when its User-Agent is a known marketplace's. Verified and unverified
   * fetches are kept apart (`<id>` and `<id>:unverified`), so that a stranger sending Google's
   * User-Agent never hides when Google itself last fetched.
   */
  record(channel: string, userAgent: string | undefined, status: number, at: Date, verified = false): void {
    const marketplace = marketplaceOf(userAgent);
    if (!marketplace || userAgent === undefined) return;
    const key = verified ? marketplace.id : unverifiedKey(marketplace.id);
    (this.fetches[channel] ??= {})[key] = { at: at.toISOString(), status, userAgent: userAgent.slice(0, 200), verified };
    this.dirty = true;
  }

  lastFetches(channel: string): Readonly<Record<string, Fetch>> {
    return this.fetches[channel] ?? {};
  }

  /** Saves every `everyMs` while something changed. */
  startSaving(everyMs: number): void {
    this.timer = setInterval(() => void this.save(), everyMs);
    this.timer.unref();
  }

  /** Written to a hidden temporary name and renamed, like every file of the output directory. */
  save(): Promise<void> {
    if (!this.dirty) return this.saving;
    this.dirty = false;
    const text = `${JSON.stringify({ version: 1, savedAt: new Date().toISOString(), fetches: this.fetches }, null, 2)}\n`;
    this.saving = this.saving.then(async () => {
      try {
        await replaceFile(this.file, text);
      } catch (error) {
        // e.g. a generate run starting just then removed the temporary as a dead one; the next save retries.
        this.dirty = true;
        this.logger.warn("could not save serve-state.json", { error: (error as Error).message });
      }
    });
    return this.saving;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.save();
  }
}
