/**
 * Writes never go through a symbolic link (issue 15, item 7). A link planted at a
 * temporary file's name made generate write a feed outside the output directory, and a
 * linked reports/ was written through. So:
 * - temporary files are created exclusively and without following a link
 *   (O_CREAT | O_EXCL | O_NOFOLLOW): whatever sits at that name, the open fails;
 * - the output directory's own folders (reports/, history/, images/) and the files about
 *   to be replaced must not be links: refused with UNSAFE_PATH, saying which path.
 * The output directory itself may be a link (it is the operator's choice, in the config).
 */
import { lstat, mkdir } from "node:fs/promises";
import { PharmafeedError } from "../errors.js";

function unsafe(path: string, what: string): PharmafeedError {
  return new PharmafeedError("UNSAFE_PATH", `${path} is ${what}; pharmafeed never writes through a link: remove it (got a symbolic link)`, {
    context: { file: path },
  });
}

/** A folder of the output directory: created if missing, refused if it is a link or not a folder. */
export async function ensureRealDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const info = await lstat(dir);
  if (info.isSymbolicLink()) throw unsafe(dir, "a symbolic link where a folder should be");
  if (!info.isDirectory()) throw new PharmafeedError("UNSAFE_PATH", `${dir} is not a folder (got another kind of file)`, { context: { file: dir } });
}

/** A file about to be replaced by rename: refused if it is a link (a missing file is fine). */
export async function refuseLink(file: string): Promise<void> {
  const info = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (info?.isSymbolicLink()) throw unsafe(file, "a symbolic link where a file should be");
}

/** The error for an exclusive create that found something at the temporary name. */
export function plantedTemporary(tmp: string, cause: unknown): PharmafeedError {
  return new PharmafeedError("UNSAFE_PATH", `${tmp} already exists (a link or file planted at a temporary name?): refusing to write through it`, {
    cause,
    context: { file: tmp },
  });
}

