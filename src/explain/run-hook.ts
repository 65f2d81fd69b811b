/**
 * How a run feeds the explain index, with a few lines in run.ts, channel-run.ts
 * and shard/dispatch.ts:
 *
 *   dispatch ── product(entry) ... close(until) ┐  (catalogue order)
 *   ChannelRun i ── item/excluded/failed ───────┼─> pending products ─> index rows, in order
 *                                               │   (a product is written once every channel said)
 *   run.ts ── commit(entries) / abort() ────────┘   ─> and to the row cache (src/rowcache/), if any
 *
 * Every channel sees the products in catalogue order, but a channel that processes
 * images says what it did only when the images are ready; so a product waits here
 * until every channel has spoken. The image FIFO is bounded, so this queue is too.
 * A channel that fails stops speaking: its outcomes are left empty.
 */
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileIdentity } from "../publish/file-identity.js";
import type { Logger } from "../log.js";
import type { ChannelEntry } from "../publish/manifest.js";
import type { Reason } from "../mapping/reasons.js";
import { type ChannelOutcome, type IndexProduct, type ItemCopy, packOutcome, type PackedOutcome } from "./entry.js";
import { explainFile, ExplainIndexWriter } from "./store.js";

/** What a ChannelRun tells the index. */
export interface ChannelSink {
  item(offset: number, bytes: number, warnings: readonly Reason<string>[], fallbacks: Record<string, string>, copy: ItemCopy): void;
  excluded(reasons: readonly Reason<string>[], reportBytes: number): void;
  /** A product whose lines a refresh copied (src/rowcache/): its outcome already packed as the index keeps it. */
  copied(packed: PackedOutcome): void;
  failed(): void;
}

/** Who else hears of every product once every channel has spoken: the row cache's writer. */
export interface ProductListener {
  /** `recorded`: the product's entry as the last run recorded it, when its lines were copied (src/rowcache/reuse.ts). */
  add(product: IndexProduct, ordinal: number, until: number, outcomes: readonly (ChannelOutcome | undefined)[], recorded?: string): void;
}

interface Pending {
  product: IndexProduct;
  /** The product's line number in the run's source (0-based), and until when its rows stay right (mapping/clock.ts). */
  ordinal: number;
  until: number;
  recorded: string | undefined;
  outcomes: (ChannelOutcome | undefined)[];
  /** Outcomes of copied lines, packed already (a refresh's product gives these, and `recorded`). */
  packed?: (PackedOutcome | undefined)[];
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

  private constructor(
    private writer: ExplainIndexWriter,
    private readonly file: string,
    private readonly channels: number,
    private readonly logger: Logger,
    /** Told when the index cannot be written (run.ts: a "state" problem; the previous index stays). */
    private readonly onFailure: (error: Error) => void,
  ) {
    this.cursor = new Array<number>(channels).fill(0);
    this.dead = new Array<boolean>(channels).fill(false);
  }

  /** undefined on a dry run (nothing of it is published) or when the index cannot be started (logged: feeds matter more). */
  static async open(outputDir: string, channels: number, logger: Logger, dryRun: boolean, onFailure: (error: Error) => void = () => {}): Promise<ExplainHook | undefined> {
    if (dryRun) return undefined;
    const file = explainFile(outputDir);
    try {
      await mkdir(dirname(file), { recursive: true });
      return new ExplainHook(await ExplainIndexWriter.create(file), file, channels, logger, onFailure);
    } catch (error) {
      logger.warn("explain index not written", { error: (error as Error).message });
      onFailure(error as Error);
      return undefined;
    }
  }

  /**
   * Before any product: this run gives the same products in the same order as the run
   * `startedAt` (a refresh that copies rows), so the index is that run's copy with new
   * outcomes. false (and a full index) when the last index is not that run's.
   */
  async copyLast(startedAt: string, products: number): Promise<boolean> {
    if (!ExplainIndexWriter.isOfRun(this.file, startedAt, products)) return false;
    // The copy is built at the fresh writer's temporary name: that one goes first.
    await this.writer.abort();
    try {
      this.writer = await ExplainIndexWriter.copying(this.file);
      return true;
    } catch (error) {
      this.logger.warn("explain index not copied, written in full", { error: (error as Error).message });
      this.writer = await ExplainIndexWriter.create(this.file);
      return false;
    }
  }

  listen(listener: ProductListener): void {
    this.listener = listener;
  }

  /**
   * The next product of the stream, before any channel speaks of it: `ordinal`, its line in the
   * source; `until`, its rows' horizon when known (a worker mapped it), else close() gives it.
   */
  product(product: IndexProduct, ordinal: number, until?: number, recorded?: string): void {
    let waiting = until === undefined ? 1 : 0;
    for (const d of this.dead) if (!d) waiting++;
    this.pending.push({ product, ordinal, until: until ?? Infinity, recorded, outcomes: new Array<ChannelOutcome | undefined>(this.channels), waiting });
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
      item: (offset, bytes, warnings, fallbacks, copy) => this.speak(index, { kind: "item", offset, bytes, warnings, fallbacks, ...copy }),
      excluded: (reasons, reportBytes) => this.speak(index, { kind: "excluded", reasons, reportBytes }),
      copied: (packed) => this.speak(index, undefined, packed),
      failed: () => {
        if (this.dead[index]) return;
        this.dead[index] = true;
        for (let i = this.cursor[index]! - this.base; i < this.pending.length; i++) if (i >= 0) this.pending[i]!.waiting--;
        this.drain();
      },
    };
  }

  private speak(index: number, outcome: ChannelOutcome | undefined, packed?: PackedOutcome): void {
    if (this.dead[index]) return;
    const entry = this.pending[this.cursor[index]!++ - this.base];
    if (!entry) return;
    entry.outcomes[index] = outcome;
    if (packed !== undefined) (entry.packed ??= new Array<PackedOutcome | undefined>(this.channels))[index] = packed;
    entry.waiting--;
    this.drain();
  }

  /** Writes the products every channel has spoken of, in order. */
  private drain(): void {
    while (this.pending.length > 0 && this.pending[0]!.waiting <= 0) {
      const entry = this.pending.shift()!;
      this.base++;
      this.listener?.add(entry.product, entry.ordinal, entry.until, entry.outcomes, entry.recorded);
      if (this.failure) continue;
      try {
        const { packed } = entry;
        this.writer.add(entry.product, entry.outcomes.map((outcome, i) => packed?.[i] ?? packOutcome(outcome)));
      } catch (error) {
        this.failure = error as Error;
        this.logger.warn("explain index not written", { error: this.failure.message });
        this.onFailure(this.failure);
      }
    }
  }

  /**
   * After every channel was published (or not): the index names each channel's file, its digest and,
   * once published, its identity on disk, so that explain reads rows from that very file only.
   */
  async commit(outputDir: string, startedAt: string, entries: readonly ChannelEntry[]): Promise<void> {
    for (const entry of this.pending) entry.waiting = 0;
    this.drain();
    if (this.failure) return this.writer.abort();
    try {
      const channels = await Promise.all(
        entries.map(async (e) => ({
          name: e.name, file: e.file, locale: e.locale, format: e.format, published: e.published, bytes: e.bytes, sha256: e.sha256,
          ...(e.published === true ? await fileIdentity(join(outputDir, e.file)).then((identity) => ({ identity }), () => ({})) : {}),
        })),
      );
      await this.writer.commit({ startedAt, channels });
    } catch (error) {
      this.logger.warn("explain index not written", { error: (error as Error).message });
      this.onFailure(error as Error);
    }
  }

  abort(): Promise<void> {
    return this.writer.abort();
  }
}
