import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HISTORY_KEEP, type Manifest, readHistory, readManifest, readPreviousManifest, writeManifest } from "../../src/publish/manifest.js";

function manifest(i: number): Manifest {
  const at = new Date(Date.UTC(2026, 10, 1, 2, 0, i)).toISOString();
  return {
    version: 1,
    startedAt: at,
    endedAt: at,
    status: "ok",
    source: { total: 10, received: 10, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 },
    channels: [
      {
        name: "google-fr", preset: "google", locale: "fr", format: "xml", contentType: "application/xml; charset=utf-8",
        file: "google-fr.xml", items: i, excluded: { PRESCRIPTION: 2 }, warnings: {}, fallbacks: {}, bytes: 10, sha256: "ab",
        published: true, live: { file: "google-fr.xml", items: i, bytes: 10, sha256: "ab", publishedAt: at },
      },
    ],
  };
}

describe("manifest", () => {
  it("round-trips and keeps the last 30 runs in history, oldest first", async () => {
    const d = await mkdtemp(join(tmpdir(), "pharmafeed-manifest-"));
    expect(await readManifest(d)).toBeUndefined();
    for (let i = 0; i < HISTORY_KEEP + 5; i++) await writeManifest(d, manifest(i));
    expect(await readManifest(d)).toEqual(manifest(HISTORY_KEEP + 4));
    const history = await readHistory(d);
    expect(history.map((m) => m.channels[0]!.items)).toEqual(Array.from({ length: HISTORY_KEEP }, (_, i) => i + 5));
    expect((await readdir(d)).sort()).toEqual(["history", "manifest.json"]);
  });

  it("treats an unreadable manifest as absent", async () => {
    const d = await mkdtemp(join(tmpdir(), "pharmafeed-manifest-"));
    await writeFile(join(d, "manifest.json"), '{"version": 2}');
    expect(await readManifest(d)).toBeUndefined();
  });

  it("gives the gate the newest readable history copy when manifest.json is lost", async () => {
    const d = await mkdtemp(join(tmpdir(), "pharmafeed-manifest-"));
    expect(await readPreviousManifest(d)).toBeUndefined();
    for (let i = 1; i <= 3; i++) await writeManifest(d, manifest(i));
    expect(await readPreviousManifest(d)).toEqual({ manifest: manifest(3), from: "manifest.json" });

    // Edited by hand into something else: the copy of the same run in history/.
    await writeFile(join(d, "manifest.json"), '{"version": 1, "startedAt": "2026-');
    expect(await readManifest(d)).toBeUndefined();
    const copies = (await readdir(join(d, "history"))).sort();
    expect(await readPreviousManifest(d)).toEqual({ manifest: manifest(3), from: `history/${copies[2]}` });

    // Deleted, and the newest copy unreadable too: the one before it.
    await rm(join(d, "manifest.json"));
    await writeFile(join(d, "history", copies[2]!), "not json");
    expect(await readPreviousManifest(d)).toEqual({ manifest: manifest(2), from: `history/${copies[1]}` });
    // The status page's chart loses only the unreadable run.
    expect((await readHistory(d)).map((m) => m.channels[0]!.items)).toEqual([1, 2]);
  });
});

