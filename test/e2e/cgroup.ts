/**
 * A memory cgroup of its own, beside this process's, for runs under a real memory
 * limit (test/e2e/memory-limit.test.ts, bench/offers.ts). Where this process may not
 * create one (not root, no memory controller), undefined: the caller skips.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface MemoryCgroup {
  dir: string;
  /** Write a pid here to move that process into the cgroup. */
  procs: string;
}

/** `label` names the folder; `noSwap` also caps swap (cgroup v1 with swap accounting), so swap cannot stretch the limit. */
export function makeMemoryCgroup(mb: number, label: string, options: { noSwap?: boolean } = {}): MemoryCgroup | undefined {
  try {
    const lines = readFileSync("/proc/self/cgroup", "utf8").trim().split("\n").map((line) => line.split(":"));
    const v1 = lines.find(([, controllers]) => controllers!.split(",").includes("memory"));
    const v2 = lines.find(([id]) => id === "0");
    const base = v1 ? join("/sys/fs/cgroup/memory", v1[2]!) : v2 ? join("/sys/fs/cgroup", v2[2]!) : undefined;
    if (!base) return undefined;
    const dir = join(base, `pharmafeed-${label}-${process.pid}`);
    mkdirSync(dir);
    const limit = join(dir, v1 ? "memory.limit_in_bytes" : "memory.max");
    if (!existsSync(limit)) {
      rmdirSync(dir);
      return undefined;
    }
    writeFileSync(limit, String(mb * 2 ** 20));
    const memsw = join(dir, "memory.memsw.limit_in_bytes");
    if (options.noSwap && v1 && existsSync(memsw)) writeFileSync(memsw, String(mb * 2 ** 20));
    return { dir, procs: join(dir, "cgroup.procs") };
  } catch {
    return undefined;
  }
}
