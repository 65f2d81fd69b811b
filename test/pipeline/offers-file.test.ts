/**
 * The verdict on an offers file (pipeline/offers-file.ts): what refuses it, and
 * that the streamed reader reads a file on disk as parseOffers reads its text.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseOffers } from "../../src/mapping/offers-parse.js";
import { offersProblems, offersRefused, readOffersFile } from "../../src/pipeline/offers-file.js";
import { removeTemporaries, tempDir } from "../e2e/config.js";

afterAll(removeTemporaries);

const STRICT = { minAcceptedPercent: 95, maxDropPercent: 20 };
const rows = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `M${from + i};${from + i},50`);

describe("offersProblems", () => {
  it("refuses a header the parser does not understand, naming line 1, the columns, the fields they likely are and how to map them", () => {
    const parsed = parseOffers(["EAN;Prix;Stock", "3400930000014;12,99;4", "5412345000013;7,50;0"].join("\n"), "csv");
    const problems = offersProblems(parsed, STRICT);
    expect(problems.slice(0, 3)).toEqual([
      'line 1: unknown column "EAN" (did you mean "gtin"? map it with offers.columns {"EAN": "gtin"}, or list it in offers.ignoreColumns)',
      'line 1: unknown column "Prix" (did you mean "price"? map it with offers.columns {"Prix": "price"}, or list it in offers.ignoreColumns)',
      'line 1: unknown column "Stock" (did you mean "quantity"? map it with offers.columns {"Stock": "quantity"}, or list it in offers.ignoreColumns)',
    ]);
    expect(problems.join("\n")).toContain("line 1: OFFER_NO_KEY: the header has no id, gtin or cip13 column");
    expect(problems.at(-1)).toMatch(/^0 of 2 rows accepted \(0\.0%\), fewer than offers\.minAcceptedPercent 95%/);
    const error = offersRefused("/x/offers.csv", problems, parsed);
    expect(error.code).toBe("OFFERS_REFUSED");
    expect(error.context).toMatchObject({ file: "/x/offers.csv", line: 1 });
    // What the user reads on stderr: the file, then each problem with its line and how to map the column.
    expect(error.message).toMatch(/^offers file \/x\/offers\.csv refused: nothing was published/);
    expect(error.message).toContain('\n  - line 1: unknown column "EAN" (did you mean "gtin"? map it with offers.columns {"EAN": "gtin"}, or list it in offers.ignoreColumns)\n');
  });

  it("refuses a file with one unknown column even when every row is read", () => {
    expect(offersProblems(parseOffers(["id;price;colour", ...rows(3)].join("\n"), "csv"), STRICT)).toEqual([
      'line 1: unknown column "colour" (known: id, gtin, cip13, price, sale_price, sale_from, sale_until, quantity, availability, availability_date, link, cnk, pzn, zi, aic, cn, cip7; map it with offers.columns, or list it in offers.ignoreColumns)',
    ]);
  });

  it("refuses fewer accepted rows than minAcceptedPercent, listing the refused lines", () => {
    const parsed = parseOffers(["id;price", ...rows(18), "M19;abc", "M20;1,234"].join("\n"), "csv");
    const problems = offersProblems(parsed, STRICT);
    expect(problems).toEqual([
      "18 of 20 rows accepted (90.0%), fewer than offers.minAcceptedPercent 95%: line 20 OFFER_BAD_PRICE price abc; line 21 OFFER_BAD_PRICE price 1,234",
    ]);
    expect(offersProblems(parsed, { ...STRICT, minAcceptedPercent: 90 })).toEqual([]);
  });

  it("names at most ten lines and points at the report for the rest", () => {
    const parsed = parseOffers(["id;price", ...Array.from({ length: 12 }, (_, i) => `M${i};x${i}`)].join("\n"), "csv");
    expect(offersProblems(parsed, STRICT)[0]).toMatch(/line 11 OFFER_BAD_PRICE price x9; 2 more in reports\/_offers\.csv$/);
  });

  it("says the same problem of many rows once, with its lines (issue 23.4: it was said once a row)", () => {
    const parsed = parseOffers(["id;price", ...Array.from({ length: 12 }, (_, i) => `M${i};x`), "M99;y"].join("\n"), "csv");
    expect(offersProblems(parsed, STRICT)[0]).toMatch(/: lines 2, 3, 4, 5, 6 and 7 more \(reports\/_offers\.csv\) OFFER_BAD_PRICE price x; line 14 OFFER_BAD_PRICE price y$/);
  });

  it("refuses far fewer offers than the last run, and a file without rows", () => {
    const parsed = parseOffers(["id;price", ...rows(70)].join("\n"), "csv");
    expect(offersProblems(parsed, STRICT, 100)).toEqual(["70 offers accepted against 100 in the last run (-30.0%), more than offers.maxDropPercent 20%"]);
    expect(offersProblems(parsed, STRICT, 80)).toEqual([]);
    expect(offersProblems(parsed, STRICT, 0)).toEqual([]);
    expect(offersProblems(parseOffers("id;price\n", "csv"), STRICT)).toEqual(["no offer rows (a header line, then one row per offer)"]);
  });

  it("says a JSON key typo once, whatever the number of objects that carry it", () => {
    const json = JSON.stringify(Array.from({ length: 5 }, (_, i) => ({ id: `M${i}`, prise: "1.00" })));
    expect(offersProblems(parseOffers(json, "json"), STRICT)).toEqual([
      'line 1: unknown key "prise" (did you mean "price"? map it with offers.columns {"prise": "price"}, or list it in offers.ignoreColumns)',
    ]);
  });
});

describe("readOffersFile", () => {
  it("reads a file in chunks as parseOffers reads its text: same offers, same lines", async () => {
    // Multi-byte characters and CRLF across 1 MiB chunk boundaries.
    const lines = ["\uFEFFid;price;link"];
    for (let n = 2; n <= 40_000; n++) lines.push(n === 20_000 ? 'M20000;"1' : `M${n};${n},5;https://pharmacie.example/é/${"ü".repeat(n % 13)}`);
    const text = lines.join("\r\n") + "\r\n";
    const file = join(await tempDir(), "offers.csv");
    await writeFile(file, text);
    const streamed = await readOffersFile(file, "csv");
    const whole = parseOffers(text, "csv");
    expect(streamed.rows).toBe(39_999);
    expect(streamed.errors).toEqual(whole.errors);
    expect(streamed.errors.map((e) => e.line)).toEqual([20_000]);
    expect(streamed.offers.size).toBe(39_998);
    expect(streamed.offers.byId("M39999")).toEqual(whole.offers.byId("M39999"));
    expect(streamed.offers.byId("M26")?.link).toBe(`https://pharmacie.example/é/${"ü".repeat(0)}`);
  });

  it("a missing file is CONFIG_INVALID with the file", async () => {
    await expect(readOffersFile("/nonexistent/offers.csv", "csv")).rejects.toMatchObject({ code: "CONFIG_INVALID", context: { file: "/nonexistent/offers.csv" } });
  });
});
