/**
 * One run at a time per output directory. The lock file holds the owner's pid
 * and host; a lock whose process is gone (crash, kill -9) is stale and taken
 * over, so a dead run never blocks the next night's cron.
 */
import { open, readFile, rm } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { PharmafeedError } from "../errors.js";

export const LOCK_FILE = ".pharmafeed.lock";

interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function readOwner(file: string): Promise<LockOwner | undefined> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as LockOwner;
  } catch {
    return undefined; // unreadable or half-written: treated as stale
  }
}

export interface Lock {
  file: string;
  /** True when a stale lock of a dead run was taken over. */
  tookOver: boolean;
  release(): Promise<void>;
}

export async function acquireLock(outputDir: string): Promise<Lock> {
  const file = join(outputDir, LOCK_FILE);
  const owner: LockOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  let tookOver = false;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, "wx");
      await handle.writeFile(JSON.stringify(owner));
      await handle.close();
      return {
        file,
        tookOver,
        release: async () => {
          const current = await readOwner(file);
          if (current?.pid === owner.pid && current.host === owner.host) await rm(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new PharmafeedError("WRITE_FAILED", `cannot create lock ${file}: ${(error as Error).message}`, { cause: error, context: { file } });
      }
      const holder = await readOwner(file);
      const sameHost = holder?.host === owner.host;
      if (holder && (!sameHost || isAlive(holder.pid))) {
        throw new PharmafeedError(
          "LOCK_HELD",
          `another run holds ${file} (pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}); ` +
            `if that run is gone from another host, remove the file`,
          { context: { file } },
        );
      }
      await rm(file, { force: true });
      tookOver = true;
    }
  }
  throw new PharmafeedError("LOCK_HELD", `another run took ${file} while a stale lock was being replaced`, { context: { file } });
}
