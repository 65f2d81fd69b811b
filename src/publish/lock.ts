/**
 * One run at a time per output directory.
 *
 * The lock file holds the owner's pid, host and a random token, and is created
 * whole and exclusively: written to a private file, then link()ed to the lock's
 * name, which fails when the name exists (POSIX link(2); atomic on local file
 * systems and NFS). A reader never sees a half-written lock.
 *
 * While the run lives, a heartbeat touches the file's mtime every few seconds.
 * A lock is stale when
 *   - its process is gone (same host: kill(pid, 0)), or
 *   - its heartbeat is older than `staleAfterMs` (another host or container,
 *     whose pids mean nothing here; or a pid reused after a restart), or
 *   - it cannot be read (no run writes it that way).
 * Taking a stale lock over is serialised by a second, short-lived lock
 * (`.pharmafeed.lock.takeover`, created the same way): its holder checks that the
 * stale lock is still the one it judged, removes it, and link()s its own. A run
 * starting at the same time without seeing the stale lock uses the same link(),
 * so of any number of runs starting together exactly one wins.
 */
import { randomBytes } from "node:crypto";
import { link, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { PharmafeedError } from "../errors.js";
import { LOCK_FILE } from "../core/layout.js";

const TAKEOVER_SUFFIX = ".takeover";
/** A takeover lock is held for a few file operations; one this old belongs to a run that died inside them. */
const TAKEOVER_STALE_MS = 30_000;

export const DEFAULT_STALE_AFTER_MS = 10 * 60_000;

export interface LockOptions {
  /** A lock whose heartbeat is older than this is stale (default 10 minutes). */
  staleAfterMs?: number;
  /** How often the heartbeat touches the lock (default: a tenth of staleAfterMs, at most 30 s). */
  heartbeatMs?: number;
  /** Said when the heartbeat finds the lock taken from this run (it then stops). */
  onLost?: (holder: string) => void;
  /** The lock file's name in the directory (default LOCK_FILE): Google's work has a lock of its own (merchant/lock.ts). */
  name?: string;
}

interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  token: string;
}

export interface Lock {
  file: string;
  /** True when a stale lock (dead run, silent heartbeat) was taken over. */
  tookOver: boolean;
  /** Who held the lock taken over, for the log. */
  previous?: string;
  release(): Promise<void>;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface Seen {
  owner: LockOwner | undefined;
  mtimeMs: number;
  ino: number;
}

/** The lock as it is now, or undefined when there is none. */
async function inspect(file: string): Promise<Seen | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(file, "utf8"), stat(file)]);
    let owner: LockOwner | undefined;
    try {
      const parsed = JSON.parse(text) as Partial<LockOwner>;
      if (typeof parsed.pid === "number" && typeof parsed.host === "string") owner = { token: "", startedAt: "?", ...parsed } as LockOwner;
    } catch {
      owner = undefined;
    }
    return { owner, mtimeMs: info.mtimeMs, ino: info.ino };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function describe(owner: LockOwner | undefined): string {
  return owner ? `pid ${owner.pid} on ${owner.host}, started ${owner.startedAt}` : "an unreadable lock";
}

/** Why a lock may be taken over, or undefined when its run must be presumed alive. */
function staleness(seen: Seen, staleAfterMs: number, now = Date.now()): string | undefined {
  const { owner } = seen;
  if (!owner) return "unreadable";
  const silentMs = now - seen.mtimeMs;
  if (owner.host === hostname() && !isAlive(owner.pid)) return "its process is gone";
  if (silentMs > staleAfterMs) return `no heartbeat for ${Math.round(silentMs / 1000)} s`;
  return undefined;
}

function failure(action: string, file: string, error: unknown): PharmafeedError {
  return new PharmafeedError("WRITE_FAILED", `cannot ${action} lock ${file}: ${(error as Error).message}`, { cause: error, context: { file } });
}

/** Creates `file` holding `content`, whole, only if it does not exist: false when it does. */
async function createExclusive(file: string, content: string): Promise<boolean> {
  // Named like every temporary file (`.<name>.tmp-<pid>`), so that a run killed here leaves
  // nothing the next run's clean-up does not remove.
  const draft = `${file}.${randomBytes(6).toString("hex")}.tmp-${process.pid}`;
  try {
    await writeFile(draft, content, { flag: "wx", mode: 0o644 });
    await link(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw failure("create", file, error);
  } finally {
    await rm(draft, { force: true });
  }
}

/** Removes `seen` from `file` and puts `content` there, if no other run is doing the same; true when ours is in place. */
async function takeOver(file: string, seen: Seen, content: string): Promise<boolean> {
  const guard = `${file}${TAKEOVER_SUFFIX}`;
  if (!(await createExclusive(guard, content))) {
    const other = await inspect(guard).catch(() => undefined);
    // A takeover in progress: the lock will be someone's in a moment. A takeover lock left by a
    // run that died there (its process gone, or held far longer than a takeover takes) is removed.
    if (other && staleness(other, TAKEOVER_STALE_MS) !== undefined) await rm(guard, { force: true });
    return false;
  }
  try {
    const now = await inspect(file);
    // Another takeover finished first, or the holder touched it: not the lock we judged stale.
    if (now && (now.ino !== seen.ino || now.mtimeMs !== seen.mtimeMs || now.owner?.token !== seen.owner?.token)) return false;
    await rm(file, { force: true });
    return await createExclusive(file, content);
  } finally {
    await rm(guard, { force: true });
  }
}

export async function acquireLock(outputDir: string, options: LockOptions = {}): Promise<Lock> {
  const file = join(outputDir, options.name ?? LOCK_FILE);
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const heartbeatMs = options.heartbeatMs ?? Math.min(30_000, Math.max(10, Math.floor(staleAfterMs / 10)));
  const owner: LockOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), token: randomBytes(12).toString("hex") };
  const content = JSON.stringify(owner);
  let previous: string | undefined;
  // Each turn either wins, finds a live holder, or finds the lock changed under it and looks again.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await createExclusive(file, content)) return held(file, owner, previous, heartbeatMs, options.onLost);
    const seen = await inspect(file).catch((error: unknown) => {
      throw failure("read", file, error);
    });
    if (!seen) continue; // released between our link() and our look
    const why = staleness(seen, staleAfterMs);
    if (why === undefined) {
      const age = Math.round((Date.now() - seen.mtimeMs) / 1000);
      throw new PharmafeedError(
        "LOCK_HELD",
        `another run holds ${file} (${describe(seen.owner)}; last heartbeat ${age} s ago). ` +
          `It is taken over once its process is gone (same host) or its heartbeat is older than ${Math.round(staleAfterMs / 1000)} s`,
        { context: { file } },
      );
    }
    previous = `${describe(seen.owner)}: ${why}`;
    if (await takeOver(file, seen, content)) return held(file, owner, previous, heartbeatMs, options.onLost);
    // Lost the takeover to another run: the next turn sees that run's fresh lock (or none).
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
  throw new PharmafeedError("LOCK_HELD", `another run took ${file} while a stale lock was being replaced`, { context: { file } });
}

function held(file: string, owner: LockOwner, previous: string | undefined, heartbeatMs: number, onLost: LockOptions["onLost"]): Lock {
  const ours = async () => (await inspect(file).catch(() => undefined))?.owner?.token === owner.token;
  let beating = Promise.resolve();
  const timer = setInterval(() => {
    beating = (async () => {
      if (await ours()) {
        const now = new Date();
        await utimes(file, now, now).catch(() => {});
      } else {
        clearInterval(timer);
        onLost?.(describe((await inspect(file).catch(() => undefined))?.owner));
      }
    })();
  }, heartbeatMs);
  // The heartbeat never keeps a finished process alive.
  timer.unref();
  return {
    file,
    tookOver: previous !== undefined,
    ...(previous === undefined ? {} : { previous }),
    release: async () => {
      clearInterval(timer);
      await beating;
      if (await ours()) await rm(file, { force: true });
    },
  };
}
