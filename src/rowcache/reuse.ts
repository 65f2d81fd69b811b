/**
 * A refresh that copies instead of maps. When the run reads the very snapshot the
 * last run mapped, with the same code, reference lists and channels, and that run's
 * files are still the ones it published, a product's lines can only differ if its
 * offer changed or its horizon (a sale starting or ending, an official deletion, see
 * mapping/clock.ts) has come. Those products are mapped again (their snapshot line
 * read by number); every other product's row, report and warnings lines are copied
 * from the last run's files, and counted, logged and indexed as if mapped:
 *
 *   rows.ndjson entry ─┬─ same offer, before horizon ─> copy row + report lines (old-outputs.ts)
 *                      └─ otherwise ─> snapshot.line(n) ─> map in this thread (as dispatch does)
 *
 * The files come out byte for byte as a run that maps everything (test/rowcache/).
 */
import { join } from "node:path";
import type { Rejection } from "../catalogue/stream/line.js";
import { PharmafeedError } from "../errors.js";
import type { MappingContext } from "../mapping/context.js";
import type { ChannelRun } from "../pipeline/channel-run.js";
import { mapInThread, type DispatchOptions } from "../pipeline/shard/dispatch.js";
import { parseLine } from "../pipeline/shard/shard.js";
import type { Snapshot } from "../snapshot/store.js";
import { channelFingerprint, codeFingerprint, referenceFingerprint } from "./fingerprint.js";
import { fileIdentity, RowsReader, rowsPath, sameIdentity, type Trailer } from "./file.js";
import { OldOutputs } from "./old-outputs.js";

export interface ReuseCheck {
  outputDir: string;
  runs: readonly ChannelRun[];
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

export interface ReuseRun {
  reader: RowsReader;
  snapshot: Snapshot;
  outputDir: string;
  runs: readonly ChannelRun[];
  context: MappingContext;
  explain: DispatchOptions["explain"];
  onProducts(count: number): void;
  reject(rejection: Rejection): void;
}

/** Goes through the last run's products in order; returns how many were copied and how many mapped. */
export async function reuseRows(r: ReuseRun): Promise<{ reused: number; mapped: number }> {
  const { reader, runs, context, snapshot } = r;
  const trailer = reader.trailer;
  const old = trailer.channels.map((c, i) => new OldOutputs(c.outputs!, (file) => join(r.outputDir, file), Buffer.byteLength(runs[i]!.layoutOfFiles.separator)));
  let reused = 0;
  let mapped = 0;
  let last = -1;
  try {
    for (const entry of reader.entries()) {
      // The digest vouches for the entries; this says so where a fault would otherwise cut rows at wrong offsets.
      if (!(entry.n > last)) throw new PharmafeedError("STORE_INVALID", `${rowsPath(r.outputDir)}: entries out of order at line ${entry.n + 1}: run generate --no-reuse`);
      last = entry.n;
      const offer = context.offers ? context.offers.fingerprint(entry.p.id, entry.p.codes) : "";
      if (offer === entry.o && (entry.u === undefined || context.clock.now < entry.u) && entry.c.length === runs.length && !entry.c.includes(null)) {
        r.explain?.product(entry.p, entry.n, entry.u ?? Infinity, entry.o);
        for (let i = 0; i < runs.length; i++) {
          const pending = runs[i]!.addCopied(entry.c[i]!, old[i]!);
          if (pending) await pending;
        }
        reused++;
      } else {
        for (let i = 0; i < runs.length; i++) old[i]!.skip(entry.c[i] ?? null);
        const bytes = snapshot.line(entry.n);
        if (bytes === undefined) throw new PharmafeedError("STORE_INVALID", `line ${entry.n + 1} of the snapshot is missing: run generate --source full`);
        const parsed = parseLine(bytes.toString("utf8"), entry.n + 1, entry.n);
        // The same bytes parsed by the same code: only a damaged snapshot gets here.
        if (!parsed.ok) throw new PharmafeedError("STORE_INVALID", `line ${entry.n + 1} of the snapshot no longer reads as the product ${entry.p.id}: run generate --source full`);
        await mapInThread(parsed.product, entry.n, runs, context, r.explain);
        mapped++;
      }
      r.onProducts(reused + mapped);
    }
  } finally {
    for (const o of old) o.close();
    reader.close();
  }
  if (reused + mapped !== trailer.products) throw new PharmafeedError("STORE_INVALID", `${rowsPath(r.outputDir)}: ${reused + mapped} entries, its trailer says ${trailer.products}: run generate --no-reuse`);
  for (const rejection of trailer.rejections) r.reject(rejection);
  return { reused, mapped };
}
