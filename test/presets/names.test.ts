/**
 * idealo and beslist column and element names (issue 13, item 9), as the
 * written feeds carry them, against the names public sources use: idealo's CSV
 * importer documentation (idealo.github.io/csv-importer) and open-source
 * integrations; beslist.nl's open-source shop integration
 * (wienkit/prestashop-beslistcart). README, Preset fields, lists each source
 * and the names no public source confirms.
 */
import { describe, expect, it } from "vitest";
import { product } from "../mapping/fixtures.js";
import { photo } from "../mapping/fixtures.js";
import { runPreset } from "./harness.js";

const OFFERS = "id,price,sale_price,sale_from,sale_until\nN1,39.90,29.90,2026-11-01,2026-12-31\n";
const CHANNEL = { custom: { deliveryCosts: "3.95", paymentCosts: "0.00", deliveryTime: "1-2 werkdagen" }, images: { maxAdditional: 5 } };
const PRODUCTS = [product({ id: "N1", photos: [photo(1), photo(2), photo(3)] })];

describe("idealo column names", () => {
  it("are idealo's CSV importer names, in one header row", async () => {
    const run = await runPreset("idealo", PRODUCTS, { offersCsv: OFFERS, channel: CHANNEL });
    const header = run.text.split("\r\n")[0]!.replace(/^\uFEFF/, "").split(",");
    expect(header).toEqual([
      "sku",
      "brand",
      "title",
      "categoryPath",
      "url",
      "eans",
      "description",
      "price",
      "formerPrice",
      "deliveryCosts_dhl",
      "paymentCosts_credit_card",
      "deliveryTime",
      "imageUrl",
      "basePrice",
    ]);
    expect(run.rows.get("N1")).toMatchObject({ price: "29.90", formerPrice: "39.90", deliveryCosts_dhl: "3.95", paymentCosts_credit_card: "0.00" });
  });
});

describe("beslist element names", () => {
  it("are the names of beslist's shop integration: code, price_old, imagelink_1.., shop_category, per-country delivery", async () => {
    const run = await runPreset("beslist", PRODUCTS, { offersCsv: OFFERS, channel: CHANNEL });
    const row = run.rows.get("N1");
    expect(row).toBeDefined();
    expect(Object.keys(row!).filter((k) => !k.startsWith("#")).sort()).toEqual(
      [
        "code",
        "title",
        "description",
        "price",
        "price_old",
        "productlink",
        "imagelink",
        "imagelink_1",
        "imagelink_2",
        "eancode",
        "brand",
        "shop_category",
        "condition",
        "availability",
        "deliveryperiod_nl",
        "deliveryperiod_be",
        "shippingcost_nl",
        "shippingcost_be",
      ].sort(),
    );
    expect(row).toMatchObject({
      price: "29,90",
      price_old: "39,90",
      shop_category: "Soin > Solaires",
      condition: "Nieuw",
      deliveryperiod_nl: "1-2 werkdagen",
      shippingcost_be: "3.95",
    });
    expect(String(row!["imagelink_1"])).toContain("/00000002.");
  });
});
