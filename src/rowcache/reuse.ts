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
import type { Snapshot } from "../snapshot/store.js";
import { channelFingerprint, codeFingerprint, referenceFingerprint } from "./fingerprint.js";
import { type EntryOutcome, fileIdentity, RowsReader, rowsPath, sameIdentity, type Trailer } from "./file.js";
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
  /** The snapshot the run reads; undefined when it reads the catalogue (rows are then mapped). */
  snapshot: Snapshot | undefined;
}


/** The rows to reuse, or why the run maps every product. */
export async function planReuse(check: ReuseCheck): Promise<{ reader: RowsReader } | { reason: string }> {
  const { snapshot, outputDir } = check;
  if (!snapshot) return { reason: "the run reads the catalogue: every product is mapped (and recorded for the next refresh)" };
  const opened = RowsReader.open(rowsPath(outputDir));
  if ("reason" in opened) return opened;
  const { reader } = opened;
  const why = await mismatch(reader.trailer, check, snapshot);
  if (why === undefined) return { reader };
  reader.close();
  return { reason: why };
}

async function mismatch(trailer: Trailer, { runs, context, outputDir }: ReuseCheck, snapshot: Snapshot): Promise<string | undefined> {
  if (trailer.snapshot === undefined || trailer.snapshot !== snapshot.info.generation) return "the snapshot changed since the last run (a full read or a delta)";
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
  snapshot: Snapshot;
  outputDir: string;
  runs: readonly ReuseChannel[];
  context: MappingContext;
  explain: CopyListener | undefined;
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

  /** Every product, in the order of the last run's entries: a copy, or its snapshot line to map again (at its place among the source's lines). */
  async *lines(): AsyncGenerator<Copy | LineToMap> {
    const { reader, runs, context, snapshot } = this.r;
    let last = -1;
    for (const entry of reader.entries()) {
      // The digest vouches for the entries; this says so where a fault would otherwise cut rows at wrong offsets.
      if (!(entry.n > last)) throw new PharmafeedError("STORE_INVALID", `${rowsPath(this.r.outputDir)}: entries out of order at line ${entry.n + 1}: run generate --no-reuse`);
      last = entry.n;
      const places = entry.c.map((outcome, i) => this.places(outcome, i));
      const offer = context.offers ? context.offers.fingerprint(entry.p.id, entry.p.codes) : "";
      if (offer === entry.o && (entry.u === undefined || context.clock.now < entry.u) && entry.c.length === runs.length && !entry.c.includes(null)) {
        this.reused++;
        yield {
          copy: async () => {
            this.r.explain?.product(entry.p, entry.n, entry.u ?? Infinity, entry.o);
            for (let i = 0; i < runs.length; i++) {
              const pending = runs[i]!.addCopied(entry.c[i]!, this.old[i]!.at(places[i]!));
              if (pending) await pending;
            }
          },
        };
        continue;
      }
      const bytes = snapshot.line(entry.n);
      if (bytes === undefined) throw new PharmafeedError("STORE_INVALID", `line ${entry.n + 1} of the snapshot is missing: run generate --source full`);
      this.mapped++;
      yield { bytes, line: entry.n + 1, index: entry.n, total: reader.trailer.products, ordinal: entry.n };
    }
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
   * A snapshot line that no longer reads as a product: the same bytes parsed by the same
   * code as last run, so only a damaged snapshot gets here.
   */
  reject(rejection: Rejection): never {
    throw new PharmafeedError("STORE_INVALID", `line ${rejection.line} of the snapshot no longer reads as a product (${rejection.message}): run generate --source full`);
  }

  /** Once dispatch() applied every product: how many were copied and mapped; the last run's refused lines are replayed. */
  finish(reject: (rejection: Rejection) => void): { reused: number; mapped: number } {
    const { reused, mapped } = this;
    const trailer = this.r.reader.trailer;
    if (reused + mapped !== trailer.products) throw new PharmafeedError("STORE_INVALID", `${rowsPath(this.r.outputDir)}: ${reused + mapped} entries, its trailer says ${trailer.products}: run generate --no-reuse`);
    for (const rejection of trailer.rejections) reject(rejection);
    return { reused, mapped };
  }

  close(): void {
    for (const o of this.old) o.close();
    this.r.reader.close();
  }
}
