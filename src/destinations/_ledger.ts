/**
 * Temporaries a push started on a server, kept in output/.destinations-temporaries.json from
 * just before the first byte goes until the file is renamed into place or removed. A push
 * killed (SIGKILL) or cut off with the network still down leaves them listed there; the next
 * connection to that destination removes them, whatever process made them. (Listing the remote
 * directory instead would miss them where LIST hides dot files, vsftpd's default, and could take
 * another writer's.) Without an output directory (tests, the benchmark) the list lives in memory.
 */
import { readFile } from "node:fs/promises";
import { replaceFile } from "../core/atomic-file.js";


export interface Ledger {
  /**
   * Remote paths started at `target` and not yet finished: an earlier process's, and those of this
   * process that `own` lists (another driver of this run writing to the same place keeps its own);
   * without `own`, all of them.
   */
  pending(target: string, own?: ReadonlySet<string>): string[];
  started(target: string, path: string): Promise<void>;
  /** Renamed into place, removed, or found gone. */
  finished(target: string, path: string): Promise<void>;
}

export function memoryLedger(): Ledger {
  const paths = new Map<string, Set<string>>();
  const here = new Set<string>();
  const of = (target: string) => paths.get(target) ?? paths.set(target, new Set()).get(target)!;
  return {
    pending: (target, own) => [...of(target)].filter((path) => !own || !here.has(path) || own.has(path)),
    started: async (target, path) => {
      of(target).add(path);
      here.add(path);
    },
    finished: async (target, path) => void of(target).delete(path),
  };
}

/** The ledger kept in `file`; a missing or unreadable file is an empty one (a lost list costs a leftover, never a run). */
export async function fileLedger(file: string): Promise<Ledger> {
  const memory = memoryLedger();
  const saved = new Map<string, Set<string>>();
  const targets = new Set<string>();
  try {
    const text = JSON.parse(await readFile(file, "utf8")) as unknown;
    if (text && typeof text === "object" && !Array.isArray(text)) {
      for (const [target, list] of Object.entries(text)) {
        targets.add(target);
        if (Array.isArray(list)) saved.set(target, new Set(list.filter((path): path is string => typeof path === "string")));
      }
    }
  } catch {
    // Nothing recorded yet.
  }
  let writing = Promise.resolve();
  const save = (): Promise<void> => {
    const snapshot: Record<string, string[]> = {};
    for (const target of targets) {
      const list = [...(saved.get(target) ?? []), ...memory.pending(target)];
      if (list.length > 0) snapshot[target] = list;
    }
    // One write after another, each whole (replaceFile): the last one holds the latest list.
    writing = writing.then(() => replaceFile(file, `${JSON.stringify(snapshot, null, 1)}\n`)).catch(() => {});
    return writing;
  };
  return {
    pending: (target, own) => [...(saved.get(target) ?? []), ...memory.pending(target, own)],
    started: async (target, path) => {
      targets.add(target);
      await memory.started(target, path);
      await save();
    },
    finished: async (target, path) => {
      saved.get(target)?.delete(path);
      await memory.finished(target, path);
      await save();
    },
  };
}
