/**
 * The one way a file of pharmafeed is replaced: a new temporary file beside the target
 * (hidden, `.name.tmp-<pid>`, created exclusively), its bytes forced to the disk, a rename
 * over the target, and the folder forced to the disk.
 *
 * rename(2) alone is atomic for readers but not durable: after a power cut, ext4 and xfs
 * may show the rename without the new file's data (an empty or short target, the old
 * file gone). fsync of the file before the rename orders its data first; fsync of the
 * folder after it makes the rename itself survive. Both are what README promises: a
 * power cut leaves each feed, the manifest and the journal whole, old or new.
 *
 * PHARMAFEED_FSYNC=0 skips both syncs: for bench/fsync.ts only, to measure what they cost.
 */
import { constants, fsyncSync, openSync, closeSync, renameSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { plantedTemporary, refuseLink } from "./safe-path.js";

const DURABLE = process.env["PHARMAFEED_FSYNC"] !== "0";

/** open(2) flags of a temporary file: created here and now, never through a link. */
export const EXCLUSIVE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** The temporary name beside a target; hidden, and never a name the manifest lists. */
export function temporaryPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.tmp-${process.pid}`);
}

/** Forces a written file's data to the disk (a read-only descriptor is enough on Linux). */
export async function syncFile(file: string): Promise<void> {
  if (!DURABLE) return;
  const handle = await open(file, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Forces a folder's entries (a rename into it) to the disk. */
export async function syncDir(dir: string): Promise<void> {
  if (!DURABLE) return;
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } catch (error) {
    // Some filesystems (and some containers' overlays) refuse fsync on a folder: the rename
    // is then as durable as they make it, which is no reason to fail a publish.
    if ((error as NodeJS.ErrnoException).code !== "EINVAL") throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Renames a finished temporary file over `target`, durably: the file synced first, a link at
 * the target refused, the folder synced after. `synced`: the caller already synced the file.
 */
export async function renameIntoPlace(tmp: string, target: string, options: { synced?: boolean } = {}): Promise<void> {
  if (!options.synced) await syncFile(tmp);
  await refuseLink(target);
  await rename(tmp, target);
  await syncDir(dirname(target));
}

/** As renameIntoPlace, for the few writers that work synchronously (the rows file). */
export function renameIntoPlaceSync(tmp: string, target: string): void {
  if (DURABLE) {
    const fd = openSync(tmp, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  renameSync(tmp, target);
  if (DURABLE) {
    const fd = openSync(dirname(target), "r");
    try {
      fsyncSync(fd);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EINVAL") throw error;
    } finally {
      closeSync(fd);
    }
  }
}

/** Writes a new temporary file exclusively and syncs it (a leftover of this very process is removed first). */
export async function writeTemporary(tmp: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  await rm(tmp, { force: true });
  let handle;
  try {
    handle = await open(tmp, EXCLUSIVE_FLAGS, mode);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ELOOP") throw plantedTemporary(tmp, cause);
    throw cause;
  }
  try {
    await handle.writeFile(data);
    if (DURABLE) await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `target` with `data`, whole or not at all, durably. On failure the temporary is
 * removed and the previous file stays.
 */
export async function replaceFile(target: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const tmp = temporaryPath(target);
  try {
    await writeTemporary(tmp, data, mode);
    await renameIntoPlace(tmp, target, { synced: true });
  } catch (error) {
    // Not a file planted at the temporary name: that one is the operator's to look at.
    if ((error as { code?: string }).code !== "UNSAFE_PATH") await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
}
