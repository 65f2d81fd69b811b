/**
 * The parts "what changed?" stands on, each alone: an item's facts read out of its outcome's text,
 * a kept sheet read back only when whole and this version's, the diff of two sheets, the versions
 * a channel published and how a user names them, and the price rule of the gate.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { itemOutcome } from "../../src/explain/entry.js";
import { diffSheets, SheetDiffError, type SheetSource } from "../../src/history/diff.js";
import { diffSummary } from "../../src/history/diff-words.js";
import { lastPublishedPrices } from "../../src/history/last-prices.js";
import { readSheet, sheetHeader, sheetPath, type SheetItem } from "../../src/history/sheet.js";
import { keepSheet } from "../../src/history/store.js";
import { resolveVersion, versionsOf } from "../../src/history/versions.js";
import { factsText, type ItemFacts, textHash } from "../../src/mapping/item-facts.js";
import { evaluateGate } from "../../src/publish/gate.js";
import type { Manifest } from "../../src/publish/manifest.js";

const dirs: string[] = [];
async function outputDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pf-sheet-"));
  dirs.push(dir);
  await mkdir(join(dir, "history", "feeds"), { recursive: true });
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const SHA = "a".repeat(64);

function item(id: string, cents: number, extra: Partial<SheetItem> = {}): SheetItem {
  return { id, catalogueId: id, codes: [], name: `name ${id}`, cents, currency: "EUR", availability: "in_stock", title: 1, link: 2, image: 3, ...extra };
}

/** A sheet line as the recorder writes it (the published id only when it is not the catalogue's). */
const lineOf = (i: SheetItem) => JSON.stringify([i.catalogueId, i.codes, i.name, i.cents, i.currency, i.availability, i.title, i.link, i.image, ...(i.id === i.catalogueId ? [] : [i.id])]);

const source = (items: readonly SheetItem[]): SheetSource => async (onLine) => {
  for (const i of items) onLine(lineOf(i));
  return { ok: true, items: items.length };
};

describe("an item's facts in its outcome", () => {
  it("are read out of the outcome's text as the packer wrote them, published ids with ] and quotes included", () => {
    const facts: ItemFacts = [1299, "EUR", "in_stock", textHash("Title"), textHash("https://x"), 0, 'odd]"id\\'];
    const text = JSON.stringify(itemOutcome(12, 340, [{ code: "MISSING_BRAND" }], { title: "nl" }, { warningBytes: 3, mask: [7], facts }));
    expect(JSON.parse(`[${factsText(text)!.slice(1)}`)).toEqual(facts);
    expect(factsText(JSON.stringify(itemOutcome(0, 1, [], {}, { warningBytes: 0, mask: [] })))).toBeUndefined();
    expect(factsText(JSON.stringify({ r: [["PRESCRIPTION"]], rb: 10 }))).toBeUndefined();
    expect(factsText("null")).toBeUndefined();
  });

  it("hash texts: 0 for none, equal for equal, different for a changed one", () => {
    expect(textHash("")).toBe(0);
    expect(textHash("Doliprane 1000 mg")).toBe(textHash("Doliprane 1000 mg"));
    expect(textHash("Doliprane 1000 mg")).not.toBe(textHash("Doliprane 500 mg"));
  });
});

describe("a kept item sheet", () => {
  async function kept(lines: string[], header = sheetHeader(SHA, lines.length)): Promise<string> {
    const dir = await outputDir();
    await writeFile(sheetPath(dir, SHA), gzipSync(`${header}\n${lines.join("\n")}\n`));
    return dir;
  }
  const line = JSON.stringify(["P1", ["05400000000017"], "Name", 1299, "EUR", "in_stock", 1, 2, 3]);

  it("is read back whole, its items as written (the published id when the line has one)", async () => {
    const dir = await outputDir();
    const temp = join(dir, "written.items");
    await writeFile(temp, `${line}\n${JSON.stringify(["P2", [], "Two", 500, "EUR", "out_of_stock", 4, 5, 0, "feed-P2"])}\n`);
    expect(await keepSheet(dir, SHA, { file: temp, items: 2 })).toBe("kept");
    expect(await keepSheet(dir, SHA, { file: temp, items: 2 })).toBe("already");
    // A kept sheet cut short is kept again, as a kept feed is (it was trusted on its name).
    const whole = await readFile(sheetPath(dir, SHA));
    await writeFile(sheetPath(dir, SHA), whole.subarray(0, whole.length - 5));
    expect(await keepSheet(dir, SHA, { file: temp, items: 2 })).toBe("kept");
    expect(await readFile(sheetPath(dir, SHA))).toEqual(whole);
    const items: SheetItem[] = [];
    expect(await readSheet(dir, SHA, (i) => items.push(i))).toEqual({ ok: true, items: 2 });
    expect(items.map((i) => [i.id, i.catalogueId, i.codes, i.cents, i.availability])).toEqual([
      ["P1", "P1", ["05400000000017"], 1299, "in_stock"],
      ["feed-P2", "P2", [], 500, "out_of_stock"],
    ]);
  });

  it("is refused when it is not whole, not this version's, or not a sheet", async () => {
    const why = async (dir: string) => {
      const r = await readSheet(dir, SHA, () => undefined);
      return r.ok ? "ok" : r.why;
    };
    expect(await why(await kept([line, line], sheetHeader(SHA, 3)))).toContain("2 items, the header says 3");
    expect(await why(await kept([line], sheetHeader("b".repeat(64), 1)))).toContain("not this version's sheet header");
    expect(await why(await kept(["not json"]))).toContain("line 2 is not an item");
    expect(await why(await outputDir())).toContain("no item sheet is kept");
    const truncated = await kept([line, line, line]);
    const bytes = await readFile(sheetPath(truncated, SHA));
    await writeFile(sheetPath(truncated, SHA), bytes.subarray(0, bytes.length - 12));
    expect(await why(truncated)).toContain("damaged");
  });
});

describe("the diff of two versions", () => {
  it("counts added, removed, price moves (largest up and down), availability, title, link and photo changes", async () => {
    const from = [item("A", 1000), item("B", 2000), item("C", 3000), item("D", 400), item("E", 500)];
    const to = [
      item("A", 1100), // +10 %
      item("B", 1000), // -50 %
      item("C", 3000, { availability: "out_of_stock", title: 9 }),
      item("E", 500, { link: 8, image: 0 }),
      item("F", 600),
    ];
    const diff = await diffSheets(source(from), source(to), { movedPercent: 20 });
    expect(diff.added).toEqual([{ id: "F", name: "name F" }]);
    expect(diff.removed).toEqual([{ id: "D", name: "name D" }]);
    expect(diff.prices).toMatchObject({ changed: 2, up: 1, down: 1, movedBeyond: 1, largestUp: { id: "A", from: 1000, to: 1100 }, largestDown: { id: "B", from: 2000, to: 1000, percent: -50 }, largestMove: { id: "B" } });
    expect(diff.availability).toEqual({ changed: 1, transitions: { "in_stock -> out_of_stock": 1 } });
    expect([diff.titles, diff.links, diff.images, diff.unchanged]).toEqual([1, 1, 1, 0]);
    expect(diffSummary(diff)).toBe("+1 -1, 2 price changes, 1 availability change, 1 title change, 1 link change, 1 photo change");
  });

  it("counts a currency change as a price change, a name change as none, an id the channel changed as removed and added", async () => {
    const diff = await diffSheets(source([item("A", 1000), item("B", 1), item("C", 2)]), source([item("A", 1000, { currency: "CHF" }), item("B", 1, { name: "renamed" }), item("C", 2, { id: "feed-C" })]));
    expect([diff.prices.changed, diff.unchanged]).toEqual([1, 1]);
    expect([diff.removed, diff.added]).toEqual([[{ id: "C", name: "name C" }], [{ id: "feed-C", name: "name C" }]]);
  });

  it("refuses a sheet that is not whole, or a line that is not an item", async () => {
    await expect(diffSheets(async () => ({ ok: false, why: "gone" }), source([]))).rejects.toThrow(SheetDiffError);
    const broken: SheetSource = async (onLine) => (onLine('["A",[],"x"]'), { ok: true, items: 1 });
    await expect(diffSheets(source([item("A", 1)]), broken)).rejects.toThrow("not an item");
    await expect(diffSheets(async (onLine) => (onLine("garbage"), { ok: true, items: 1 }), source([]))).rejects.toThrow("not an item");
  });
});

function manifest(startedAt: string, live: Record<string, string>): Manifest {
  const channels = Object.entries(live).map(([name, sha]) => ({
    name, preset: "google", locale: "fr", format: "xml", contentType: "application/xml", file: `${name}.xml`, items: 3, excluded: {}, warnings: {}, fallbacks: {}, bytes: 1, sha256: sha, published: true as const,
    live: { file: `${name}.xml`, items: 3, bytes: 1, sha256: sha, publishedAt: `${startedAt}-published` },
  }));
  return { version: 1, startedAt, endedAt: startedAt, status: "ok", source: { total: 3, received: 3, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 }, channels };
}

describe("the versions a channel published", () => {
  const history = [manifest("2026-11-25T02:00", { g: "1".repeat(64) }), manifest("2026-11-26T02:00", { g: "1".repeat(64) }), manifest("2026-11-27T02:00", { g: "12".padEnd(64, "3") }), manifest("2026-11-28T02:00", { g: "2".repeat(64) })];

  it("one per change of the live file, with the runs it was live after: runs that published the same bytes again are one version", () => {
    const versions = versionsOf(history, "g");
    // Each run records its own publish time: the same digest is still one version, published at the first.
    expect(versions.map((v) => [v.sha256.slice(0, 2), v.runs.length, v.publishedAt])).toEqual([
      ["11", 2, "2026-11-25T02:00-published"],
      ["12", 1, "2026-11-27T02:00-published"],
      ["22", 1, "2026-11-28T02:00-published"],
    ]);
    // A version put back after another is published again: it appears again.
    const back = versionsOf([...history, manifest("2026-11-29T02:00", { g: "1".repeat(64) })], "g");
    expect(back.map((v) => v.sha256.slice(0, 2))).toEqual(["11", "12", "22", "11"]);
  });

  it("previous is another file than the live one, even when the last runs changed nothing", () => {
    const unchanged = [...history, manifest("2026-11-29T02:00", { g: "2".repeat(64) }), manifest("2026-11-30T02:00", { g: "2".repeat(64) })];
    const previous = resolveVersion(versionsOf(unchanged, "g"), "previous");
    expect(previous.ok && previous.version.sha256.slice(0, 2)).toBe("12");
  });

  it("refuses an empty or blank reference (it would match every run), and takes a digest in upper case", () => {
    const versions = versionsOf(history, "g");
    for (const ref of ["", " ", "\t"]) expect(resolveVersion(versions, ref)).toEqual({ ok: false, why: expect.stringContaining("an empty version reference names no version") });
    const lettered = versionsOf([...history, manifest("2026-11-29T02:00", { g: "e3f28e58".padEnd(64, "a") })], "g");
    for (const ref of ["E3F28E58", "e3F28e58aA"]) {
      const r = resolveVersion(lettered, ref);
      expect(r.ok && r.version.sha256.slice(0, 8), ref).toBe("e3f28e58");
    }
  });

  it("named by the publish times diff and rollback print, whole or by their beginning, the later publish times of a version too", () => {
    const versions = versionsOf(history, "g");
    const sha = (ref: string) => {
      const r = resolveVersion(versions, ref);
      return r.ok ? r.version.sha256.slice(0, 2) : r.why;
    };
    // "-published" is in publish times only, never in a run's start time.
    expect([sha("2026-11-27T02:00-published"), sha("2026-11-25T02:00-pub"), sha("2026-11-26T02:00-published")]).toEqual(["12", "11", "11"]);
  });

  it("named by live, previous, a run's time or its start, or a digest prefix (one match only)", () => {
    const versions = versionsOf(history, "g");
    const sha = (ref: string) => {
      const r = resolveVersion(versions, ref);
      return r.ok ? r.version.sha256.slice(0, 2) : r.why;
    };
    expect([sha("live"), sha("previous"), sha("2026-11-27"), sha("2026-11-25T02"), sha("2222222")]).toEqual(["22", "12", "12", "11", "22"]);
    expect(sha("1111111")).toBe("11");
    expect(sha("2026-10")).toContain('no run starting with "2026-10"');
    expect(resolveVersion([], "live")).toMatchObject({ ok: false });
  });
});

describe("the price rule of the gate", () => {
  const settings = { maxDropPercent: 20, maxRejectedPercent: 25, maxPriceChangePercent: 50, maxPriceChangedItemsPercent: 25 };
  const gate = (moved: number, compared = 100, s = settings, force = false) => evaluateGate({ items: 100, rejected: 0, liveItems: 100, prices: { compared, moved, largest: { id: "P7", from: "12.99 EUR", to: "1299.00 EUR" } } }, s, force);

  it("holds a channel whose prices moved for more than the share of items allowed, and says which and how far", () => {
    expect(gate(25)).toEqual({ publish: true });
    expect(gate(26)).toEqual({ publish: false, reason: "prices moved more than 50% for 26.0% of items (26 of 100; largest P7: 12.99 EUR -> 1299.00 EUR), more than maxPriceChangedItemsPercent 25%" });
  });

  it("is off at 100 %, without a comparison, and under --force", () => {
    expect(gate(100, 100, { ...settings, maxPriceChangedItemsPercent: 100 })).toEqual({ publish: true });
    expect(evaluateGate({ items: 100, rejected: 0, liveItems: 100 }, settings)).toEqual({ publish: true });
    expect(gate(90, 100, settings, true)).toEqual({ publish: true });
  });
});

describe("the prices last published", () => {
  it("come from the largest live feed whose sheet is kept, by id and by code", async () => {
    const dir = await outputDir();
    const small = "c".repeat(64);
    const large = "d".repeat(64);
    const m = manifest("2026-11-28T02:00", { small, large });
    m.channels[1]!.live!.items = 9;
    await writeFile(sheetPath(dir, small), gzipSync(`${sheetHeader(small, 1)}\n${JSON.stringify(["P1", [], "n", 100, "EUR", "in_stock", 1, 1, 1])}\n`));
    expect((await lastPublishedPrices(dir, m))?.channel).toBe("small");
    await writeFile(sheetPath(dir, large), gzipSync(`${sheetHeader(large, 1)}\n${JSON.stringify(["P1", ["05400000000017"], "n", 1299, "EUR", "in_stock", 1, 1, 1])}\n`));
    const last = await lastPublishedPrices(dir, m);
    expect([last?.channel, last?.byId.get("P1"), last?.byCode.get(5400000000017)]).toEqual(["large", 1299, 1299]);
    expect(await lastPublishedPrices(dir, undefined)).toBeUndefined();
  });
});
