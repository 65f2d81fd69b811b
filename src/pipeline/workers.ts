/**
 * How many worker threads `generate` maps and renders on when `--workers` is not
 * given: one per core up to 4 (the main thread's writing and hashing keeps up
 * with about that many), none on one core, and fewer where the process has a
 * memory limit the threads would not fit in (a container's, or systemd's
 * MemoryMax=): each worker has its own JavaScript heap (README, Memory), and a
 * nightly run killed for memory publishes nothing.
 */
import { availableParallelism, totalmem } from "node:os";

/**
 * What a run needs under a memory limit without workers, and what each worker
 * adds: the smallest cgroup limits that bench/generate.ts's 22 outputs over
 * 78,041 products survived were 80 MB with no worker, 128 with one, 184 with
 * two (the kernel's OOM killer stopped them at 64, 112 and 176). Less than the
 * unconstrained peak RSS (~150 / 200 / 250 MB): under a limit the kernel takes
 * back page cache and pages the allocator keeps but no longer uses.
 */
export const MAIN_THREAD_MB = 80;
export const PER_WORKER_MB = 56;
/** The share of the limit planned for; the rest is headroom (sharp's image buffers, larger records). */
export const PLANNED_SHARE = 0.75;
const MAX_WORKERS = 4;

export interface Machine {
  cores: number;
  /** What the process may use: its cgroup limit or the machine's memory, whichever is smaller. */
  memoryBytes: number;
}

export function defaultWorkers({ cores, memoryBytes }: Machine): number {
  if (cores < 2) return 0;
  const fit = Math.floor(((memoryBytes / 2 ** 20) * PLANNED_SHARE - MAIN_THREAD_MB) / PER_WORKER_MB);
  return Math.max(0, Math.min(cores, MAX_WORKERS, fit));
}

export function thisMachine(): Machine {
  // Without a limit, node 20 answers the cgroup's "max" (2^64) or 0; the machine's memory bounds it either way.
  const limit = process.constrainedMemory();
  return { cores: availableParallelism(), memoryBytes: Math.min(limit > 0 ? limit : Infinity, totalmem()) };
}
