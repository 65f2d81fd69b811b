/**
 * The local snapshot of the catalogue: output/state/snapshot.pfs, the stream
 * lines of the last sync as received, in stream order, the reference lists a
 * run needs (categories, brands) and the counts of the read it holds.
 *
 *   SnapshotWriter (writer.ts): add(line) ... commit(read) ─> rename over the previous snapshot (atomic)
 *   openSnapshot (reader.ts):   every digest checked ─> info + reference + lines() / line(n)
 *
 * Why a file of its own and not SQLite (format version 1): a run reads the
 * snapshot in order, or a few lines by number, and rewrites it whole; it needs
 * blocks, a table of them and digests, not a database. Deflating in libuv's
 * pool and writing with async I/O takes the snapshot off the main thread, where
 * deflateRawSync and INSERTs serialised what the workers parallelise; see
 * docs/snapshot.md for the figures.
 */
import { join } from "node:path";
import { SNAPSHOT_FILE, STATE_DIR } from "../core/layout.js";

export { FORMAT_VERSION, type ReadCounts, type SnapshotInfo } from "./format.js";
export { openSnapshot, type Snapshot } from "./reader.js";
export { SnapshotWriter, type Reference } from "./writer.js";


export function snapshotPath(outputDir: string): string {
  return join(outputDir, STATE_DIR, SNAPSHOT_FILE);
}
