/** policy.generalSale: the shop says which OTC medicines are general sale, and the general-sale rows decide them. */
import { afterAll, describe, expect, it } from "vitest";
import { Product } from "../../src/catalogue/schemas/product.js";
import { loadConfig } from "../../src/config/load.js";
import { mapProduct } from "../../src/mapping/map-product.js";
import { removeTemporaries, writeConfig } from "../e2e/config.js";
import type { ProductClass } from "../../src/policy/index.js";
import { channel, context, product } from "../mapping/fixtures.js";

afterAll(removeTemporaries);

const row = (klass: ProductClass | "*", verdict: string) => ({
  channel: "generic",
  country: "FR",
  class: klass,
  verdict,
  source: `https://policy.example/${klass}`,
  verified: "2026-11-01",
  recheck: "2027-05-01",
  rule: `${klass}: ${verdict}`,
});
const rows = [{ ...row("*", "allow"), channel: "*", country: "*" }, row("pharmacy-medicine", "deny"), row("general-sale-medicine", "allow")];
const otc = (atc: string) => Product.parse(product({ atc, prescription: false, catalogCategories: [{ id: "M", type: "medicine" }] }));

describe("policy.generalSale", () => {
  it("turns the OTC medicines its rule matches into general-sale-medicine; the others stay pharmacy-only", () => {
    const ch = channel({ policy: { rows, generalSale: { field: "atc", op: "startsWith", value: "N02BE" } } });
    expect(mapProduct(otc("N02BE01"), ch, context()).ok).toBe(true);
    const denied = mapProduct(otc("A01AB03"), ch, context());
    expect(denied).toMatchObject({ ok: false, reasons: [{ code: "POLICY_DENIED", detail: expect.stringMatching(/^pharmacy-medicine: row "generic FR pharmacy-medicine" deny/) }] });
    // Without the rule, both are pharmacy-only.
    expect(mapProduct(otc("N02BE01"), channel({ policy: { rows } }), context()).ok).toBe(false);
  });

  it("comes from the config for every channel without its own, and may not use what the item has not yet", async () => {
    const ch = { name: "generic-fr", preset: "generic-json", locale: "fr", link: { template: "https://shop.example/{{id}}" } };
    const good = await writeConfig({ channels: [ch], main: { policy: { generalSale: { field: "atc", op: "startsWith", value: "N02" } } } });
    const config = await loadConfig(good.configFile, { checkCredentials: false });
    expect(config.channels[0]?.mapping.policy.generalSale).toEqual({ field: "atc", op: "startsWith", value: "N02" });
    const bad = await writeConfig({ channels: [ch], main: { policy: { generalSale: { field: "price", op: "lt", value: 5 } } } });
    await expect(loadConfig(bad.configFile, { checkCredentials: false })).rejects.toThrow(/pharmafeed\.json: policy\.generalSale\.field: "price" is not known yet when the health class is decided/);
  });

  it("asks, with the shipped table, for the country's online-sale authorisation as for a pharmacy-only medicine (a review found France's dropped)", async () => {
    const generalSale = { field: "atc", op: "startsWith", value: "N02BE" };
    const channels = [
      { name: "idealo-fr", preset: "idealo", locale: "fr", country: "FR", link: { template: "https://shop.example/{{id}}" } },
      ...(["BE", "NL", "DE", "AT"] as const).map((country) => ({ name: `kelkoo-${country.toLowerCase()}`, preset: "kelkoo", locale: "fr", country, link: { template: "https://shop.example/{{id}}" } })),
    ];
    const shop = (certifications: string[]) => ({ name: "Pharmacie", url: "https://shop.example", certifications });
    const none = await writeConfig({ channels, main: { shop: shop(["google-online-pharmacy-fr"]), policy: { generalSale } } });
    const held = await writeConfig({
      channels,
      main: { shop: shop(["fr-online-pharmacy", "be-online-pharmacy", "nl-online-pharmacy", "de-mail-order-pharmacy", "at-online-pharmacy"]), policy: { generalSale } },
    });
    const without = await loadConfig(none.configFile, { checkCredentials: false });
    const withAll = await loadConfig(held.configFile, { checkCredentials: false });
    const medicine = Product.parse(product({ atc: "N02BE01", prescription: false, maximumDispenseQuantity: 2, catalogCategories: [{ id: "M", type: "medicine" }] }));
    for (const [i, ch] of without.channels.entries()) {
      const country = ch.mapping.country;
      expect(mapProduct(medicine, ch.mapping, context()), ch.name).toMatchObject({
        ok: false,
        reasons: [{ code: "POLICY_DENIED", detail: expect.stringContaining(`general-sale-medicine: row "* ${country} general-sale-medicine" allow-if-certified`) }],
      });
      const allowed = mapProduct(medicine, withAll.channels[i]!.mapping, context());
      expect(allowed.ok, ch.name).toBe(true);
      // France's row carries the maximum quantity, as its pharmacy-only row does.
      if (country === "FR" && allowed.ok) expect(allowed.item.policy).toMatchObject({ maxQuantity: 2 });
    }
  });
});
