/**
 * The one place `serve` opens a file: a plain name inside a folder whose real
 * path is inside the output directory. The name's real path must lie inside
 * too (a symlink pointing out is refused), and the open itself refuses a
 * symlink (O_NOFOLLOW: no window between the check and the open) and anything
 * but a regular file (O_NONBLOCK, so a FIFO planted there cannot hang us).
 */
import { constants, type Stats } from "node:fs";
import { open, realpath, type FileHandle } from "node:fs/promises";
import { join, sep } from "node:path";

const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export interface OpenedFile {
  handle: FileHandle;
  stat: Stats;
}

function inside(root: string, path: string): boolean {
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The real path of `dir` (relative to the real output directory), if it is inside it. */
export async function realFolder(outputReal: string, dir = ""): Promise<string | undefined> {
  if (dir === "") return outputReal;
  try {
    const real = await realpath(join(outputReal, dir));
    return inside(outputReal, real) ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Opens `folder/name` for reading, or undefined when it is missing or not allowed. */
export async function openInside(outputReal: string, folder: string, name: string): Promise<OpenedFile | undefined> {
  if (name === "" || name.startsWith(".") || /[/\\\0]/.test(name)) return undefined;
  const path = join(folder, name);
  if (!inside(outputReal, path)) return undefined;
  try {
    if (!inside(outputReal, await realpath(path))) return undefined;
  } catch {
    return undefined;
  }
  let handle: FileHandle;
  try {
    handle = await open(path, FLAGS);
  } catch {
    return undefined; // ENOENT, ELOOP (a symlink), EACCES: all the same to the client
  }
  try {
    const stat = await handle.stat();
    if (stat.isFile()) return { handle, stat };
  } catch {
    // fall through
  }
  await handle.close().catch(() => {});
  return undefined;
}
