/**
 * A refresh that copies instead of maps. When the run reads the very snapshot the
 * last run mapped, with the same code, reference lists and channels, and that run's
 * files are still the ones it published, a product's lines can only differ if its
 * offer changed or its horizon (a sale starting or ending, an official deletion, see
 * mapping/clock.ts) has come. Those products are mapped again (their snapshot line
 * read by number); every other product's row, report and warnings lines are copied
 * from the last run's files, and counted, logged and indexed as if mapped:
 *
 *   rows.ndjson entry ─┬─ same offer, before horizon ─> a copy: row + report lines at their places (old-outputs.ts)
 *                      └─ otherwise ─> snapshot.line(n) ─> a line to map
 *                                      └─> both, in order, into dispatch() (pipeline/shard/), which maps
 *                                          the lines in this thread as for any run (a refresh asks for no
 *                                          workers: see run.ts) and writes the copies in their places
 *
 * This file only says what to do with each product; mapping stays the pipeline's.
 * The files come out byte for byte as a run that maps everything (test/rowcache/).
 */
import { join } from "node:path";
import type { Rejection } from "../catalogue/stream/line.js";
import { PharmafeedError } from "../errors.js";
import type { IndexProduct } from "../explain/entry.js";
import type { MappingContext } from "../mapping/context.js";
import type { MapperSpec } from "../pipeline/channel-mapper.js";
import type { Copy, LineToMap, ProductSource } from "../pipeline/shard/dispatch.js";
import type { Origins } from "../snapshot/delta.js";
import type { ReuseBase } from "../snapshot/run-source.js";
import type { Snapshot } from "../snapshot/store.js";
import { channelFingerprint, codeFingerprint, referenceFingerprint } from "./fingerprint.js";
import { type Entry, type EntryOutcome, fileIdentity, RowsReader, rowsPath, sameIdentity, type Trailer } from "./file.js";
import { OldOutputs, type OldPlaces } from "./old-outputs.js";

/** A channel of the run as a refresh sees it (pipeline/channel-run.ts ChannelRun is one). */
export interface ReuseChannel {
  readonly channel: { name: string; gzip: boolean };
  readonly spec: MapperSpec;
  /** Writes a product's lines as recorded, read from `lines` (ChannelRun.addCopied). */
  addCopied(outcome: Exclude<EntryOutcome, null>, lines: OldOutputs): Promise<void> | undefined;
}

export interface ReuseCheck {
  outputDir: string;
  runs: readonly ReuseChannel[];
  context: MappingContext;
  /** The snapshot the run reads (a refresh's, or a delta's merged one); undefined on a full read (rows are then mapped). */
  base: ReuseBase | undefined;
}


/** The rows to reuse, or why the run maps every product. */
export async function planReuse(check: ReuseCheck): Promise<{ reader: RowsReader } | { reason: string }> {
  const { base, outputDir } = check;
  if (!base) return { reason: "the run reads the catalogue: every product is mapped (and recorded for the next refresh)" };
  const opened = RowsReader.open(rowsPath(outputDir));
  if ("reason" in opened) return opened;
  const { reader } = opened;
  const why = await mismatch(reader.trailer, check, base);
  if (why === undefined) return { reader };
  reader.close();
  return { reason: why };
}

async function mismatch(trailer: Trailer, { runs, context, outputDir }: ReuseCheck, base: ReuseBase): Promise<string | undefined> {
  if (trailer.snapshot === undefined || trailer.snapshot !== base.mapped) {
    return base.origins ? "the last run did not map the snapshot this delta was merged into" : "the snapshot changed since the last run (a full read or a delta)";
  }
  if (trailer.code !== codeFingerprint()) return "pharmafeed's code changed since the last run";
  if (trailer.now > context.clock.now) return "the run's clock is before the last run's";
  if (trailer.reference !== referenceFingerprint(context)) return "the categories or brands changed since the last run";
  if (trailer.offers !== (context.offers !== undefined)) return "an offers file was added or removed since the last run";
  const names = runs.map((r) => r.channel.name);
  if (trailer.channels.map((c) => c.name).join("\n") !== names.join("\n")) return "the run's channels are not the last run's";
  for (const [i, run] of runs.entries()) {
    const last = trailer.channels[i]!;
    const name = run.channel.name;
    if (!last.copyable) return `${name} processes images: its rows are rendered again`;
    if (last.fingerprint !== channelFingerprint(run.spec, run.channel.gzip)) return `${name}'s settings or layout changed since the last run`;
    if (!last.outputs) return `${name}'s last file was not published`;
    for (const file of [last.outputs.feed, last.outputs.report, last.outputs.warnings]) {
      const now = await fileIdentity(join(outputDir, file.file)).catch(() => undefined);
      if (!now || !sameIdentity(now, file.identity)) return `${name}: ${file.file} is not the file the last run wrote (edited, replaced or removed)`;
    }
  }
  return undefined;
}

/** Who hears of a copied product before its channels write it: the explain index and state log (explain/run-hook.ts). */
export interface CopyListener {
  product(entry: IndexProduct, ordinal: number, until?: number, offer?: string): void;
}

export interface ReuseRun {
  reader: RowsReader;
  base: ReuseBase;
  outputDir: string;
  runs: readonly ReuseChannel[];
  context: MappingContext;
  explain: CopyListener | undefined;
  /** The run's own: a delta's changed line that does not read as a product is refused like any. */
  reject(rejection: Rejection): void;
}

/**
 * The last run's products in order, each a Copy or a LineToMap, for dispatch(). A copy reads the
 * last files when dispatch() writes it, at the places reckoned here in order: the files stay open
 * until close(), after dispatch() is done.
 */
export class ReuseSource implements ProductSource {
  private readonly old: OldOutputs[];
  /** Per channel, where the next product's report and warnings lines start in the last files. */
  private readonly reportAt: number[];
  private readonly warningsAt: number[];
  private reused = 0;
  private mapped = 0;

  constructor(private readonly r: ReuseRun) {
    const channels = r.reader.trailer.channels;
    this.old = channels.map((c) => new OldOutputs(c.outputs!, (file) => join(r.outputDir, file)));
    this.reportAt = channels.map((c) => c.outputs!.report.header);
    this.warningsAt = channels.map((c) => c.outputs!.warnings.header);
  }

  /** Every product in the order of the snapshot the run reads: a copy, or its line to map (again). */
  lines(): AsyncGenerator<Copy | LineToMap> {
    const { origins } = this.r.base;
    return origins ? this.deltaLines(origins) : this.refreshLines();
  }

  /** A refresh: the last run's entries in order; the snapshot is the one they were made from. */
  private async *refreshLines(): AsyncGenerator<Copy | LineToMap> {
    const { reader, base } = this.r;
    for (const entry of this.inOrder()) {
      const places = this.placesOf(entry);
      if (this.copyable(entry)) {
        yield this.copy(entry, places, entry.n);
        continue;
      }
      yield this.toMap(base.snapshot, entry.n, reader.trailer.products);
    }
  }

  /**
   * A delta: the merged snapshot's lines in order, each an unchanged line of the snapshot the last
   * run mapped (its entry copied as a refresh would) or one the delta wrote (mapped). The entries
   * of products the delta changed or removed are passed over, their places in the last files too.
   */
  private async *deltaLines(origins: Origins): AsyncGenerator<Copy | LineToMap> {
    const { snapshot } = this.r.base;
    const entries = this.inOrder();
    let next = entries.next();
    for (let i = 0; i < origins.length; i++) {
      const from = origins.at(i);
      while (from >= 0 && !next.done && next.value.n < from) {
        this.placesOf(next.value);
        next = entries.next();
      }
      if (from >= 0 && !next.done && next.value.n === from) {
        const entry = next.value;
        next = entries.next();
        const places = this.placesOf(entry);
        if (this.copyable(entry)) {
          yield this.copy(entry, places, i);
          continue;
        }
      }
      // Changed, new, or refused by the last run (no entry): mapped, and refused again if so.
      yield this.toMap(snapshot, i, origins.length);
    }
  }

  /** The last run's entries, checked to be in line order. */
  private *inOrder(): Generator<Entry> {
    let last = -1;
    for (const entry of this.r.reader.entries()) {
      // The digest vouches for the entries; this says so where a fault would otherwise cut rows at wrong offsets.
      if (!(entry.n > last)) throw new PharmafeedError("STORE_INVALID", `${rowsPath(this.r.outputDir)}: entries out of order at line ${entry.n + 1}: run generate --no-reuse`);
      last = entry.n;
      yield entry;
    }
  }

  /** Same offer, before its horizon, in every channel: the last run's lines stand. */
  private copyable(entry: Entry): boolean {
    const { runs, context } = this.r;
    const offer = context.offers ? context.offers.fingerprint(entry.p.id, entry.p.codes) : "";
    return offer === entry.o && (entry.u === undefined || context.clock.now < entry.u) && entry.c.length === runs.length && !entry.c.includes(null);
  }

  private placesOf(entry: Entry): (OldPlaces | undefined)[] {
    return entry.c.map((outcome, i) => this.places(outcome, i));
  }

  /** A product written as the last run wrote it, as the `ordinal`-th of this run. */
  private copy(entry: Entry, places: (OldPlaces | undefined)[], ordinal: number): Copy {
    const { runs } = this.r;
    this.reused++;
    return {
      copy: async () => {
        this.r.explain?.product(entry.p, ordinal, entry.u ?? Infinity, entry.o);
        for (let i = 0; i < runs.length; i++) {
          const pending = runs[i]!.addCopied(entry.c[i]!, this.old[i]!.at(places[i]!));
          if (pending) await pending;
        }
      },
    };
  }

  private toMap(snapshot: Snapshot, n: number, total: number): LineToMap {
    const bytes = snapshot.line(n);
    if (bytes === undefined) throw new PharmafeedError("STORE_INVALID", `line ${n + 1} of the snapshot is missing: run generate --source full`);
    this.mapped++;
    return { bytes, line: n + 1, index: n, total, ordinal: n };
  }

  /** A product's lines in channel i's last files; the next product's start after them. */
  private places(outcome: EntryOutcome, i: number): OldPlaces | undefined {
    if (outcome === null) return undefined;
    const places = { row: "o" in outcome ? outcome.o : 0, report: this.reportAt[i]!, warnings: this.warningsAt[i]! };
    if ("r" in outcome) this.reportAt[i]! += outcome.rb;
    else this.warningsAt[i]! += outcome.wb ?? 0;
    return places;
  }

  /**
   * A refresh's line that no longer reads as a product: the same bytes parsed by the same
   * code as last run, so only a damaged snapshot gets here. A delta's line (changed, new, or
   * refused last time) is refused as in any run.
   */
  reject(rejection: Rejection): void {
    if (this.r.base.origins) return this.r.reject(rejection);
    throw new PharmafeedError("STORE_INVALID", `line ${rejection.line} of the snapshot no longer reads as a product (${rejection.message}): run generate --source full`);
  }

  /** Once dispatch() applied every product: how many were copied and mapped; a refresh replays the last run's refused lines. */
  finish(): { reused: number; mapped: number } {
    const { reused, mapped } = this;
    // A delta's lines were all given (refused ones mapped and refused again).
    if (this.r.base.origins) return { reused, mapped };
    const trailer = this.r.reader.trailer;
    if (reused + mapped !== trailer.products) throw new PharmafeedError("STORE_INVALID", `${rowsPath(this.r.outputDir)}: ${reused + mapped} entries, its trailer says ${trailer.products}: run generate --no-reuse`);
    for (const rejection of trailer.rejections) this.r.reject(rejection);
    return { reused, mapped };
  }

  close(): void {
    for (const o of this.old) o.close();
    this.r.reader.close();
  }
}
