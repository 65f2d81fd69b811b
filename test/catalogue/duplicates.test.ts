/**
 * The same product id twice in one stream (issue 15, item 3): the first line keeps it, the
 * repeat is refused as DUPLICATE_ID, whichever reader (records, or raw lines for worker
 * threads) and whatever the shape of the line (id first, or read only by parsing).
 */
import { describe, expect, it } from "vitest";
import { IdSet } from "../../src/catalogue/stream/id-set.js";
import { idKey, peekEnvelope } from "../../src/catalogue/stream/line.js";
import { collect, expectedIds, world } from "./helpers.js";

const ALL = { filter: {}, sorting: { id: "ASC" } } as const;

describe("duplicate ids in a stream", () => {
  it.each([
    ["records", false],
    ["raw lines", true],
  ])("read as %s: each id once, every repeat a DUPLICATE_ID, through cuts", async (_reader, raw) => {
    const w = await world({ faults: { repeatIdEvery: 10, dropAfterLines: 45, dropTimes: 2 } });
    try {
      const stream = w.client.streamProducts(ALL);
      const got = raw
        ? (await collect(stream.lines())).map((line) => (JSON.parse(line.bytes.toString("utf8")) as { result: { id: string } }).result.id)
        : (await collect(stream)).map((product) => product.id);
      expect(got).toEqual(expectedIds(w.catalogue, (i) => i % 10 !== 9));
      expect(stream.stats.rejected).toBe(20);
      expect(stream.stats.resumes).toBe(2);
      const all = expectedIds(w.catalogue);
      expect(stream.stats.rejections.slice(0, 2)).toEqual([
        expect.objectContaining({ code: "DUPLICATE_ID", line: 10, index: 9, id: all[8] }),
        expect.objectContaining({ code: "DUPLICATE_ID", line: 20, index: 19, id: all[18] }),
      ]);
    } finally {
      await w.close();
    }
  });
});

describe("IdSet", () => {
  it("is exact: tells every new key from every repeat, across growth", () => {
    const set = new IdSet();
    for (let i = 0; i < 50_000; i++) expect(set.add(`"M${i.toString(16)}"`)).toBe(true);
    for (let i = 0; i < 50_000; i += 7) expect(set.add(Buffer.from(`"M${i.toString(16)}"`))).toBe(false);
    expect(set.add("42")).toBe(true);
    expect(set.add('"42"')).toBe(true);
    expect(set.add("")).toBe(true);
    expect(set.add("")).toBe(false);
    const long = "x".repeat(70_000);
    expect(set.add(long)).toBe(true);
    expect(set.add(long)).toBe(false);
    expect(set.size).toBe(50_004);
  });

  it("keys the peeked token and the parsed id alike", () => {
    const line = (id: string) => Buffer.from(`{"meta":{"total":9,"index":3},"result":{"id":${id},"name":"x"}}`);
    for (const [token, parsed] of [['"M1A"', "M1A"], ["17", 17], ['"crème"', "crème"]] as const) {
      expect(Buffer.from(peekEnvelope(line(token))!.id!).toString("utf8")).toBe(idKey({ id: parsed }));
    }
    // Left to the parser: escapes, non-integers, leading zeros.
    for (const token of ['"M\\u0031"', "1.5", "017", "-3"]) expect(peekEnvelope(line(token))?.id).toBeUndefined();
  });
});
