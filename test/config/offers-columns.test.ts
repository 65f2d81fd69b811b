/**
 * offers.columns and offers.ignoreColumns in the main config: checked when it loads
 * (a target that is not one of our fields, two spellings of one header read differently),
 * and carried to the reader of the offers file.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { loadOffers } from "../../src/pipeline/offers-file.js";
import { refusal, TEST_ENV, VALID_MAIN, VALID_TREE, writeTree, type Tree } from "./tree.js";

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
});

const POS_CSV = "EAN;Désignation;Prix TTC;Stock\n3400930000014;Avène Eau thermale;12,99;4\n5412345000013;Bioderma;7,50;0\n";
const withOffers = (offers: Record<string, unknown>): Tree => ({ ...VALID_TREE, "config/offers.csv": POS_CSV, "config/pharmafeed.json": { ...VALID_MAIN, offers: { file: "offers.csv", ...offers } } });

describe("offers.columns and offers.ignoreColumns", () => {
  it("reach the offers file's reader: a POS export read with no problem", async () => {
    const root = await writeTree(withOffers({ columns: { EAN: "gtin", "Prix TTC": "price", Stock: "quantity" }, ignoreColumns: ["Désignation"] }));
    roots.push(root);
    const config = await loadConfig(join(root, "config/pharmafeed.json"), { env: TEST_ENV });
    expect(config.offers).toMatchObject({ columns: { EAN: "gtin", "Prix TTC": "price", Stock: "quantity" }, ignoreColumns: ["Désignation"] });
    const loaded = await loadOffers(config.offers!, undefined);
    expect(loaded.problems).toEqual([]);
    expect(loaded.parsed).toMatchObject({ rows: 2, rowsAccepted: 2, errors: [] });
  });

  it("default to none: the same file is refused, each header with the field it likely is", async () => {
    const root = await writeTree(withOffers({}));
    roots.push(root);
    const config = await loadConfig(join(root, "config/pharmafeed.json"), { env: TEST_ENV });
    expect(config.offers).toMatchObject({ columns: {}, ignoreColumns: [] });
    const { problems } = await loadOffers(config.offers!, undefined);
    expect(problems).toContain('line 1: unknown column "EAN" (did you mean "gtin"? map it with offers.columns {"EAN": "gtin"}, or list it in offers.ignoreColumns)');
  });

  it("refuse a target that is not one of our fields, with its path, the likely field and the known ones", async () => {
    const error = await refusal(withOffers({ columns: { EAN: "ean", "Prix TTC": "price", Stock: "stock" } }), roots);
    expect(error.code).toBe("CONFIG_INVALID");
    const known = "known: id, gtin, cip13, price, sale_price, sale_from, sale_until, quantity, availability, availability_date, link, cnk, pzn, zi, aic, cn, cip7";
    expect(error.message).toContain(`pharmafeed.json: offers.columns.EAN: an offers field is needed (did you mean "gtin"? ${known}), got "ean"`);
    expect(error.message).toContain(`pharmafeed.json: offers.columns.Stock: an offers field is needed (did you mean "quantity"? ${known}), got "stock"`);
    expect(error.message).not.toContain("Prix TTC");
  });

  it("refuse two spellings of one header read differently, and an ignoreColumns that is not a list", async () => {
    const error = await refusal(withOffers({ columns: { Prix: "price", "PRIX ": "sale_price" }, ignoreColumns: ["prix"] }), roots);
    expect(error.message).toContain(`pharmafeed.json: offers.columns["PRIX "]: "PRIX " is read as sale_price but "Prix" is read as price: headers match trimmed and in any case, so a file's "prix" would be both`);
    expect(error.message).toContain(`pharmafeed.json: offers.ignoreColumns[0]: "prix" is ignored but "Prix" is read as price`);
    const typed = await refusal(withOffers({ ignoreColumns: "Désignation" }), roots);
    expect(typed.message).toContain('offers.ignoreColumns: a list ([...]) is needed, got "Désignation"');
  });
});
