/**
 * The catalogue request of `explain` for a code the last run never received: each code field is
 * asked only in a form it can hold, so the project's own request validator passes it for every
 * width (issue 22.4: it refused 8, 12, 13 and 14 digits alike).
 */
import { describe, expect, it } from "vitest";
import { validateQueryBody } from "../../src/catalogue/query/validate.js";
import { RESOURCES } from "../../src/catalogue/query/resources.js";
import { codeForms, productFilterFor } from "../../src/explain/catalogue.js";

const body = (query: string) => ({ filter: productFilterFor(query), sorting: { id: "ASC" }, page: { no: 0, size: 10 } });

describe("productFilterFor", () => {
  it.each(["00000000", "96385074", "036000291452", "000000000000", "4006381333931", "0000000000000", "10012345678902", "00000000000000", "123456789", "1234567890", "12345678901"])(
    "%s: a body the request validator accepts",
    (query) => {
      expect(() => validateQueryBody(RESOURCES.products, "query", body(query))).not.toThrow();
    },
  );

  it("asks every eanGtinN field with exactly N digits, and only the widths the code fits", () => {
    const fields = (query: string) => Object.fromEntries(((productFilterFor(query) as { or?: Record<string, unknown>[] }).or ?? []).flatMap((leaf) => Object.entries(leaf)));
    expect(fields("96385074")).toEqual({
      id: ["96385074"],
      ean: ["96385074", "000096385074", "0000096385074", "00000096385074"],
      gtin: ["96385074", "000096385074", "0000096385074", "00000096385074"],
      eanGtin8: ["96385074"],
      eanGtin12: ["000096385074"],
      eanGtin13: ["0000096385074"],
      eanGtin14: ["00000096385074"],
      cip13: ["0000096385074"],
      acl13: ["0000096385074"],
    });
    // A UPC-12 as its GTIN-13 and GTIN-14 forms; no 8-digit form.
    expect(fields("036000291452")).toMatchObject({ eanGtin12: ["036000291452"], eanGtin13: ["0036000291452"], eanGtin14: ["00036000291452"] });
    expect(fields("036000291452")["eanGtin8"]).toBeUndefined();
    // An EAN-13 starting with 4: no 8- or 12-digit form; a true GTIN-14: only the 14-digit fields.
    const ean13 = fields("4006381333931");
    expect([ean13["eanGtin8"], ean13["eanGtin12"], ean13["eanGtin13"], ean13["eanGtin14"], ean13["cip13"]]).toEqual([undefined, undefined, ["4006381333931"], ["04006381333931"], ["4006381333931"]]);
    const gtin14 = fields("10012345678902");
    expect(Object.keys(gtin14).sort()).toEqual(["ean", "eanGtin14", "gtin", "id"]);
    // A 14-digit code with a leading zero is also the 13-digit one.
    expect(fields("03400923626832")).toMatchObject({ eanGtin13: ["3400923626832"], cip13: ["3400923626832"] });
  });

  it("asks only the id of anything that is not 8 to 14 digits", () => {
    expect(productFilterFor("M5827B746A")).toEqual({ id: ["M5827B746A"] });
    expect(productFilterFor("1234567")).toEqual({ id: ["1234567"] });
    expect(productFilterFor("123456789012345")).toEqual({ id: ["123456789012345"] });
  });

  it("codeForms: the widths a code can be written in", () => {
    expect([...codeForms("00000000").keys()]).toEqual([8, 12, 13, 14]);
    expect([...codeForms("123456789").keys()]).toEqual([12, 13, 14]);
    expect([...codeForms("99999999999999").keys()]).toEqual([14]);
  });
});
