/**
 * A file as it was when the run that wrote it had published it: any other file at that name is
 * not it. As git's index does: the change time too, which no one can set back (an edit that keeps
 * size and modification time, `touch -d`, still changes it), and the device with the inode.
 * The row cache (src/rowcache/) and the explain index (src/explain/) both pin the files they
 * describe this way.
 */
import { stat } from "node:fs/promises";

export interface FileIdentity {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  dev: number;
}

export async function fileIdentity(file: string): Promise<FileIdentity> {
  const s = await stat(file);
  return { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino, dev: s.dev };
}

export const sameIdentity = (a: FileIdentity, b: FileIdentity): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.dev === b.dev;
