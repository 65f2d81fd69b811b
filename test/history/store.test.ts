/**
 * The kept versions of published feeds (src/history/store.ts): kept once per digest, whole or
 * not at all, checked before use, pruned by count and by size with damaged and stray files
 * in the folder.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { keepVersion, keptPath, keptVersions, prune, readKept } from "../../src/history/store.js";
import { removeTemporaries, tempDir } from "../e2e/config.js";

afterAll(removeTemporaries);

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const feeds = join("history", "feeds");

/** An output directory with the given published files (name -> content). */
async function output(files: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe("keepVersion and readKept", () => {
  it("keeps a version once, gzipped, and gives back its bytes checked against the digest", async () => {
    const text = "<rss>" + "item ".repeat(1000) + "</rss>";
    const dir = await output({ "google-fr.xml": text, "copy.xml": text });
    expect(await keepVersion(dir, "google-fr.xml", sha(text))).toBe("kept");
    expect(await keepVersion(dir, "copy.xml", sha(text))).toBe("already");
    expect(await readdir(join(dir, feeds))).toEqual([`${sha(text)}.gz`]);
    expect((await readFile(keptPath(dir, sha(text)))).length).toBeLessThan(text.length / 10);
    expect((await readKept(dir, sha(text)))?.toString()).toBe(text);
    expect(await readKept(dir, sha("never published"))).toBeUndefined();
  });

  it("a large file comes back whole: every chunk read is both hashed and compressed", async () => {
    // 2 MB in many read chunks, five times over: a chunk read before the file was piped into gzip
    // (hashed, never compressed) would leave a damaged version behind a digest that matched.
    for (let round = 0; round < 5; round++) {
      const text = Array.from({ length: 40_000 }, (_, i) => `M${round}${i},${(i * 7919) % 10007},Doliprane ${i} mg`).join("\n");
      const dir = await output({ "big.csv": text });
      expect(await keepVersion(dir, "big.csv", sha(text))).toBe("kept");
      expect((await readKept(dir, sha(text)))?.toString()).toBe(text);
    }
  });

  it("refuses a file that is not the version the manifest names, and leaves nothing behind", async () => {
    const dir = await output({ "feed.csv": "changed since" });
    await expect(keepVersion(dir, "feed.csv", sha("what the manifest says"))).rejects.toThrow(/feed.csv is not the version the manifest names/);
    expect(await readdir(join(dir, feeds))).toEqual([]);
  });

  it("keeps a damaged copy of the version again when a run publishes it again: truncated, not gzip, empty, another file's bytes", async () => {
    const text = "<rss>" + Array.from({ length: 3000 }, (_, i) => `<item>${(i * 7919) % 10007}</item>`).join("") + "</rss>";
    const dir = await output({ "google-fr.xml": text });
    expect(await keepVersion(dir, "google-fr.xml", sha(text))).toBe("kept");
    const whole = await readFile(keptPath(dir, sha(text)));
    const damages = { truncated: whole.subarray(0, 4000), "not gzip": Buffer.from("hello, not gzip"), empty: Buffer.alloc(0), "another file's bytes": gzipSync("id,title\n1,Dafalgan\n") };
    for (const [what, damaged] of Object.entries(damages)) {
      await writeFile(keptPath(dir, sha(text)), damaged);
      expect(await keepVersion(dir, "google-fr.xml", sha(text)), what).toBe("kept");
      expect((await readKept(dir, sha(text)))?.toString(), what).toBe(text);
    }
    // A whole copy is left as it is (checked by its first and last bytes, not inflated).
    expect(await keepVersion(dir, "google-fr.xml", sha(text))).toBe("already");
    expect((await readFile(keptPath(dir, sha(text)))).equals(whole)).toBe(true);
  });

  it("never hands out a damaged version: truncated, not gzip, or another file's bytes; each is removed", async () => {
    const text = "id,title\n1,Doliprane\n";
    const dir = await output({ "feed.csv": text });
    await keepVersion(dir, "feed.csv", sha(text));
    const whole = await readFile(keptPath(dir, sha(text)));
    for (const damaged of [whole.subarray(0, whole.length - 5), Buffer.from("not gzip at all"), gzipSync("id,title\n1,Dafalgan\n"), Buffer.alloc(0)]) {
      await writeFile(keptPath(dir, sha(text)), damaged);
      expect(await readKept(dir, sha(text))).toBeUndefined();
      expect(await keptVersions(dir)).toEqual([]);
    }
  });
});

describe("prune", () => {
  /** Versions a..f kept, each `size` characters of its letter (incompressible enough to differ). */
  async function kept(size = 2000): Promise<{ dir: string; d: Record<string, string> }> {
    const texts = Object.fromEntries([..."abcdef"].map((l) => [l, Array.from({ length: size }, (_, i) => `${l}${(i * 7919) % 1000}`).join(",")]));
    const dir = await output(Object.fromEntries(Object.entries(texts).map(([l, t]) => [`${l}.csv`, t])));
    for (const [l, t] of Object.entries(texts)) await keepVersion(dir, `${l}.csv`, sha(t));
    return { dir, d: Object.fromEntries(Object.entries(texts).map(([l, t]) => [l, sha(t)])) };
  }
  const names = async (dir: string) => (await keptVersions(dir)).map((v) => v.sha256).sort();

  it("keeps what the last runs name, removes the rest, stray files and folders included", async () => {
    const { dir, d } = await kept();
    await writeFile(join(dir, feeds, "notes.txt"), "someone's file");
    await writeFile(join(dir, feeds, `.${d["a"]}.gz.tmp-123`), "a killed run's temporary");
    await mkdir(join(dir, feeds, `${"0".repeat(64)}.gz`));
    const removed = await prune(dir, [[d["a"]!, d["b"]!], [d["b"]!, d["c"]!], [d["a"]!]], Number.MAX_SAFE_INTEGER);
    expect(removed.sort()).toEqual([d["d"], d["e"], d["f"]].sort());
    expect(await names(dir)).toEqual([d["a"], d["b"], d["c"]].sort());
    expect((await readdir(join(dir, feeds))).sort()).toEqual([d["a"], d["b"], d["c"]].map((x) => `${x}.gz`).sort());
  });

  it("within the size: the oldest runs go first, from the first that does not fit; the live versions always stay", async () => {
    const { dir, d } = await kept();
    const size = new Map((await keptVersions(dir)).map((v) => [v.sha256, v.bytes]));
    const bytes = (...ls: string[]) => ls.reduce((sum, l) => sum + size.get(d[l]!)!, 0);
    const runs = [[d["a"]!], [d["b"]!], [d["c"]!, d["d"]!], [d["e"]!]];
    // Room for a, b and c+d minus one byte: c+d do not fit, and e (older) goes with them though it would fit.
    await prune(dir, runs, bytes("a", "b", "c", "d") - 1);
    expect(await names(dir)).toEqual([d["a"], d["b"]].sort());
    // Less room than the live version alone: it stays, every older one goes.
    await prune(dir, runs, 1);
    expect(await names(dir)).toEqual([d["a"]]);
  });

  it("removes a version's item sheet with it, and an orphan sheet; a sheet counts in its version's size", async () => {
    const { dir, d } = await kept();
    const sheet = (x: string, text = "x".repeat(5000)) => writeFile(join(dir, feeds, `${x}.items.gz`), gzipSync(text, { level: 0 }));
    const before = new Map((await keptVersions(dir)).map((v) => [v.sha256, v.bytes]));
    await Promise.all([sheet(d["a"]!), sheet(d["b"]!), sheet("9".repeat(64))]);
    const after = new Map((await keptVersions(dir)).map((v) => [v.sha256, v.bytes]));
    expect(after.get(d["a"]!)! - before.get(d["a"]!)!).toBeGreaterThan(5000);
    expect(after.get(d["c"]!)).toBe(before.get(d["c"]!));
    await prune(dir, [[d["a"]!]], Number.MAX_SAFE_INTEGER);
    expect((await readdir(join(dir, feeds))).sort()).toEqual([`${d["a"]}.gz`, `${d["a"]}.items.gz`].sort());
  });

  it("copes with a folder that does not exist", async () => {
    const dir = await output({});
    expect(await prune(dir, [[sha("x")]], 10)).toEqual([]);
    expect(await keptVersions(dir)).toEqual([]);
  });
});
