import { describe, expect, it } from "vitest";
import { isBlank, isBlankBytes, LineSplitter, splitLines } from "../../src/catalogue/stream/ndjson.js";

const splitAll = (chunks: Buffer[], max?: number) => splitLines(chunks, max);

function chunked(buffer: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buffer.length; i += size) out.push(buffer.subarray(i, i + size));
  return out;
}

const LINES = ['{"name":"Crème 😀 €"}', '{"b":"日本語テキスト"}', '{"c":"plain"}'];
const BODY = Buffer.from(LINES.map((line) => `${line}\n`).join(""), "utf8");

describe("LineSplitter", () => {
  it("returns the lines of one chunk", () => {
    expect(splitAll([BODY])).toEqual(LINES);
  });

  it("keeps multi-byte characters whole whatever the chunk size", () => {
    for (const size of [1, 2, 3, 5, 7, 13]) expect(splitAll(chunked(BODY, size))).toEqual(LINES);
  });

  it("splits at every possible boundary of a 4-byte emoji", () => {
    const body = Buffer.from('{"e":"😀"}\n', "utf8");
    for (let cut = 1; cut < body.length; cut++) {
      expect(splitAll([body.subarray(0, cut), body.subarray(cut)])).toEqual(['{"e":"😀"}']);
    }
  });

  it("returns a final line without newline at end()", () => {
    expect(splitAll([Buffer.from('{"a":1}\n{"b":2}')])).toEqual(['{"a":1}', '{"b":2}']);
    expect(splitAll([Buffer.from('{"a":1}\n{"b"'), Buffer.from(":2}")])).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("returns blank lines as they are (the caller skips and numbers them)", () => {
    expect(splitAll([Buffer.from('\n{"a":1}\r\n\n  \n{"b":2}\n')])).toEqual(["", '{"a":1}\r', "", "  ", '{"b":2}']);
  });

  it("returns nothing for an empty body", () => {
    expect(splitAll([])).toEqual([]);
    expect(splitAll([Buffer.alloc(0)])).toEqual([]);
  });

  it("does not let a later chunk's reuse of memory change a pending line", () => {
    const splitter = new LineSplitter();
    const chunk = Buffer.from('{"a":', "utf8");
    splitter.push(chunk);
    expect(splitter.next()).toBeUndefined();
    chunk.fill(0x78);
    splitter.push(Buffer.from("1}\n"));
    expect(splitter.next()).toBe('{"a":1}');
    expect(splitter.next()).toBeUndefined();
    expect(splitter.end()).toBeUndefined();
  });

  it("returns null for a line over the limit and recovers on the next", () => {
    const long = "x".repeat(50);
    expect(splitAll(chunked(Buffer.from(`${long}\nok\n`), 7), 20)).toEqual([null, "ok"]);
  });

  it("recognises blank lines", () => {
    expect(isBlank("")).toBe(true);
    expect(isBlank(" \t\r")).toBe(true);
    expect(isBlank(' {"a":1}')).toBe(false);
    expect(isBlank("{}")).toBe(false);
  });

  it("hands out bytes with nextBytes(): a view within a chunk, a copy across chunks, the same lines as next()", () => {
    for (const size of [1, 3, 7, BODY.length]) {
      const splitter = new LineSplitter();
      const lines: string[] = [];
      for (const chunk of chunked(BODY, size)) {
        splitter.push(chunk);
        for (let bytes = splitter.nextBytes(); bytes !== undefined; bytes = splitter.nextBytes()) lines.push(bytes === null ? "<null>" : bytes.toString("utf8"));
      }
      expect(splitter.endBytes()).toBeUndefined();
      expect(lines, `chunks of ${size}`).toEqual(LINES);
    }
    const chunk = Buffer.from('{"a":1}\n{"b":');
    const splitter = new LineSplitter();
    splitter.push(chunk);
    const view = splitter.nextBytes() as Buffer;
    expect([view.buffer, view.byteOffset]).toEqual([chunk.buffer, chunk.byteOffset]);
    expect(splitter.nextBytes()).toBeUndefined();
    chunk.fill(0x78, 8);
    splitter.push(Buffer.from("2}"));
    expect(splitter.nextBytes()).toBeUndefined();
    const copied = splitter.endBytes() as Buffer;
    expect(copied.toString()).toBe('{"b":2}');
    chunk.fill(0x79, 8);
    expect(copied.toString()).toBe('{"b":2}');
  });

  it("recognises blank lines in bytes as isBlank does in text", () => {
    for (const text of ["", " \t\r", " \u00a0 ", "\u00a0", "\ufeff", ' {"a":1}', "{}", '{"a":"\u00a0"} ']) {
      expect(isBlankBytes(Buffer.from(text)), JSON.stringify(text)).toBe(isBlank(text));
    }
    expect(isBlankBytes(Buffer.from(" \t\r"))).toBe(true);
  });
});
