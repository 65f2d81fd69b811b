/**
 * A small tmpfs for a test server's storage, so that "the remote disk is full"
 * is the kernel's ENOSPC and not a fault the server pretends. Mounting needs
 * root (CAP_SYS_ADMIN); where it is refused the caller skips with the reason.
 */
import { execFile } from "node:child_process";
import { open, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface Tmpfs {
  dir: string;
  /** Fills what is left with a file of zeros until the kernel says ENOSPC; resolves to the undo. */
  fill(): Promise<() => Promise<void>>;
  unmount(): Promise<void>;
}

/** Mounts a tmpfs of `bytes` on `dir` (an empty directory), or says why not. */
export async function mountTmpfs(dir: string, bytes: number): Promise<Tmpfs | { reason: string }> {
  try {
    await run("mount", ["-t", "tmpfs", "-o", `size=${bytes},mode=0755`, "tmpfs", dir]);
  } catch (error) {
    return { reason: `mount -t tmpfs refused (needs root and CAP_SYS_ADMIN): ${(error as Error).message.trim()}` };
  }
  return {
    dir,
    async fill() {
      const filler = join(dir, `.filler-${process.pid}`);
      const handle = await open(filler, "w");
      const zeros = Buffer.alloc(64 * 1024);
      try {
        for (let size = zeros.length; size >= 1; ) {
          try {
            await handle.write(zeros, 0, size);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
            size = Math.floor(size / 2);
          }
        }
      } finally {
        await handle.close();
      }
      return () => rm(filler, { force: true });
    },
    unmount: async () => {
      await run("umount", ["-l", dir]).catch(() => undefined);
    },
  };
}
