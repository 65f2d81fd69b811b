import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HISTORY_KEEP, type Manifest, readHistory, readManifest, writeManifest } from "../../src/publish/manifest.js";

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
});
