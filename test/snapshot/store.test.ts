/** The snapshot file: round trip, atomic replacement under kill -9, older format versions refused. */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSnapshot, SnapshotWriter } from "../../src/snapshot/store.js";

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pharmafeed-snapshot-"));
  file = join(dir, "state", "snapshot.pfs");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const lineOf = (k: number) => Buffer.from(`{"meta":{"total":3000,"index":${k}},"result":{"id":"M${String(k).padStart(9, "0")}","name":{"fr":"Produit ${k} \\u00e9"},"text":"${"lorem ipsum ".repeat(60)}"}}`);

async function writeSnapshot(count: number): Promise<Buffer[]> {
  const writer = await SnapshotWriter.create(file, { syncedAt: "2026-01-01T00:00:00.000Z", filter: '{"status":"active"}', sorting: '{"id":"ASC"}', via: "full" });
  writer.setReference({ categories: [{ id: 1, name: { fr: "Cat" } }], brands: [{ id: 2, name: "B" }] });
  const lines = Array.from({ length: count }, (_, k) => lineOf(k));
  for (const line of lines) void writer.add(line);
  await writer.commit();
  return lines;
}

describe("snapshot store", () => {
  it("gives back every line in order, with its sync time, filter and reference lists", async () => {
    const lines = await writeSnapshot(3000);
    const snapshot = openSnapshot(file)!;
    expect(snapshot.info).toEqual({ syncedAt: "2026-01-01T00:00:00.000Z", filter: '{"status":"active"}', sorting: '{"id":"ASC"}', via: "full", records: 3000, generation: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(snapshot.reference).toEqual({ categories: [{ id: 1, name: { fr: "Cat" } }], brands: [{ id: 2, name: "B" }] });
    const read = [...snapshot.lines()].map((b) => Buffer.from(b));
    snapshot.close();
    expect(read.length).toBe(3000);
    expect(read.every((b, k) => b.equals(lines[k]!))).toBe(true);
  });

  it("gives any line by its number (a refresh reads the lines of changed products only), and a new generation per snapshot", async () => {
    const lines = await writeSnapshot(3000);
    const snapshot = openSnapshot(file)!;
    for (const n of [0, 1, 17, 18, 1499, 2998, 2999, 5, 2999]) expect(Buffer.from(snapshot.line(n)!).equals(lines[n]!)).toBe(true);
    expect(snapshot.line(3000)).toBeUndefined();
    expect(snapshot.line(-1)).toBeUndefined();
    const first = snapshot.info.generation;
    snapshot.close();
    await writeSnapshot(10);
    const next = openSnapshot(file)!;
    expect(next.info.generation).toBeDefined();
    expect(next.info.generation).not.toBe(first);
    next.close();
  });

  it("keeps the previous snapshot whole when the writer is killed with SIGKILL mid-way", async () => {
    await writeSnapshot(500);
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("write-child.ts", import.meta.url)), file], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (data: Buffer) => data.toString().includes("writing") && resolve());
      child.on("exit", (code) => reject(new Error(`the writer ended (${code}) before it was killed`)));
    });
    const temporary = join(dir, "state", `.snapshot.pfs.tmp-${child.pid}`);
    expect(existsSync(temporary)).toBe(true);
    const exited = new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    const snapshot = openSnapshot(file)!;
    expect(snapshot.info.records).toBe(500);
    const read = [...snapshot.lines()];
    snapshot.close();
    expect(read.length).toBe(500);
    expect(Buffer.from(read[499]!).equals(lineOf(499))).toBe(true);
    expect((await readdir(join(dir, "state"))).sort()).toEqual([`.snapshot.pfs.tmp-${child.pid}`, "snapshot.pfs"]);
  });

  it("refuses a snapshot of format version 1 (SQLite) and of another version, naming both versions", async () => {
    await mkdir(join(dir, "state"), { recursive: true });
    await writeFile(file, Buffer.concat([Buffer.from("SQLite format 3\0", "latin1"), Buffer.alloc(4096)]));
    expect(() => openSnapshot(file)).toThrow(expect.objectContaining({ code: "STORE_INVALID", message: expect.stringMatching(/a snapshot of format version 1 \(SQLite\); this version reads snapshot format version 2/) }));
    await writeSnapshot(10);
    const bytes = await readFile(file);
    bytes[6] = 3;
    await writeFile(file, bytes);
    expect(() => openSnapshot(file)).toThrow(expect.objectContaining({ code: "STORE_INVALID", message: expect.stringMatching(/a snapshot of format version 3; this version reads snapshot format version 2/) }));
  });

  it("keeps the counts of the read it holds", async () => {
    const writer = await SnapshotWriter.create(file, { syncedAt: "2026-01-01T00:00:00.000Z", filter: "{}", sorting: "{}", via: "full" });
    void writer.add(lineOf(1));
    await writer.commit({ total: 3, refusedByCode: { MALFORMED_JSON: 1, DUPLICATE_ID: 1 }, readAt: "2026-01-01T00:00:00.000Z" });
    const snapshot = openSnapshot(file)!;
    expect(snapshot.info.read).toEqual({ total: 3, refusedByCode: { MALFORMED_JSON: 1, DUPLICATE_ID: 1 }, readAt: "2026-01-01T00:00:00.000Z" });
    snapshot.close();
  });
});
