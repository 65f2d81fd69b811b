/**
 * The snapshot file's layout (output/state/snapshot.pfs), one file of its own
 * and no database:
 *
 *   "PFSNAP" 0x02 "\n"                       8 bytes: magic and format version
 *   block 0 .. block n-1                      the stream lines (each ends with \n), deflated in 512 KB blocks
 *   trailer                                   JSON: info, source counts, reference lists, and per block its
 *                                             length, line count, inflated length and sha256
 *   trailer length (uint64 BE) ─ sha256 of the trailer ─ "PFSNAPE\n"   48 bytes
 *
 * Every byte a run uses is under a digest: the trailer's covers the meta, the
 * counts, the reference lists and the block table; each block's covers its
 * deflated bytes. A reader checks the trailer, the file's length and then every
 * block's digest before it hands out a single line (reader.ts), so a damaged
 * snapshot is refused as a whole, before a refresh or a delta used any of it.
 */
import { createHash } from "node:crypto";
import { z } from "zod";

/** Raised whenever the layout or the line format change: a snapshot of another version is refused (and a full read made). */
export const FORMAT_VERSION = 2;
export const MAGIC = Buffer.from(`PFSNAP${String.fromCharCode(FORMAT_VERSION)}\n`, "latin1");
export const END_MAGIC = Buffer.from("PFSNAPE\n", "latin1");
export const HEADER_BYTES = MAGIC.length;
export const FOOTER_BYTES = 8 + 32 + END_MAGIC.length;
/** Format version 1 was a SQLite file (snapshot.sqlite): its first bytes. */
export const SQLITE_MAGIC = Buffer.from("SQLite format 3\0", "latin1");

/**
 * The counts of the catalogue read that the snapshot holds, beyond its lines: the lines that
 * read refused before they could be kept (malformed JSON, a repeated id), so that a run from
 * the snapshot reports the source as that read saw it (issue 22, point 5).
 */
export const ReadCounts = z
  .object({
    /** The catalogue's meta.total in that read. */
    total: z.number().int().min(0),
    /** Lines refused by the stream itself, by code: they are not in the snapshot. */
    refusedByCode: z.record(z.string(), z.number().int().min(0)),
    /** When that read was made (ISO): a delta carries the refusals of the read it merged into. */
    readAt: z.string(),
  })
  .strict();
export type ReadCounts = z.infer<typeof ReadCounts>;

export const SnapshotInfo = z
  .object({
    /** When the sync that this snapshot reflects asked the catalogue (ISO); a delta asks for changes since. */
    syncedAt: z.string(),
    /** The source filter and sorting it was read with (JSON): a snapshot of another filter is not merged into. */
    filter: z.string(),
    sorting: z.string(),
    /** full or delta: how the last sync was made. */
    via: z.enum(["full", "delta"]),
    /** Lines stored. */
    records: z.number().int().min(0),
    /**
     * A random id given to each snapshot written: a run that records what it did with "line n of
     * generation g" may be replayed against exactly that snapshot (src/rowcache/).
     */
    generation: z.string().optional(),
    /** Absent when the writer did not know them (a snapshot written outside a run). */
    read: ReadCounts.optional(),
  })
  .strict();
export type SnapshotInfo = z.infer<typeof SnapshotInfo>;

/** A block: [deflated length, lines, inflated length, sha256 of the deflated bytes (base64)]. */
const Block = z.tuple([z.number().int().min(1), z.number().int().min(1), z.number().int().min(1), z.string().length(44)]);
export type Block = z.infer<typeof Block>;

export const Trailer = z
  .object({
    info: SnapshotInfo,
    reference: z.object({ categories: z.array(z.unknown()), brands: z.array(z.unknown()) }).strict(),
    blocks: z.array(Block),
  })
  .strict();
export type Trailer = z.infer<typeof Trailer>;

export function digest(bytes: Uint8Array): Buffer {
  return createHash("sha256").update(bytes).digest();
}

/** The last 48 bytes of the file, for a trailer of `trailer` bytes. */
export function footer(trailer: Buffer): Buffer {
  const length = Buffer.alloc(8);
  length.writeBigUInt64BE(BigInt(trailer.length));
  return Buffer.concat([length, digest(trailer), END_MAGIC]);
}
