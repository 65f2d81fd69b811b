import { availableParallelism, totalmem } from "node:os";
import { describe, expect, it } from "vitest";
import { defaultWorkers, MAIN_THREAD_MB, PER_WORKER_MB, thisMachine } from "../../src/pipeline/workers.js";

const MiB = 2 ** 20;
const GiB = 2 ** 30;

describe("generate's default worker count", () => {
  it("is one per core up to 4, none on one core, when memory is plenty", () => {
    expect([1, 2, 3, 4, 8, 64].map((cores) => defaultWorkers({ cores, memoryBytes: 24 * GiB }))).toEqual([0, 2, 3, 4, 4, 4]);
  });

  it("drops workers that would not fit in three quarters of a memory limit", () => {
    const workers = (mb: number, cores = 8) => defaultWorkers({ cores, memoryBytes: mb * MiB });
    // 0.75 x 256 = 192 MB: two workers (80 + 2 x 56). Measured: two survive down to 184 MB.
    expect(workers(256)).toBe(2);
    expect(workers(256, 1)).toBe(0);
    expect(workers(192)).toBe(1);
    expect(workers(160)).toBe(0);
    expect(workers(340)).toBe(3);
    expect(workers(410)).toBe(4);
    expect(workers(2048, 2)).toBe(2);
    // Below what even one thread needs: 0, never negative (the run warns).
    expect(workers(32)).toBe(0);
    // Each step is exactly one worker's share.
    const edge = (MAIN_THREAD_MB + 2 * PER_WORKER_MB) / 0.75;
    expect(workers(edge)).toBe(2);
    expect(workers(edge - 1)).toBe(1);
  });

  it("reads this machine's cores and memory (no cgroup limit here: the machine's memory)", () => {
    const machine = thisMachine();
    expect(machine.cores).toBe(availableParallelism());
    expect(machine.memoryBytes).toBeGreaterThan(0);
    expect(machine.memoryBytes).toBeLessThanOrEqual(totalmem());
  });
});
