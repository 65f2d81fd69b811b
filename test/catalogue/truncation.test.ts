/**
 * Every way a stream body can stop short (issue 15, item 1), over real HTTP against the
 * sandbox: the exact set of product ids comes out, each once, and a half line is never
 * counted as a bad record. Both readers are checked: records (fetch) and raw lines
 * (generate's workers).
 */
import { describe, expect, it } from "vitest";
import type { RecordStream } from "../../src/catalogue/stream/record-stream.js";
import type { SandboxOptionsInput } from "../../src/sandbox/index.js";
import { collect, expectedIds, world } from "./helpers.js";

const ALL = { filter: {}, sorting: { id: "ASC" } } as const;
type Faults = NonNullable<SandboxOptionsInput["faults"]>;

async function readIds(stream: RecordStream<{ id: string }>, raw: boolean): Promise<string[]> {
  if (!raw) return (await collect(stream)).map((product) => product.id);
  const ids: string[] = [];
  for await (const line of stream.lines()) {
    // As generate's workers do: a line that does not parse is handed back as a rejection.
    try {
      ids.push((JSON.parse(line.bytes.toString("utf8")) as { result: { id: string } }).result.id);
    } catch {
      stream.reject({ code: "MALFORMED_LINE", line: line.line, index: line.index, message: "not JSON" });
    }
  }
  return ids;
}

const SHAPES: [string, Faults, number][] = [
  ["a chunked body that ends cleanly inside a line", { cutAfterLines: 40, cutTimes: 3, cutShape: "mid-line-end" }, 3],
  ["the same, the body arriving 7 bytes at a time", { cutAfterLines: 40, cutTimes: 3, cutShape: "mid-line-end", chunkBytes: 7 }, 3],
  ["a close-delimited body that ends inside a line", { cutAfterLines: 40, cutTimes: 3, cutShape: "close-delimited" }, 3],
  ["a connection reset inside a line", { cutAfterLines: 40, cutTimes: 3, cutShape: "mid-line-reset" }, 3],
  ["a clean end after fewer lines than meta.total", { cutAfterLines: 40, cutTimes: 3, cutShape: "short-end" }, 3],
  ["a cut inside the very first line", { cutAfterLines: 0, cutTimes: 1, cutShape: "mid-line-end" }, 1],
  ["a meta.total lower than the lines sent", { totalOffset: -50 }, 0],
  ["a last line without its newline", { noFinalNewline: true }, 0],
];

describe.each([
  ["records", false],
  ["raw lines", true],
])("truncated stream bodies, read as %s", (_reader, raw) => {
  it.each(SHAPES)("%s: every product exactly once, nothing counted as a bad line", async (_shape, faults, resumes) => {
    const w = await world({ faults });
    try {
      const stream = w.client.streamProducts(ALL);
      const got = await readIds(stream, raw);
      expect(got).toEqual(expectedIds(w.catalogue));
      expect(stream.stats).toMatchObject({ rejected: 0, resumes, records: 200 });
    } finally {
      await w.close();
    }
  });

  it("a meta.total higher than the lines sent: every line delivered, then a clear error, never a silent success", async () => {
    const w = await world({ faults: { totalOffset: 3 } });
    try {
      const stream = w.client.streamProducts(ALL);
      const got: string[] = [];
      const reading = (async () => {
        if (!raw) for await (const product of stream) got.push(product.id);
        else for await (const line of stream.lines()) got.push((JSON.parse(line.bytes.toString("utf8")) as { result: { id: string } }).result.id);
      })();
      await expect(reading).rejects.toMatchObject({ code: "SOURCE_NETWORK", message: expect.stringMatching(/ended after 200 of 203 lines/) });
      expect(got).toEqual(expectedIds(w.catalogue));
      expect(stream.stats.rejected).toBe(0);
    } finally {
      await w.close();
    }
  });

  it("a body that ends inside a line the same way twice is what the service sends: one MALFORMED_LINE, the rest delivered", async () => {
    const w = await world({ faults: { corruptLine: 199, noFinalNewline: true } });
    try {
      const stream = w.client.streamProducts(ALL);
      const got = await readIds(stream, raw);
      const expected = expectedIds(w.catalogue);
      expect(got).toEqual(expected.slice(0, 199));
      expect(stream.stats.rejected).toBe(1);
      expect(stream.stats.rejections[0]).toMatchObject({ code: "MALFORMED_LINE", line: 200 });
      expect(stream.stats.resumes).toBe(1);
    } finally {
      await w.close();
    }
  });
});
