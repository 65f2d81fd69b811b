import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, writeFile, access } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireLock, LOCK_FILE } from "../../src/publish/lock.js";

const dir = () => mkdtemp(join(tmpdir(), "pharmafeed-lock-"));

function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

describe("run lock", () => {
  it("refuses a second run while the first holds the lock, and frees it on release", async () => {
    const d = await dir();
    const lock = await acquireLock(d);
    expect(lock.tookOver).toBe(false);
    await expect(acquireLock(d)).rejects.toMatchObject({ code: "LOCK_HELD" });
    await lock.release();
    await expect(access(join(d, LOCK_FILE))).rejects.toThrow();
    const again = await acquireLock(d);
    await again.release();
  });

  it("takes over the stale lock of a dead process", async () => {
    const d = await dir();
    await writeFile(join(d, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: "2026-01-01T00:00:00Z" }));
    const lock = await acquireLock(d);
    expect(lock.tookOver).toBe(true);
    expect(JSON.parse(await readFile(join(d, LOCK_FILE), "utf8"))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it("takes over an unreadable lock file, but not one held from another host", async () => {
    const d = await dir();
    await writeFile(join(d, LOCK_FILE), "{half");
    const lock = await acquireLock(d);
    expect(lock.tookOver).toBe(true);
    await lock.release();
    await writeFile(join(d, LOCK_FILE), JSON.stringify({ pid: 1, host: "other-host", startedAt: "x" }));
    await expect(acquireLock(d)).rejects.toMatchObject({ code: "LOCK_HELD" });
  });
});
