import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, writeFile, access, readdir, rm, stat, utimes } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireLock, type Lock } from "../../src/publish/lock.js";
import { ensureBuilt, ROOT } from "../e2e/cli.js";
import { LOCK_FILE } from "../../src/core/layout.js";

const dir = () => mkdtemp(join(tmpdir(), "pharmafeed-lock-"));

function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}
deadPid.cached = deadPid();

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

  it("respects a fresh lock from another host, and takes over one whose heartbeat is older than the bound", async () => {
    const d = await dir();
    const file = join(d, LOCK_FILE);
    await writeFile(file, JSON.stringify({ pid: 4242, host: "container-7f3a", startedAt: "2026-01-01T00:00:00Z", token: "t" }));
    await expect(acquireLock(d, { staleAfterMs: 60_000 })).rejects.toMatchObject({
      code: "LOCK_HELD",
      message: expect.stringMatching(/pid 4242 on container-7f3a.*last heartbeat \d+ s ago.*older than 60 s/),
    });
    const old = new Date(Date.now() - 61_000);
    await utimes(file, old, old);
    const lock = await acquireLock(d, { staleAfterMs: 60_000 });
    expect(lock.tookOver).toBe(true);
    expect(lock.previous).toMatch(/pid 4242 on container-7f3a.*no heartbeat for 6\d s/);
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ pid: process.pid, host: hostname() });
    await lock.release();
    await rm(d, { recursive: true, force: true });
  });

  it("keeps its heartbeat while the run lives, so a live run is never taken over", async () => {
    const d = await dir();
    const file = join(d, LOCK_FILE);
    const lock = await acquireLock(d, { staleAfterMs: 10_000, heartbeatMs: 20 });
    const old = new Date(Date.now() - 3_600_000);
    await utimes(file, old, old);
    const until = Date.now() + 10_000;
    while ((await stat(file)).mtimeMs < Date.now() - 60_000 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect((await stat(file)).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
    await expect(acquireLock(d, { staleAfterMs: 10_000 })).rejects.toMatchObject({ code: "LOCK_HELD" });
    await lock.release();
    await rm(d, { recursive: true, force: true });
  });

  it("lets exactly one of several runs starting together win, with and without a stale lock in place (200 rounds)", async () => {
    const d = await dir();
    const file = join(d, LOCK_FILE);
    for (let round = 0; round < 200; round++) {
      const stale = round % 3;
      if (stale === 1) await writeFile(file, JSON.stringify({ pid: deadPid.cached, host: hostname(), startedAt: "x", token: "dead" }));
      if (stale === 2) {
        await writeFile(file, JSON.stringify({ pid: 1, host: "gone-host", startedAt: "x", token: "old" }));
        const old = new Date(Date.now() - 3_600_000);
        await utimes(file, old, old);
      }
      const results = await Promise.allSettled([0, 1, 2, 3].map(() => acquireLock(d, { staleAfterMs: 60_000 })));
      const won = results.filter((r): r is PromiseFulfilledResult<Lock> => r.status === "fulfilled");
      const lost = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason as { code: string });
      expect(won, `round ${round}`).toHaveLength(1);
      expect(lost.every((e) => e.code === "LOCK_HELD")).toBe(true);
      expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ pid: process.pid });
      await won[0]!.value.release();
      await expect(access(file)).rejects.toThrow();
    }
    // Nothing left behind: no drafts, no takeover lock.
    expect(await readdir(d)).toEqual([]);
    await rm(d, { recursive: true, force: true });
  });

  it("lets exactly one of two processes starting together win over an old foreign lock (12 rounds)", async () => {
    ensureBuilt();
    const d = await dir();
    const file = join(d, LOCK_FILE);
    // The winner holds the lock until both have answered (its stdin closes), so that a run
    // started late on a loaded machine still meets the other's lock.
    const script = `
      const { acquireLock } = await import(${JSON.stringify(join(ROOT, "dist/publish/lock.js"))});
      let lock;
      try { lock = await acquireLock(process.argv[1], { staleAfterMs: 60000 }); process.stdout.write("won"); }
      catch (e) { process.stdout.write(String(e.code)); process.exit(0); }
      process.stdin.resume();
      process.stdin.on("end", async () => { await lock.release(); process.exit(0); });`;
    async function race(): Promise<string[]> {
      const children = [0, 1].map(() => spawn(process.execPath, ["--input-type=module", "-e", script, d], { stdio: ["pipe", "pipe", "inherit"] }));
      const closed = children.map((child) => new Promise((resolve) => child.on("close", resolve)));
      const answers = children.map(
        (child) =>
          new Promise<string>((resolve) => {
            let out = "";
            child.stdout.on("data", (b: Buffer) => {
              out += b.toString();
              resolve(out);
            });
            child.on("close", () => resolve(out));
          }),
      );
      const outcomes = await Promise.all(answers);
      for (const child of children) child.stdin.end();
      await Promise.all(closed);
      return outcomes.sort();
    }
    for (let round = 0; round < 12; round++) {
      await writeFile(file, JSON.stringify({ pid: 1, host: "killed-container", startedAt: "x", token: "old" }));
      const old = new Date(Date.now() - 3_600_000);
      await utimes(file, old, old);
      expect(await race(), `round ${round}`).toEqual(["LOCK_HELD", "won"]);
    }
    await rm(d, { recursive: true, force: true });
  });
});
