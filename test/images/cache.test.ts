import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cacheKey, ImageIndex, INDEX_FILE, type CacheEntry } from "../../src/images/cache.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function folder(files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pharmafeed-images-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

const NAME_A = `${"a".repeat(32)}.jpg`;
const NAME_B = `${"b".repeat(32)}.jpg`;
const entry = (file: string, usedAt: string): CacheEntry => ({ file, mediaId: 1, updatedAt: 5, width: 800, height: 800, bytes: 3, usedAt });
const NOW = new Date("2026-03-10T02:00:00Z");

describe("cacheKey", () => {
  it("stays the same when only the host serving the rendition changes (a CDN, the sandbox's port)", () => {
    const source = { url: "http://127.0.0.1:40123/media/huge/ab12.jpeg", mediaId: 1, updatedAt: 5 };
    expect(cacheKey({ ...source, url: "http://127.0.0.1:51234/media/huge/ab12.jpeg" }, "s1")).toBe(cacheKey(source, "s1"));
    expect(cacheKey({ ...source, url: "http://127.0.0.1:40123/media/large/ab12.jpeg" }, "s1")).not.toBe(cacheKey(source, "s1"));
  });

  it("changes with the media id, its updatedAt, the URL's rendition and the settings", () => {
    const source = { url: "https://cdn.example/a.jpeg", mediaId: 1, updatedAt: 5 };
    const key = cacheKey(source, "s1");
    expect(cacheKey({ ...source }, "s1")).toBe(key);
    for (const other of [cacheKey({ ...source, mediaId: 2 }, "s1"), cacheKey({ ...source, updatedAt: 6 }, "s1"), cacheKey({ ...source, url: "https://cdn.example/b.jpeg" }, "s1"), cacheKey(source, "s2")]) {
      expect(other).not.toBe(key);
    }
  });
});

describe("ImageIndex", () => {
  it("is an empty cache when the index is missing, not JSON, of another version or of another shape", async () => {
    expect((await ImageIndex.load(join(await folder(), "missing"))).size).toBe(0);
    for (const text of ["{oops", JSON.stringify({ version: 2, entries: {} }), JSON.stringify({ version: 1, entries: { k: { file: "../../etc/passwd" } } })]) {
      const dir = await folder({ [INDEX_FILE]: text, [NAME_A]: "x" });
      expect((await ImageIndex.load(dir)).size, text).toBe(0);
    }
  });

  it("round-trips entries, dropping those whose file is gone", async () => {
    const dir = await folder({ [NAME_A]: "x" });
    const index = await ImageIndex.load(dir);
    index.set("ka", entry(NAME_A, NOW.toISOString()));
    index.set("kb", entry(NAME_B, NOW.toISOString()));
    await index.save(NOW, 7);
    const again = await ImageIndex.load(dir);
    expect(again.size).toBe(1);
    expect(again.use("ka", NOW.toISOString())?.file).toBe(NAME_A);
    expect(again.use("kb", NOW.toISOString())).toBeUndefined();
    expect((await readdir(dir)).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("prunes entries unused for retainDays and deletes only files it owned that nothing refers to", async () => {
    const stranger = `${"c".repeat(32)}.jpg`;
    const old = "2026-03-01T02:00:00Z";
    const dir = await folder({ [NAME_A]: "a", [NAME_B]: "b", [stranger]: "not ours", "notes.txt": "keep" });
    const first = await ImageIndex.load(dir);
    first.set("old", entry(NAME_A, old));
    first.set("shared-old", entry(NAME_B, old));
    first.set("shared-new", entry(NAME_B, NOW.toISOString()));
    await first.save(new Date(old), 7);

    const index = await ImageIndex.load(dir);
    expect(await index.save(NOW, 7)).toEqual([NAME_A]);
    expect((await readdir(dir)).sort()).toEqual([NAME_B, stranger, INDEX_FILE, "notes.txt"].sort());
    const saved = JSON.parse(await readFile(join(dir, INDEX_FILE), "utf8")) as { entries: Record<string, unknown> };
    expect(Object.keys(saved.entries)).toEqual(["shared-new"]);
  });

  it("keeps an old entry a run used again (use() renews it)", async () => {
    const dir = await folder({ [NAME_A]: "a" });
    const first = await ImageIndex.load(dir);
    first.set("k", entry(NAME_A, "2026-01-01T00:00:00Z"));
    await first.save(new Date("2026-01-01T00:00:00Z"), 7);
    const index = await ImageIndex.load(dir);
    index.use("k", NOW.toISOString());
    expect(await index.save(NOW, 7)).toEqual([]);
    expect(await readdir(dir)).toContain(NAME_A);
  });
});
