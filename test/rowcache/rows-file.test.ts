import { mkdtemp, readFile, rm, writeFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Entry, ROWS_VERSION, RowsReader, RowsWriter, type Trailer } from "../../src/rowcache/file.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pharmafeed-rows-"));
  file = join(dir, "rows.ndjson");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const trailer: Omit<Trailer, "rowcache" | "products" | "digest"> = { startedAt: "2026-11-25T00:00:00.000Z", code: "c", snapshot: "g", now: 1, reference: "r", offers: false, channels: [], rejections: [] };

function entry(k: number): Entry {
  // Names long enough that lines cross the reader's 1 MiB window, some with multi-byte characters.
  return { p: { id: `P${k}`, codes: [], gtin: undefined, cip13: undefined, names: { fr: `Crème n°${k} ${"x".repeat(k % 3000)}` }, brand: "B" }, n: k, o: "", c: [{ o: k * 7, l: k }, { r: [["NO_PRICE"]], rb: 20 }, null] };
}

function write(count: number): Entry[] {
  const writer = new RowsWriter(file);
  const entries = Array.from({ length: count }, (_, k) => entry(k));
  for (const e of entries) writer.add(e);
  writer.commit(trailer);
  return entries;
}

function read(): { trailer: Trailer; entries: Entry[] } | string {
  const opened = RowsReader.open(file);
  if ("reason" in opened) return opened.reason;
  const entries = [...opened.reader.entries()];
  opened.reader.close();
  return { trailer: opened.reader.trailer, entries };
}

describe("rows.ndjson", () => {
  it("gives back every entry in order and the trailer, across read windows and multi-byte text", () => {
    const written = write(2500);
    const back = read();
    if (typeof back === "string") throw new Error(back);
    expect(back.trailer).toEqual({ ...trailer, rowcache: ROWS_VERSION, products: 2500, digest: expect.stringMatching(/^[\w-]{43}$/) });
    expect(back.entries.length).toBe(2500);
    expect(JSON.parse(JSON.stringify(back.entries))).toEqual(JSON.parse(JSON.stringify(written)));
  });

  it("is renamed into place only by commit: an aborted writer leaves the previous file and no temporary", async () => {
    write(3);
    const writer = new RowsWriter(file);
    writer.add(entry(9));
    writer.abort();
    expect(await readdir(dir)).toEqual(["rows.ndjson"]);
    const back = read();
    expect(typeof back === "string" ? back : back.entries.map((e) => e.p.id)).toEqual(["P0", "P1", "P2"]);
  });

  it("is not used, with the reason, when missing, empty, cut short, garbage or of another format version", async () => {
    expect(read()).toMatch(/no rows recorded yet/);
    await writeFile(file, "");
    expect(read()).toMatch(/not usable: no trailer/);
    write(50);
    const whole = await readFile(file);
    await writeFile(file, whole.subarray(0, whole.length - 1));
    expect(read()).toMatch(/not usable/);
    await writeFile(file, whole.subarray(0, Math.floor(whole.length / 2)));
    expect(read()).toMatch(/not usable/);
    await writeFile(file, "garbage\nmore garbage\n");
    expect(read()).toMatch(/not usable/);
    await writeFile(file, whole.toString("utf8").replace(`"rowcache":${ROWS_VERSION}`, `"rowcache":${ROWS_VERSION + 1}`));
    expect(read()).toMatch(new RegExp(`format ${ROWS_VERSION + 1}, this version reads ${ROWS_VERSION}`));
  });

  it("is not used when its entries were edited, cut, reordered or damaged, its trailer kept", async () => {
    write(50);
    const lines = (await readFile(file, "utf8")).split("\n").slice(0, -1);
    const trailerLine = lines.at(-1)!;
    const entries = lines.slice(0, -1);
    const variants = [
      entries.slice(0, 25),
      [entries[1]!, entries[0]!, ...entries.slice(2)],
      entries.map((l, k) => (k === 7 ? l.replace('"l":7', '"l":8') : l)),
      [...entries, entries[49]!],
    ];
    for (const variant of variants) {
      await writeFile(file, [...variant, trailerLine].join("\n") + "\n");
      expect(read()).toMatch(/not usable: its entries are not those its trailer describes/);
    }
  });
});
