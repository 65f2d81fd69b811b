/**
 * How a run feeds its state log and the explain index, with a few lines in run.ts,
 * channel-run.ts and shard/dispatch.ts:
 *
 *   dispatch ── product(entry) ... close(until) ┐  (catalogue order)
 *   ChannelRun i ── item/excluded/failed ───────┼─> pending products ─> in order, once every channel said:
 *                                               │     the state log's line (src/rowcache/record.ts)
 *   run.ts ── commit(entries) / abort() ────────┘     ─> the index's keys, pointing at that line
 *
 * Every channel sees the products in catalogue order, but a channel that processes
 * images says what it did only when the images are ready; so a product waits here
 * until every channel has spoken. The image FIFO is bounded, so this queue is too.
 * A channel that fails stops speaking: its outcomes are left empty (null).
 *
 * Each outcome is packed once (entry.ts Outcome), as its JSON text (a worker sends it
 * so), and kept in the log only: the index holds a product's keys (id, codes, name
 * words) and where its line is, so the same outcome is not packed, serialized and
 * stored twice.
 */
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { crashPoint } from "../core/crash-point.js";
import { fileIdentity } from "../publish/file-identity.js";
import type { Logger } from "../log.js";
import type { ChannelEntry } from "../publish/manifest.js";
import type { IndexProduct } from "./entry.js";
import { explainFile, ExplainIndexWriter } from "./store.js";
import type { LinePosition } from "../rowcache/file.js";

/** What a ChannelRun tells the index. */
export interface ChannelSink {
  /** A product's outcome as its JSON text, its row's offset set (entry.ts; ChannelRun.emit gives it, whatever the road). */
  text(outcome: string): void;
  failed(): void;
}

/** Who writes the state log (src/rowcache/record.ts): told of every product once every channel has spoken. */
export interface ProductListener {
  /** `offer`: the offer fingerprint recorded for a copied product. Returns where the product's line is, undefined when the log is not written. */
  add(product: IndexProduct, ordinal: number, until: number, outcomes: readonly string[], offer?: string): LinePosition | undefined;
}

/** Told of every product too, with nothing to return (the feed history's item sheets, src/history/). */
export interface ProductObserver {
  seen(product: IndexProduct, outcomes: readonly string[]): void;
}

interface Pending {
  product: IndexProduct;
  /** The product's line number in the run's source (0-based), and until when its rows stay right (mapping/clock.ts). */
  ordinal: number;
  until: number;
  /** A copied product's offer fingerprint, as recorded. */
  offer: string | undefined;
  /** Per channel, its outcome's JSON text ("null": the channel failed). */
  outcomes: string[];
  /** Channels still to speak, plus one until the product is closed (its horizon known). */
  waiting: number;
}

export class ExplainHook {
  private readonly pending: Pending[] = [];
  /** Position in `pending` of the next product each channel will speak about (relative to `base`). */
  private readonly cursor: number[];
  private readonly dead: boolean[];
  private base = 0;
  private failure: Error | undefined;
  /** Told of every product too (the row cache's writer); a failure there is its own (logged, see listen()). */
  private listener: ProductListener | undefined;
  private readonly observers: ProductObserver[] = [];

  private constructor(
    /** None on a dry run: the products are still put in order for the observers (its item sheets, so its price gate). */
    private readonly writer: ExplainIndexWriter | undefined,
    private readonly channels: number,
    private readonly logger: Logger,
    /** Told when the index cannot be written (run.ts: a "state" problem; the previous index stays). */
    private readonly onFailure: (error: Error) => void,
  ) {
    this.cursor = new Array<number>(channels).fill(0);
    this.dead = new Array<boolean>(channels).fill(false);
  }

  /**
   * undefined when the index cannot be started (logged: feeds matter more). A dry run's hook writes
   * no index (nothing of it is kept) but hears every product all the same: the feed history's item
   * sheets are compared with the live feeds', so that a dry run says what the price gate would do.
   */
  static async open(outputDir: string, channels: number, logger: Logger, dryRun: boolean, onFailure: (error: Error) => void = () => {}): Promise<ExplainHook | undefined> {
    if (dryRun) return new ExplainHook(undefined, channels, logger, onFailure);
    const file = explainFile(outputDir);
    try {
      await mkdir(dirname(file), { recursive: true });
      return new ExplainHook(await ExplainIndexWriter.create(file), channels, logger, onFailure);
    } catch (error) {
      logger.warn("explain index not written", { error: (error as Error).message });
      onFailure(error as Error);
      return undefined;
    }
  }

  listen(listener: ProductListener): void {
    this.listener = listener;
  }

  observe(observer: ProductObserver): void {
    this.observers.push(observer);
  }

  /**
   * The next product of the stream, before any channel speaks of it: `ordinal`, its line in the
   * source; `until`, its rows' horizon when known (a worker mapped it), else close() gives it;
   * `offer`, a copied product's recorded offer fingerprint.
   */
  product(product: IndexProduct, ordinal: number, until?: number, offer?: string): void {
    let waiting = until === undefined ? 1 : 0;
    for (const d of this.dead) if (!d) waiting++;
    this.pending.push({ product, ordinal, until: until ?? Infinity, offer, outcomes: new Array<string>(this.channels).fill("null"), waiting });
    this.drain();
  }

  /** The last product given without a horizon has been mapped by every channel: this is its horizon. */
  close(until: number): void {
    const entry = this.pending.at(-1);
    if (!entry) return;
    entry.until = until;
    entry.waiting--;
    this.drain();
  }

  channel(index: number): ChannelSink {
    return {
      text: (outcome) => this.speak(index, outcome),
      failed: () => {
        if (this.dead[index]) return;
        this.dead[index] = true;
        for (let i = this.cursor[index]! - this.base; i < this.pending.length; i++) if (i >= 0) this.pending[i]!.waiting--;
        this.drain();
      },
    };
  }

  private speak(index: number, outcome: string): void {
    if (this.dead[index]) return;
    const entry = this.pending[this.cursor[index]!++ - this.base];
    if (!entry) return;
    entry.outcomes[index] = outcome;
    entry.waiting--;
    this.drain();
  }

  /** Logs and indexes the products every channel has spoken of, in order. */
  private drain(): void {
    while (this.pending.length > 0 && this.pending[0]!.waiting <= 0) {
      const entry = this.pending.shift()!;
      this.base++;
      const line = this.listener?.add(entry.product, entry.ordinal, entry.until, entry.outcomes, entry.offer);
      for (const observer of this.observers) observer.seen(entry.product, entry.outcomes);
      if (this.failure || !this.writer) continue;
      try {
        // The index points into the log: without its line, the product cannot be explained.
        if (!line) throw new Error("the state log (rows.ndjson) it points into was not written");
        this.writer.add(entry.product, line);
      } catch (error) {
        this.failure = error as Error;
        this.logger.warn("explain index not written", { error: this.failure.message });
        this.onFailure(this.failure);
      }
    }
  }

  /**
   * After every channel was published (or not). Every product still pending is logged and indexed;
   * then `log()` commits the state log and gives its digest, which the index records: explain uses
   * the index with that very log only. The index names each channel's file, its digest and, once
   * published, its identity on disk, so that explain reads rows from that very file only.
   */
  async commit(outputDir: string, startedAt: string, entries: readonly ChannelEntry[], log: () => Promise<string | undefined>): Promise<void> {
    for (const entry of this.pending) entry.waiting = 0;
    this.drain();
    if (!this.writer) return;
    const digest = await log();
    // A test hook: a kill here leaves this run's log beside the last run's index (store.ts refuses the pair).
    crashPoint("state-log");
    if (!this.failure && digest === undefined) {
      this.failure = new Error("the state log (rows.ndjson) it points into was not written");
      this.onFailure(this.failure);
    }
    if (this.failure || digest === undefined) return this.writer.abort();
    try {
      const channels = await Promise.all(
        entries.map(async (e) => ({
          name: e.name, file: e.file, locale: e.locale, format: e.format, published: e.published, bytes: e.bytes, sha256: e.sha256,
          ...(e.published === true ? await fileIdentity(join(outputDir, e.file)).then((identity) => ({ identity }), () => ({})) : {}),
        })),
      );
      await this.writer.commit({ startedAt, channels }, digest);
    } catch (error) {
      this.logger.warn("explain index not written", { error: (error as Error).message });
      this.onFailure(error as Error);
    }
  }

  async abort(): Promise<void> {
    await this.writer?.abort();
  }
}
