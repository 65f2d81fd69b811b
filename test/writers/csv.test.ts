/**
 * rowStringifier: plain cells are written as they are, the others by csv-stringify
 * one at a time; every record must still be exactly what csv-stringify writes.
 */
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { rowStringifier, type RowOptions } from "../../src/writers/csv.js";

const ALPHABET = ["a", "Z", "é", "🌿", " ", ",", ";", "\t", "|", '"', "\r", "\n", "\r\n", "'", "=", "-", "]", "^", "\\", ""];

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function records(seed: number, count: number): string[][] {
  const next = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + Math.floor(next() * 6) }, () => {
      // Mostly plain cells, as in feeds, so that both paths are taken often.
      if (next() < 0.6) return pick(["Doliprane 500 mg", "https://shop.example/fr/a-1.html?x=1", "12.99 EUR", "", "in stock"]);
      return Array.from({ length: Math.floor(next() * 5) }, () => pick(ALPHABET)).join("");
    }),
  );
}

const OPTIONS: [string, RowOptions][] = [
  ["defaults (report lines)", {}],
  ["comma, CRLF, bare CR/LF quoted (csv writer)", { delimiter: ",", record_delimiter: "windows", quoted_match: /[\r\n]/ }],
  ["semicolon, CRLF", { delimiter: ";", record_delimiter: "windows", quoted_match: /[\r\n]/ }],
  ["tab", { delimiter: "\t", record_delimiter: "windows", quoted_match: /[\r\n]/ }],
  ["pipe, LF", { delimiter: "|", record_delimiter: "unix" }],
  ["a regex special as delimiter", { delimiter: "^" }],
  ["quoted_match on plain text", { delimiter: ",", quoted_match: /Doliprane/ }],
];

describe("rowStringifier", () => {
  for (const [name, options] of OPTIONS) {
    it(`writes exactly what csv-stringify writes: ${name}`, () => {
      const line = rowStringifier(options);
      let plain = 0;
      for (const record of records(7, 2000)) {
        const expected = stringify([record], options);
        expect(line(record), JSON.stringify(record)).toBe(expected);
        if (!/["\r\n]/.test(expected.replace(/\r?\n$/, ""))) plain++;
      }
      // Both kinds were exercised: plain records and records with quoted cells.
      expect(plain).toBeGreaterThan(200);
      expect(plain).toBeLessThan(1800);
    });
  }

  it("quotes what needs quoting on the plain path's doorstep", () => {
    const line = rowStringifier({ delimiter: ",", record_delimiter: "windows", quoted_match: /[\r\n]/ });
    expect(line(["a", "b"])).toBe("a,b\r\n");
    expect(line(["", ""])).toBe(",\r\n");
    expect(line(["a,b", "c"])).toBe('"a,b",c\r\n');
    expect(line(['say "hi"', "c"])).toBe('"say ""hi""",c\r\n');
    expect(line(["line\nbreak", "c"])).toBe('"line\nbreak",c\r\n');
    expect(line(["cr\ronly", "c"])).toBe('"cr\ronly",c\r\n');
  });

  it("a quoted cell seen before is the same bytes: repeated, long (never kept), and past the bound of kept cells", () => {
    const line = rowStringifier({});
    const long = `${"a, ".repeat(300)}"end"`;
    const cells = [
      ...Array.from({ length: 3 }, () => 'status inactive: the channel publishes "active" products only, always'),
      long,
      long,
      ...Array.from({ length: 1500 }, (_, i) => `reason ${i % 700}, detail`),
    ];
    for (const cell of cells) expect(line(["M1", cell, "x"])).toBe(stringify([["M1", cell, "x"]], {}));
  });
});
