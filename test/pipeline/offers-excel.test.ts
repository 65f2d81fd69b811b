/**
 * Offers files as Excel and LibreOffice write them (issue 23.4), as fixture files
 * (test/fixtures/offers-excel/): UTF-16 and CR-only files are read as what they are; decimal
 * commas in a comma-separated file and GTINs in scientific notation are refused with one line
 * that says what happened and what to do in the spreadsheet, not the parser's words.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { lookupOffer } from "../../src/mapping/offers.js";
import { LineDecoder, sniffEncoding } from "../../src/mapping/offers-decode.js";
import { parseOffers } from "../../src/mapping/offers-parse.js";
import { offersProblems, readOffersFile } from "../../src/pipeline/offers-file.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/offers-excel/${name}`, import.meta.url));
const STRICT = { minAcceptedPercent: 95, maxDropPercent: 20 };
const GTIN_KEYS = ["03400923626832", "05427951466863", "04006381333931"];

describe("files read as what they are", () => {
  it.each([
    ["unicode-text-utf16le.txt", "Excel's Unicode text: UTF-16LE with a byte order mark, tabs"],
    ["utf16be.csv", "UTF-16BE with a byte order mark"],
    ["mac-cr.csv", "lines ended by CR alone"],
  ])("%s (%s): every row accepted, prices and quantities right", async (name) => {
    const parsed = await readOffersFile(fixture(name), "csv");
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows).toBe(3);
    expect(offersProblems(parsed, STRICT)).toEqual([]);
    const offers = GTIN_KEYS.map((key) => lookupOffer(parsed.offers, "none", [key]));
    expect(offers.map((o) => [o?.priceCents, o?.quantity])).toEqual([
      [1250, 4],
      [790, 0],
      [10500, 12],
    ]);
  });

  it("a file fed one byte at a time gives the same lines (BOM, UTF-16 pairs and CR LF cut across chunks)", async () => {
    for (const name of ["unicode-text-utf16le.txt", "utf16be.csv", "mac-cr.csv", "decimal-commas.csv"]) {
      const bytes = await readFile(fixture(name));
      const whole = new LineDecoder();
      const expected = [...whole.push(bytes), ...whole.end()];
      const bytewise = new LineDecoder();
      const lines: string[] = [];
      for (const byte of bytes) lines.push(...bytewise.push(Uint8Array.of(byte)));
      lines.push(...bytewise.end());
      expect(lines, name).toEqual(expected);
      expect(expected, name).toHaveLength(4);
      expect(expected[0], name).toMatch(/^gtin[;,\t]price[;,\t]quantity[;,\t]availability$/);
    }
  });

  it("sniffs the encoding from the byte order mark, or from a zero byte beside the first character", () => {
    expect(sniffEncoding(Uint8Array.of(0xef, 0xbb, 0xbf, 0x69))).toEqual({ encoding: "utf-8", bom: 3 });
    expect(sniffEncoding(Uint8Array.of(0xff, 0xfe, 0x69, 0))).toEqual({ encoding: "utf-16le", bom: 2 });
    expect(sniffEncoding(Uint8Array.of(0xfe, 0xff, 0, 0x69))).toEqual({ encoding: "utf-16be", bom: 2 });
    expect(sniffEncoding(Uint8Array.of(0x69, 0, 0x64, 0))).toEqual({ encoding: "utf-16le", bom: 0 });
    expect(sniffEncoding(Uint8Array.of(0x69, 0x64, 0x3b))).toEqual({ encoding: "utf-8", bom: 0 });
  });
});

describe("files refused with what to do in the spreadsheet", () => {
  it("decimal commas in a comma-separated file: one line, naming the rows, saying how to save it", async () => {
    const problems = offersProblems(await readOffersFile(fixture("decimal-commas.csv"), "csv"), STRICT);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("0 of 3 rows accepted");
    expect(problems[0]).toContain("lines 2, 3, 4 OFFER_PARSE prices like 12,50 in a comma-separated file");
    expect(problems[0]).toContain("Save as CSV with ';' as the separator, or put the prices in quotes");
    expect(problems[0]).not.toMatch(/fields, the header has/);
    expect(problems[0]!.match(/prices like/g)).toHaveLength(1);
  });

  it("GTINs in scientific notation: one line, saying to format the column as text", async () => {
    const problems = offersProblems(await readOffersFile(fixture("scientific-gtins.csv"), "csv"), STRICT);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("0 of 3 rows accepted");
    expect(problems[0]).toContain("lines 2, 3, 4 OFFER_BAD_KEY gtin codes shown like 9,24159E+10: the spreadsheet turned them into numbers in scientific notation");
    expect(problems[0]!.match(/scientific/g)).toHaveLength(1);
    expect(problems[0]).toContain("Format the gtin column as text before saving");
    expect(problems[0]).not.toContain("not digits");
  });

  it("a comma file whose extra fields are not decimal commas keeps the count", () => {
    const problems = offersProblems(parseOffers("gtin,price\n3400923626832,12.50,x,y\n", "csv"), STRICT);
    expect(problems[0]).toContain("line 2 OFFER_PARSE 4 fields, the header has 2");
  });
});
