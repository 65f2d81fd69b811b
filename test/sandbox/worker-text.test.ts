/** Names written as bytes (generate/worker-text.ts) = q() and slug() of the string generator, for any text. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { q } from "../../src/sandbox/generate/json.js";
import { slug } from "../../src/sandbox/generate/names.js";
import { quote, slugInto } from "../../src/sandbox/generate/worker-text.js";
import { ByteWriter } from "../../src/sandbox/generate/worker-writer.js";

function written(write: (w: ByteWriter, text: string) => void, text: string): string {
  const w = new ByteWriter(Buffer.alloc(8));
  write(w, text);
  return w.bytes().toString("latin1");
}

const ODD = ["Roger & Gallet", "L'Oréal Paris", 'Klorane "Bio"', "a/b\\c", "<b>&amp;</b>", "5 > 3", "\u0000\u0008\t\n\u000b\f\r\u001f\u007f", "🌿 ☀️ 💊", "\ud800 lone \udfff", "ŒUVRE Œuvre œuvre ß ÿ Ÿ", "İstanbul", "Crème, 1 pc"];

describe("names as bytes", () => {
  it("quote() is q() on the oddities names carry", () => {
    for (const text of ODD) expect(written(quote, text)).toBe(q(text));
  });

  it("quote() is q() on any text", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 40 }), (text) => written(quote, text) === q(text)), { numRuns: 1000 });
  });

  it("slugInto() is slug() on the oddities and on any text", () => {
    for (const text of ODD) expect(written(slugInto, text)).toBe(slug(text));
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 40 }), (text) => written(slugInto, text) === slug(text)), { numRuns: 1000 });
  });
});
