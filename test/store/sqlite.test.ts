import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { isPharmafeedError } from "../../src/errors.js";
import { buildStore, openStore, storeMeta } from "../../src/store/sqlite.js";

const KIND = { name: "test", version: 2 };

async function dir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "pf-store-"));
}

describe("store: build, commit, open", () => {
  it("commits by rename: the file appears whole, with its kind, version and meta", async () => {
    const d = await dir();
    const file = join(d, "s.sqlite");
    const b = await buildStore(file, KIND, { syncedAt: "123" });
    b.db.exec("CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER)");
    const put = b.db.prepare("INSERT INTO t VALUES (?, ?)");
    b.db.transaction(() => {
      for (let i = 0; i < 1000; i++) put.run(`P${i}`, i);
      // Nothing beside the temporary, not even a journal, that a killed run would leave behind.
      expect(readdirSync(d)).toEqual([basename(b.tmp)]);
    })();
    expect(openStore(file, KIND)).toBeUndefined();
    await b.commit();
    expect(await readdir(d)).toEqual(["s.sqlite"]);
    const db = openStore(file, KIND)!;
    expect((db.prepare("SELECT count(*) AS c FROM t").get() as { c: number }).c).toBe(1000);
    expect(storeMeta(db)).toMatchObject({ kind: "test", version: "2", syncedAt: "123" });
    db.close();
  });

  it("abort leaves the previous file untouched and no temporary", async () => {
    const d = await dir();
    const file = join(d, "s.sqlite");
    const first = await buildStore(file, KIND);
    first.db.exec("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)");
    await first.commit();
    const second = await buildStore(file, KIND);
    second.db.exec("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (2)");
    await second.abort();
    expect(await readdir(d)).toEqual(["s.sqlite"]);
    const db = openStore(file, KIND)!;
    expect(db.prepare("SELECT n FROM t").pluck().get()).toBe(1);
    db.close();
  });

  it("refuses another kind or format version, and a file that is not a store, with STORE_INVALID", async () => {
    const d = await dir();
    const file = join(d, "s.sqlite");
    const b = await buildStore(file, KIND);
    await b.commit();
    for (const kind of [{ name: "test", version: 3 }, { name: "other", version: 2 }]) {
      let error: unknown;
      try {
        openStore(file, kind);
      } catch (e) {
        error = e;
      }
      expect(isPharmafeedError(error, "STORE_INVALID")).toBe(true);
      expect((error as Error).message).toContain("a test store of format version 2");
    }
    const junk = join(d, "junk.sqlite");
    await writeFile(junk, "not sqlite at all, just text that is long enough to be read as a header ".repeat(20));
    expect(() => openStore(junk, KIND)).toThrow(/not a readable store|not a pharmafeed store/);
  });
});
