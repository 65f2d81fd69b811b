import { describe, expect, it } from "vitest";
import { dateHint, lookupOffer, parseOfferDate } from "../../src/mapping/offers.js";
import { parseOffers } from "../../src/mapping/offers-parse.js";
import { CODES } from "./fixtures.js";

const KEY = (code: string) => code.padStart(14, "0");

describe("parseOffers CSV", () => {
  it("reads a semicolon file with decimal commas, keyed by GTIN", () => {
    const csv = [
      "gtin;price;sale_price;sale_from;sale_until;quantity;availability;link",
      `${CODES.cip13};12,99;9,99;2025-05-01;2025-06-30;3;;https://shop.example/p/1`,
      `${CODES.ean13};7.5;;;;0;;`,
    ].join("\n");
    const { offers, errors } = parseOffers(csv, "csv");
    expect(errors).toEqual([]);
    expect(offers.size).toBe(2);
    expect(offers.byGtin(KEY(CODES.cip13))).toEqual({
      line: 2,
      priceCents: 1299,
      salePriceCents: 999,
      saleFrom: Date.UTC(2025, 4, 1) / 1000,
      saleUntil: Date.UTC(2025, 5, 30, 23, 59, 59) / 1000,
      quantity: 3,
      availability: "in_stock",
      link: "https://shop.example/p/1",
    });
    expect(offers.byGtin(KEY(CODES.ean13))).toEqual({ line: 3, priceCents: 750, quantity: 0, availability: "out_of_stock" });
  });

  it("reads a comma file keyed by product id, quoted decimal commas, CRLF and a BOM", () => {
    const csv = '\uFEFFid,price,availability\r\nM1,"12,99",in stock\r\nM2,3.10,backorder\r\n';
    const { offers, errors } = parseOffers(csv, "csv");
    expect(errors).toEqual([]);
    expect(offers.byId("M1")).toEqual({ line: 2, priceCents: 1299, availability: "in_stock" });
    expect(offers.byId("M2")).toEqual({ line: 3, priceCents: 310, availability: "backorder" });
  });

  it("reads availability_date (ISO 8601 or Unix seconds; a date alone is 00:00 UTC) and refuses a bad one", () => {
    const csv = "id,availability,availability_date\nP1,preorder,2026-12-15\nP2,backorder,2026-12-20T10:30:00+01:00\nP3,backorder,1796860800\nP4,preorder,next week\nP5,preorder,2026-02-30\n";
    const { offers, errors } = parseOffers(csv, "csv");
    expect(offers.byId("P1")).toEqual({ line: 2, availability: "preorder", availabilityDate: Date.UTC(2026, 11, 15) / 1000 });
    expect(offers.byId("P2")?.availabilityDate).toBe(Date.UTC(2026, 11, 20, 9, 30) / 1000);
    expect(offers.byId("P3")?.availabilityDate).toBe(1796860800);
    expect(errors).toEqual([
      { line: 5, reason: "OFFER_BAD_DATE", detail: `availability_date next week: ${dateHint("next week")}` },
      { line: 6, reason: "OFFER_BAD_DATE", detail: `availability_date 2026-02-30: ${dateHint("2026-02-30")}` },
    ]);
    expect(parseOffers('{"id":"J1","availability":"preorder","availability_date":"2026-12-15"}', "json").offers.byId("J1")?.availabilityDate).toBe(Date.UTC(2026, 11, 15) / 1000);
  });

  it("reads a tab file keyed by CIP13, spreadsheet-mangled (leading zero lost, integer)", () => {
    const { offers, errors } = parseOffers(`cip13\tquantity\n${Number(CODES.cip13)}\t5\n`, "csv");
    expect(errors).toEqual([]);
    expect(offers.byGtin(KEY(CODES.cip13))?.quantity).toBe(5);
  });

  it("reports every bad row with its line and keeps the good ones", () => {
    const csv = [
      "gtin;price;sale_price;sale_from;sale_until;quantity;availability;link", // 1
      `${CODES.cip13};12,99;;;;;;`, // 2 ok
      "3400930000012;1;;;;;;", // 3 bad check digit
      ";5;;;;;;", // 4 no key
      `${CODES.ean13};12.999;;;;;;`, // 5 bad price
      "", // 6 empty line: skipped
      `${CODES.upc};0;;;;;;`, // 7 zero price
      `${CODES.gtin8};1;;2025-02-30;;;;`, // 8 bad date
      `${CODES.gtin14};1;;2025-06-10;2025-06-01;;;`, // 9 until < from
      `0${CODES.cip13};2;;;;;;`, // 10 duplicate of line 2
      `${CODES.ean13};1;;;;-1;;`, // 11 bad quantity
      `${CODES.ean13};1;;;;;soon;`, // 12 bad availability
      `${CODES.ean13};1;;;;;;ftp://x`, // 13 bad link
      `${CODES.ean13};1;;;;;;;extra`, // 14 too many fields
      `${CODES.ean13};4,20;;;;;;`, // 15 ok
    ].join("\n");
    const { offers, errors } = parseOffers(csv, "csv");
    expect(errors.map((e) => [e.line, e.reason])).toEqual([
      [3, "OFFER_BAD_KEY"],
      [4, "OFFER_NO_KEY"],
      [5, "OFFER_BAD_PRICE"],
      [7, "OFFER_BAD_PRICE"],
      [8, "OFFER_BAD_DATE"],
      [9, "OFFER_BAD_DATE"],
      [10, "OFFER_DUPLICATE"],
      [11, "OFFER_BAD_QUANTITY"],
      [12, "OFFER_BAD_AVAILABILITY"],
      [13, "OFFER_BAD_LINK"],
      [14, "OFFER_PARSE"],
    ]);
    expect(errors[0]?.detail).toContain("check digit");
    expect(offers.size).toBe(2);
    expect(offers.byGtin(KEY(CODES.ean13))?.line).toBe(15);
  });

  it("reports unknown columns (typos) and a header without a key column", () => {
    const typo = parseOffers("gtin;prise\n" + CODES.cip13 + ";1\n", "csv");
    expect(typo.errors).toEqual([{ line: 1, reason: "OFFER_UNKNOWN_FIELD", detail: expect.stringMatching(/^unknown column "prise" \(did you mean "price"\?/) }]);
    expect(typo.offers.size).toBe(1);
    const nokey = parseOffers("ean;price\n" + CODES.cip13 + ";1\n", "csv");
    expect(nokey.errors.map((e) => e.reason)).toEqual(["OFFER_UNKNOWN_FIELD", "OFFER_NO_KEY"]);
    expect(nokey.offers.size).toBe(0);
  });

  it("reports broken CSV quoting with a line number instead of throwing", () => {
    const { errors, offers } = parseOffers(`id;price\nM1;1\nM2;"2"x\nM3;3\n`, "csv");
    expect(errors.some((e) => e.reason === "OFFER_PARSE" && e.line === 3)).toBe(true);
    expect(offers.hasId("M1")).toBe(true);
  });

  it("an unclosed quote refuses its own line only: every row after it is kept", () => {
    const { errors, offers } = parseOffers(`id;price\nM1;1\nM2;"2\nM3;3\nM4;"4,5"\nM5;5\n`, "csv");
    expect(errors.map((e) => [e.line, e.reason])).toEqual([[3, "OFFER_PARSE"]]);
    expect(errors[0]?.detail).toMatch(/quote/);
    expect([...offers.ids()]).toEqual(["M1", "M3", "M4", "M5"]);
    expect(offers.byId("M4")?.priceCents).toBe(450);
  });

  it("a row with another delimiter, or NUL or a tab in its key, is refused alone with its line", () => {
    const csv = ["id;price", "M1;1", "M2,2", "M\u00003;3", "M4;4", "M5,5;6", "M\t6;6", "M7;7"].join("\n");
    const { errors, offers } = parseOffers(csv, "csv");
    expect(errors.map((e) => [e.line, e.reason])).toEqual([
      [3, "OFFER_PARSE"],
      [4, "OFFER_BAD_KEY"],
      [6, "OFFER_BAD_KEY"],
      [7, "OFFER_BAD_KEY"],
    ]);
    expect(errors[0]?.detail).toContain("uses ','");
    expect(errors[1]?.detail).toContain("NUL");
    expect([...offers.ids()]).toEqual(["M1", "M4", "M7"]);
    const gtins = parseOffers(`gtin;price\n${CODES.cip13},1\n${CODES.ean13};2\n`, "csv");
    expect(gtins.errors.map((e) => [e.line, e.reason])).toEqual([[2, "OFFER_PARSE"]]);
    expect(gtins.offers.size).toBe(1);
  });

  it("in a long file, each broken line is refused with its real line number and every other row kept", () => {
    const bad = new Map([
      [3, 'X3;"1'],
      [257, 'X257;"2"x'],
      [258, "X258,3"],
      [600, 'X600;"3'],
      [1000, "X1000;1;2;3"],
    ]);
    const lines = ["id;price;quantity"];
    for (let n = 2; n <= 1200; n++) lines.push(bad.get(n) ?? (n % 7 === 0 ? `M${n};"${n},5";1` : `M${n};${n};1`));
    const { errors, offers, rows } = parseOffers(lines.join("\r\n"), "csv");
    expect(errors.map((e) => e.line)).toEqual([...bad.keys()]);
    expect(errors.every((e) => e.reason === "OFFER_PARSE")).toBe(true);
    expect(rows).toBe(1199);
    expect(offers.size).toBe(1199 - bad.size);
    expect(offers.byId("M1199")).toMatchObject({ line: 1199, priceCents: 119900 });
    expect(offers.byId("M259")).toMatchObject({ line: 259, priceCents: 25950 });
    expect(offers.byId("M602")).toMatchObject({ line: 602, priceCents: 60250 });
  });

  it("an empty file is an empty index", () => {
    const { offers, ...rest } = parseOffers("", "csv");
    expect(rest).toEqual({ errors: [], errorCount: 0, structure: [], rows: 0, rowsAccepted: 0 });
    expect(offers.size).toBe(0);
  });
});

describe("parseOffers JSON", () => {
  it("reads an array with numbers and strings, and reports entries by line", () => {
    const json = `[
  {"gtin": "${CODES.cip13}", "price": 12.99, "quantity": 2},
  {"id": "M2", "price": "9,90", "sale_price": "8.00", "sale_from": 1748736000},
  {"id": "M3", "price": "x"},
  {"id": "M4", "colour": "red"},
  42
]`;
    const { offers, errors } = parseOffers(json, "json");
    expect(offers.byGtin(KEY(CODES.cip13))).toEqual({ line: 2, priceCents: 1299, quantity: 2, availability: "in_stock" });
    expect(offers.byId("M2")).toEqual({ line: 3, priceCents: 990, salePriceCents: 800, saleFrom: 1748736000 });
    expect(errors.map((e) => [e.line, e.reason])).toEqual([
      [4, "OFFER_BAD_PRICE"],
      [5, "OFFER_UNKNOWN_FIELD"],
      [5, "OFFER_PARSE"],
    ]);
  });

  it('reads {"offers": [...]} and NDJSON', () => {
    const wrapped = parseOffers(`{"offers": [\n{"id": "A", "price": "1"},\n{"id": "B", "price": "2"}\n]}`, "json");
    expect([...wrapped.offers.ids()].map((k) => [k, wrapped.offers.byId(k)?.line])).toEqual([
      ["A", 2],
      ["B", 3],
    ]);
    const nd = parseOffers(`{"id": "A", "price": "1"}\n{"id": "B", "price": \n{"id": "C", "price": "3"}\n`, "json");
    expect([...nd.offers.ids()]).toEqual(["A", "C"]);
    expect(nd.errors.map((e) => [e.line, e.reason])).toEqual([[2, "OFFER_PARSE"]]);
  });

  it("broken JSON is one error, not an exception", () => {
    const { errors, offers } = parseOffers("[{", "json");
    expect(errors.map((e) => e.reason)).toEqual(["OFFER_PARSE"]);
    expect(offers.size).toBe(0);
  });
});

describe("parseOfferDate", () => {
  it.each([
    ["2025-06-01", false, Date.UTC(2025, 5, 1) / 1000],
    ["2025-06-01", true, Date.UTC(2025, 5, 1, 23, 59, 59) / 1000],
    ["2025-06-01T10:30:00Z", false, Date.UTC(2025, 5, 1, 10, 30) / 1000],
    ["2025-06-01T10:30+02:00", false, Date.UTC(2025, 5, 1, 8, 30) / 1000],
    ["2025-06-01 10:30:15", false, Date.UTC(2025, 5, 1, 10, 30, 15) / 1000],
    ["1748736000", false, 1748736000],
    [1748736000, false, 1748736000],
  ] as const)("%j -> %i", (raw, end, expected) => {
    expect(parseOfferDate(raw, end)).toBe(expected);
  });
  it.each([["2025-02-30"], ["2025-13-01"], ["01/06/2025"], ["2025-06-01T25:00"], ["tomorrow"], [-5], [1.5]])("%j is refused", (raw) => {
    expect(parseOfferDate(raw, false)).toBeUndefined();
  });
});

describe("lookupOffer", () => {
  it("finds by id first, then by any GTIN key", () => {
    const { offers } = parseOffers(`id;gtin;price\nM1;;1\n;${CODES.ean13};2\n`, "csv");
    expect(lookupOffer(offers, "M1", [KEY(CODES.ean13)])?.priceCents).toBe(100);
    expect(lookupOffer(offers, "M9", ["x", KEY(CODES.ean13)])?.priceCents).toBe(200);
    expect(lookupOffer(offers, "M9", [])).toBeUndefined();
  });
});

describe("the README's examples", () => {
  it("parse without errors", () => {
    const csv = `gtin;price;sale_price;sale_from;sale_until;quantity;link
3400930000014;12,99;9,99;2025-06-01;2025-06-30;4;https://pharmacie.example/p/avene-eau-thermale
5412345000013;7,50;;;;0;
`;
    const json = `[
  { "id": "M34C3D3A5E", "price": "12.99", "quantity": 4 },
  { "gtin": "3400930000014", "price": 9.9, "sale_price": "8.50", "sale_until": "2025-06-30" }
]`;
    expect(parseOffers(csv, "csv")).toMatchObject({ errors: [], offers: { size: 2 } });
    expect(parseOffers(json, "json")).toMatchObject({ errors: [], offers: { size: 2 } });
  });
});
