/**
 * The reports carry no control character a CSV reader refuses (issue 22.7: the warnings reports
 * of a hostile catalogue held NUL bytes in 15 of 15 channels), whatever the product's text or a
 * reason's detail holds; tab, line feed and carriage return stay, quoted.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { ChannelMapping } from "../../src/mapping/settings.js";
import { exclusionLine, warningLines } from "../../src/publish/exclusion-report.js";
import { rowStringifier } from "../../src/writers/csv.js";

const settings = ChannelMapping.parse({});
const line = rowStringifier({});
const hostile = "a\u0000b\u0001c\u0008d\u000be\u000cf\u001fg\u007fh\u0085i";
const product = { id: "M1", gtin: "3400923626832", name: `Crème ${hostile}\tx\ny`, brand: `B\u0000` };

/** Every character of `text` that no CSV cell should hold (tab, LF and CR are fine). */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const controls = (text: string) => [...text].filter((c) => /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]/.test(c));

describe("report lines", () => {
  it("warnings: no control character left, the cells otherwise intact and readable by csv-parse", () => {
    const text = warningLines(line, product, [{ code: "TITLE_TRUNCATED", detail: `cut at 150: ${hostile}` }], { description: "nl" }, settings);
    expect(controls(text)).toEqual([]);
    const rows = parse(text) as string[][];
    expect(rows).toHaveLength(2);
    expect(rows[0]!.slice(0, 4)).toEqual(["M1", "3400923626832", "Crème abcdefghi\tx\ny", "B"]);
    expect(rows[0]![6]).toContain("cut at 150: abcdefghi");
  });

  it("exclusions: the same", () => {
    const text = exclusionLine(line, product, [{ code: "MISSING_PRICE", detail: hostile }, { code: "MISSING_GTIN" }], settings);
    expect(controls(text)).toEqual([]);
    const [row] = parse(text) as string[][];
    expect(row!.slice(0, 5)).toEqual(["M1", "3400923626832", "Crème abcdefghi\tx\ny", "B", "MISSING_PRICE"]);
    expect(row![5]).toContain("abcdefghi");
    expect(row![6]).toBe("MISSING_GTIN");
  });
});
