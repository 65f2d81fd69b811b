/**
 * identifier_exists per Google's rule (issue 13, item 3; Merchant Center help,
 * answer 6324478): `no` only when there is no valid GTIN and not both brand and
 * MPN. Read back from the feeds the Google-like presets write; beslist, which
 * requires a 13-digit EAN, still leaves products without one out.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CODES, product } from "../mapping/fixtures.js";
import { runPreset, type PresetRun } from "./harness.js";

const noCodes = { eanGtin13: undefined, ean: undefined, cip13: undefined };
const PRODUCTS = [
  // A valid GTIN (with brand and mpn too).
  product({ id: "GTIN1" }),
  // No GTIN at all, brand and mpn: identified by brand + mpn.
  product({ id: "BRANDMPN1", ...noCodes }),
  // A GTIN with a wrong check digit, brand and mpn: still brand + mpn, never `no`.
  product({ id: "BADCHECK1", ...noCodes, eanGtin13: CODES.cip13.slice(0, 12) + String((Number(CODES.cip13[12]) + 1) % 10) }),
  // Neither GTIN nor mpn: published with identifier_exists = no.
  product({ id: "NOTHING1", ...noCodes, supplierReference: undefined }),
  // A bad GTIN and no mpn: no valid GTIN, not both brand and mpn: `no`.
  product({ id: "BADNOMPN1", ...noCodes, eanGtin13: "3400930000015", supplierReference: undefined }),
];

const runs = new Map<string, PresetRun>();
beforeAll(async () => {
  for (const name of ["google", "microsoft", "google-tsv", "beslist", "meta-xml"]) runs.set(name, await runPreset(name, PRODUCTS));
});

/** The XML feeds' g: names, the TSV's bare ones, as one shape. */
function fields(name: string, id: string): Record<string, string> {
  const row = runs.get(name)!.rows.get(id);
  if (!row) throw new Error(`${id} not in ${name}: ${JSON.stringify(runs.get(name)!.excluded.get(id))}`);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(row)) if (typeof value === "string" && value !== "") out[key.replace(/^g:/, "")] = value;
  return out;
}

describe.each(["google", "microsoft", "google-tsv"])("identifier_exists in %s", (name) => {
  // The TSV writes the column on every row ("yes" is the default Google assumes without it).
  const absent = name === "google-tsv" ? "yes" : undefined;

  it("publishes every product, with or without identifiers", () => {
    expect([...runs.get(name)!.excluded.keys()]).toEqual([]);
  });

  it("a valid GTIN: gtin, and no identifier_exists=no", () => {
    expect(fields(name, "GTIN1")).toMatchObject({ gtin: CODES.cip13, brand: "Avène", mpn: "C52660" });
    expect(fields(name, "GTIN1")["identifier_exists"]).toBe(absent);
  });

  it.each(["BRANDMPN1", "BADCHECK1"])("%s: no valid GTIN but brand and mpn: identified by them, never `no`", (id) => {
    const f = fields(name, id);
    expect(f["gtin"]).toBeUndefined();
    expect(f).toMatchObject({ brand: "Avène", mpn: "C52660" });
    expect(f["identifier_exists"]).toBe(absent);
  });

  it.each(["NOTHING1", "BADNOMPN1"])("%s: no valid GTIN and no mpn: published with identifier_exists=no", (id) => {
    const f = fields(name, id);
    expect(f["gtin"]).toBeUndefined();
    expect(f["mpn"]).toBeUndefined();
    expect(f["identifier_exists"]).toBe("no");
  });
});

describe("channels that require a GTIN", () => {
  it("beslist leaves out every product without a valid 13-digit EAN", () => {
    const run = runs.get("beslist")!;
    expect([...run.rows.keys()]).toEqual(["GTIN1"]);
    expect(Object.fromEntries([...run.excluded].map(([id, reasons]) => [id, reasons[0]?.code]))).toEqual({
      BRANDMPN1: "MISSING_GTIN",
      BADCHECK1: "INVALID_GTIN",
      NOTHING1: "MISSING_GTIN",
      BADNOMPN1: "INVALID_GTIN",
    });
  });

  it("meta-xml writes no identifier_exists (not a Meta catalog field)", () => {
    expect(runs.get("meta-xml")!.text).not.toContain("identifier_exists");
  });
});
