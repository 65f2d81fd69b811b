/**
 * A pharmacy's own headers (mapping/offers-columns.ts) through the real parser:
 * offers.columns and offers.ignoreColumns, and the did-you-mean of a header nobody knows.
 */
import { describe, expect, it } from "vitest";
import { describeUnknownHeader, offerColumnsProblems, suggestOfferField, type OfferColumns } from "../../src/mapping/offers-columns.js";
import { parseOffers } from "../../src/mapping/offers-parse.js";
import { CODES } from "./fixtures.js";

const KEY = (code: string) => code.padStart(14, "0");

/** As a French POS exports it: its own headers, a product name, `;` and decimal commas. */
const POS_CSV = ["EAN;Désignation;Prix TTC;Stock", `${CODES.cip13};Avène Eau thermale 300 ml;12,99;4`, `${CODES.ean13};"Bioderma Sensibio H2O; 500 ml";7,50;0`].join("\n");
const OURS_CSV = ["gtin;price;quantity", `${CODES.cip13};12,99;4`, `${CODES.ean13};7,50;0`].join("\n");
const POS: OfferColumns = { columns: { EAN: "gtin", "Prix TTC": "price", Stock: "quantity" }, ignoreColumns: ["Désignation"] };

describe("offers.columns and offers.ignoreColumns", () => {
  it("read a POS export as the same data with our headers", () => {
    const pos = parseOffers(POS_CSV, "csv", POS);
    const ours = parseOffers(OURS_CSV, "csv");
    expect(pos.errors).toEqual([]);
    expect(pos).toMatchObject({ rows: 2, rowsAccepted: 2, structure: [] });
    expect(pos.offers.byGtin(KEY(CODES.cip13))).toEqual({ line: 2, priceCents: 1299, quantity: 4, availability: "in_stock" });
    expect(pos.offers.byGtin(KEY(CODES.ean13))).toEqual({ line: 3, priceCents: 750, quantity: 0, availability: "out_of_stock" });
    expect(pos.offers.share()).toEqual(ours.offers.share());
  });

  it("match a header as written first, then trimmed and in any case", () => {
    const csv = [" ean ;PRIX TTC;stock;DÉSIGNATION", `${CODES.cip13};12,99;4;Avène`].join("\n");
    const parsed = parseOffers(csv, "csv", POS);
    expect(parsed.errors).toEqual([]);
    expect(parsed.offers.byGtin(KEY(CODES.cip13))).toMatchObject({ priceCents: 1299, quantity: 4 });
    // Our own names too, as before: `GTIN`, ` Price `.
    expect(parseOffers(`GTIN; Price \n${CODES.cip13};1,00\n`, "csv").errors).toEqual([]);
    // As written first: each of two spellings configured apart is read as its own (the loader refuses
    // such a pair, offerColumnsProblems: a third spelling, `prix`, would match both).
    const exact = parseOffers(`gtin;Prix;PRIX\n${CODES.cip13};3,00;2,00\n`, "csv", { columns: { Prix: "price", PRIX: "sale_price" }, ignoreColumns: [] });
    expect(exact.errors).toEqual([]);
    expect(exact.offers.byGtin(KEY(CODES.cip13))).toMatchObject({ priceCents: 300, salePriceCents: 200 });
  });

  it("let a configured header win over our own name (a file whose `price` column is the sale price)", () => {
    const parsed = parseOffers(`gtin;price;Prix normal\n${CODES.cip13};9,99;12,99\n`, "csv", { columns: { price: "sale_price", "Prix normal": "price" }, ignoreColumns: [] });
    expect(parsed.errors).toEqual([]);
    expect(parsed.offers.byGtin(KEY(CODES.cip13))).toMatchObject({ priceCents: 1299, salePriceCents: 999 });
  });

  it("are no error for a mapped or ignored header the file does not have", () => {
    const parsed = parseOffers(OURS_CSV, "csv", { columns: { EAN: "gtin", "Prix promo": "sale_price" }, ignoreColumns: ["Désignation", "TVA"] });
    expect(parsed.errors).toEqual([]);
    expect(parsed.offers.size).toBe(2);
  });

  it("refuse two headers read as one field, naming both (the first is read)", () => {
    const parsed = parseOffers([`EAN;gtin;price`, `${CODES.cip13};${CODES.ean13};1,00`].join("\n"), "csv", POS);
    expect(parsed.structure).toEqual([{ line: 1, reason: "OFFER_PARSE", detail: 'header: columns "EAN" and "gtin" are both read as gtin: keep one, or list the other in offers.ignoreColumns' }]);
    expect(parsed.offers.byGtin(KEY(CODES.cip13))).toBeDefined();
    expect(parsed.offers.byGtin(KEY(CODES.ean13))).toBeUndefined();
    // The same column twice, without any config: which one a row means is a guess too.
    expect(parseOffers(`id;price;price\nM1;1;2\n`, "csv").structure.map((e) => e.detail)).toEqual(['header: columns "price" and "price" are both read as price: keep one, or list the other in offers.ignoreColumns']);
  });

  it("refuse an unmapped EAN with the field it likely is and the config line that reads it", () => {
    const parsed = parseOffers(POS_CSV, "csv");
    expect(parsed.structure).toEqual([
      { line: 1, reason: "OFFER_UNKNOWN_FIELD", detail: 'unknown column "EAN" (did you mean "gtin"? map it with offers.columns {"EAN": "gtin"}, or list it in offers.ignoreColumns)' },
      { line: 1, reason: "OFFER_UNKNOWN_FIELD", detail: expect.stringMatching(/^unknown column "Désignation" \(known: id, gtin, .*; map it with offers\.columns, or list it in offers\.ignoreColumns\)$/) },
      { line: 1, reason: "OFFER_UNKNOWN_FIELD", detail: 'unknown column "Prix TTC" (did you mean "price"? map it with offers.columns {"Prix TTC": "price"}, or list it in offers.ignoreColumns)' },
      { line: 1, reason: "OFFER_UNKNOWN_FIELD", detail: 'unknown column "Stock" (did you mean "quantity"? map it with offers.columns {"Stock": "quantity"}, or list it in offers.ignoreColumns)' },
      { line: 1, reason: "OFFER_NO_KEY", detail: "the header has no id, gtin or cip13 column" },
    ]);
  });

  it("read JSON keys alike: mapped, ignored, case-insensitive, unknown with a suggestion", () => {
    const entries = [
      { EAN: CODES.cip13, "Prix TTC": "12,99", Stock: 4, Désignation: "Avène" },
      { ean: CODES.ean13, "prix ttc": 7.5, STOCK: "0" },
    ];
    const json = `[\n${entries.map((e) => JSON.stringify(e)).join(",\n")}\n]`;
    const parsed = parseOffers(json, "json", POS);
    expect(parsed.errors).toEqual([]);
    expect(parsed.offers.share()).toEqual(parseOffers(OURS_CSV, "csv").offers.share());

    const ndjson = `{"EAN": "${CODES.cip13}", "price": "1.00"}\n{"gtin": "${CODES.ean13}", "EAN": "${CODES.cip13}", "price": "2.00"}\n`;
    const unmapped = parseOffers(ndjson, "json");
    expect(unmapped.structure.map((e) => [e.line, e.detail])).toEqual([
      [1, 'unknown key "EAN" (did you mean "gtin"? map it with offers.columns {"EAN": "gtin"}, or list it in offers.ignoreColumns)'],
      [2, 'unknown key "EAN" (did you mean "gtin"? map it with offers.columns {"EAN": "gtin"}, or list it in offers.ignoreColumns)'],
    ]);
    const twice = parseOffers(ndjson, "json", POS);
    expect(twice.structure.map((e) => [e.line, e.reason, e.detail])).toEqual([[2, "OFFER_PARSE", 'keys "gtin" and "EAN" are both read as gtin: keep one, or list the other in offers.ignoreColumns']]);
  });
});

describe("suggestOfferField", () => {
  it.each([
    ["EAN", "gtin"],
    ["EAN13", "gtin"],
    ["EAN-13", "gtin"],
    ["code EAN", "gtin"],
    ["CIP", "cip13"],
    ["CIP13", "cip13"],
    ["code CIP", "cip13"],
    ["Prix", "price"],
    ["Prix TTC", "price"],
    ["Price incl. VAT", "price"],
    ["Prijs", "price"],
    ["Preis", "price"],
    ["Stock", "quantity"],
    ["Quantité", "quantity"],
    ["Qty", "quantity"],
    ["Voorraad", "quantity"],
    ["Bestand", "quantity"],
    ["Prix promo", "sale_price"],
    ["Sale price", "sale_price"],
    ["Verfügbarkeit", "availability"],
    ["URL", "link"],
    // Typos, by edit distance.
    ["prise", "price"],
    ["gtim", "gtin"],
    ["avialability", "availability"],
    ["sale_untill", "sale_until"],
    // National codes go to their own columns, never to gtin.
    ["CNK", "cnk"],
    ["CIP7", "cip7"],
    ["Pharmazentralnummer", "pzn"],
    ["ZI-nummer", "zi"],
    ["Código Nacional", "cn"],
  ])("%s -> %s", (header, field) => {
    expect(suggestOfferField(header)).toBe(field);
  });

  it.each([["Prix HT"], ["nr"], ["Désignation"], ["colour"], [""], ["  "]])("%j: no suggestion", (header) => {
    expect(suggestOfferField(header)).toBeUndefined();
  });

  it("says the header as the file writes it, trimmed, quoted as JSON", () => {
    expect(describeUnknownHeader(' Code "EAN" ', "column")).toBe('unknown column "Code \\"EAN\\"" (did you mean "gtin"? map it with offers.columns {"Code \\"EAN\\"": "gtin"}, or list it in offers.ignoreColumns)');
  });
});

describe("offerColumnsProblems", () => {
  it("refuses two entries that are one header in any case but read differently", () => {
    expect(offerColumnsProblems({ columns: { Prix: "price", PRIX: "sale_price" }, ignoreColumns: ["prix "] })).toEqual([
      { path: "offers.columns.PRIX", message: '"PRIX" is read as sale_price but "Prix" is read as price: headers match trimmed and in any case, so a file\'s "prix" would be both' },
      { path: "offers.ignoreColumns[0]", message: '"prix " is ignored but "Prix" is read as price: headers match trimmed and in any case, so a file\'s "prix" would be both' },
    ]);
    expect(offerColumnsProblems({ columns: { Stock: "quantity", STOCK: "quantity" }, ignoreColumns: ["Désignation", "désignation"] })).toEqual([]);
  });
});
