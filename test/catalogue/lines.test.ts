/**
 * RecordStream.lines(): the lines unparsed, for a consumer that parses them in
 * worker threads. The index comes from the line's first bytes (peekEnvelope) so
 * a cut stream still resumes exactly; refused lines reported back with reject()
 * count as rejections, not records.
 */
import { describe, expect, it } from "vitest";
import { peekEnvelope } from "../../src/catalogue/stream/line.js";
import { collect, expectedIds, world } from "./helpers.js";

const ALL = { filter: {}, sorting: { id: "ASC" } } as const;

const peek = (text: string) => peekEnvelope(Buffer.from(text));

describe("peekEnvelope", () => {
  it("reads index and total from the first bytes, in either order", () => {
    expect(peek('{"meta":{"total":12,"index":3},"result":{"id":"A"}}')).toMatchObject({ index: 3, total: 12 });
    expect(peek('{"meta":{"index":3,"total":12},"result":{"id":"A"}}')).toMatchObject({ index: 3, total: 12 });
    expect(peek('{"meta":{"total":999999999999999,"index":0},"result":{"id":"A"}}')).toMatchObject({ index: 0, total: 999999999999999 });
  });

  it("gives up on anything else, so that the line is parsed", () => {
    for (const text of [
      '{"result":{"id":"A"},"meta":{"total":12,"index":3}}',
      '{ "meta": {"total":12,"index":3},"result":{}}',
      '{"meta":{"total":12,"total":3},"result":{"id":"A"}}',
      '{"meta":{"total":12,"index":3,"page":1},"result":{"id":"A"}}',
      '{"meta":{"total":12,"index":-3},"result":{"id":"A"}}',
      '{"meta":{"total":12,"index":3},"result":null}',
      '{"meta":{"total":1234567890123456,"index":3},"result":{"id":"A"}}',
      '{"meta":{"total":,"index":3},"result":{"id":"A"}}',
      '{"meta":{"total":12,"index":3}',
      '{"meta":{"tot',
      "",
    ]) {
      expect(peek(text), text).toBeUndefined();
    }
  });
});

describe("RecordStream.lines", () => {
  it("hands out every line once, in order, across cuts, with line numbers of its response", async () => {
    const w = await world({ faults: { dropAfterLines: 60, dropTimes: 2 } });
    try {
      const stream = w.client.streamProducts(ALL);
      const lines = await collect(stream.lines());
      expect(lines.map((l) => l.index)).toEqual([...Array(200).keys()]);
      expect(lines.map((l) => (JSON.parse(l.bytes.toString("utf8")) as { result: { id: string } }).result.id)).toEqual(expectedIds(w.catalogue));
      expect(new Set(lines.map((l) => l.total))).toEqual(new Set([200]));
      // The second response starts again at line 1 and its first 60 lines were skipped.
      expect(lines[60]!.line).toBe(61);
      expect(stream.stats).toMatchObject({ records: 200, resumes: 2, rejected: 0 });
    } finally {
      await w.close();
    }
  });

  it("counts the lines its consumer refuses as rejections", async () => {
    const w = await world({ products: 20 });
    try {
      const events: string[] = [];
      const stream = w.client.streamProducts({ ...ALL, onEvent: (e) => void (e.type === "rejected" && events.push(e.rejection.code)) });
      for await (const line of stream.lines()) {
        if (line.index % 5 === 0) stream.reject({ code: "INVALID_RECORD", line: line.line, index: line.index, message: "refused by the test" });
      }
      expect(stream.stats).toMatchObject({ records: 16, rejected: 4 });
      expect(events).toEqual(["INVALID_RECORD", "INVALID_RECORD", "INVALID_RECORD", "INVALID_RECORD"]);
    } finally {
      await w.close();
    }
  });

  it("parses a line whose envelope it cannot peek, and still hands it out as bytes", async () => {
    const w = await world({ products: 30, faults: { corruptLine: 4 } });
    try {
      const stream = w.client.streamProducts(ALL);
      const lines = await collect(stream.lines());
      // The corrupt line: refused here when its index could not be read from its start, or handed out for the consumer to refuse.
      const handed = lines.map((l) => l.index);
      expect(handed.length + stream.stats.rejected).toBe(30);
      expect(handed.filter((i) => i !== 4)).toEqual([...Array(30).keys()].filter((i) => i !== 4));
    } finally {
      await w.close();
    }
  });
});
