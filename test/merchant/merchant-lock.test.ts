/**
 * Google's own lock (src/merchant/lock.ts): one holder at a time, and what a killed
 * process left (its `.merchant.sqlite.tmp-<pid>`) is removed by the next holder, while
 * a live process's temporary file is spared.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { takeMerchantLock } from "../../src/merchant/lock.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pf-merchant-lock-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

/** A pid no process has: past the kernel's pid_max (4194304 at most on Linux). */
const DEAD = 4_194_305;

describe("takeMerchantLock", () => {
  it("is held once at a time, and removes the temporaries of dead processes only", async () => {
    const first = await takeMerchantLock(dir);
    expect(first).toBeDefined();
    expect(await takeMerchantLock(dir)).toBeUndefined();
    await first!.release();

    const state = join(dir, "state");
    const reports = join(dir, "reports");
    await mkdir(reports, { recursive: true });
    await writeFile(join(state, `.merchant.sqlite.tmp-${DEAD}`), "x");
    await writeFile(join(reports, `.google-issues.csv.tmp-${DEAD}`), "x");
    await writeFile(join(state, `.merchant.sqlite.tmp-${process.ppid}`), "x");
    await writeFile(join(state, `.explain.sqlite.tmp-${DEAD}`), "x");
    const second = await takeMerchantLock(dir);
    await second!.release();
    expect((await readdir(state)).filter((n) => n.includes(".tmp-")).sort()).toEqual([`.explain.sqlite.tmp-${DEAD}`, `.merchant.sqlite.tmp-${process.ppid}`]);
    expect(await readdir(reports)).toEqual([]);
  });
});
