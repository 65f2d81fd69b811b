import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { centsToAmount, decimalToCents, formatMoney, sourceToCents } from "../../src/mapping/money.js";
import { addVat, normalizeVat, vatFraction } from "../../src/mapping/vat.js";

describe("normalizeVat", () => {
  it.each([
    // the three wire scales of 21 %
    [21, 2100],
    [0.21, 2100],
    [2100, 2100],
    // FR 20 % (internal store: 2000), 5.5 %, 2.1 %, 10 %
    [20, 2000],
    [2000, 2000],
    [0.2, 2000],
    [5.5, 550],
    [0.055, 550],
    [550, 550],
    [2.1, 210],
    [0.021, 210],
    [210, 210],
    [10, 1000],
    [1000, 1000],
    // BE 6 %, NL 9 %
    [6, 600],
    [0.06, 600],
    [600, 600],
    [9, 900],
    [0, 0],
  ])("%s -> %i basis points", (raw, bp) => {
    expect(normalizeVat(raw)).toEqual({ ok: true, value: bp });
  });

  it.each([[-21], [Number.NaN], [Number.POSITIVE_INFINITY], [1], [100], [10000], [12000], [0.12345], [21.123], [2100.5], ["21"], [null], [undefined]])(
    "%s is INVALID_VAT, never a guess",
    (raw) => {
      const r = normalizeVat(raw);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toEqual({ code: "INVALID_VAT", detail: String(raw) });
    },
  );

  it("the three forms of any basis-point rate agree", () => {
    fc.assert(
      fc.property(fc.integer({ min: 101, max: 9999 }), (bp) => {
        expect(normalizeVat(bp)).toEqual({ ok: true, value: bp });
        expect(normalizeVat(bp / 10000)).toEqual({ ok: true, value: bp });
        if (bp > 100) expect(normalizeVat(bp / 100)).toEqual({ ok: true, value: bp });
      }),
    );
  });

  it("gives the fraction", () => {
    expect(vatFraction(2100)).toBe(0.21);
  });
});

describe("addVat: half-up to the cent, integer arithmetic", () => {
  it.each([
    [820, 2100, 992], // 8.20 * 1.21 = 9.922
    [1000, 2100, 1210],
    [1, 2100, 1], // 0.0121 -> 0.01
    [50, 2100, 61], // 0.605 -> 0.61 (half-up, where float gives 0.6049999)
    [1050, 550, 1108], // 11.0775 -> 11.08
    [1234, 210, 1260], // 12.5991 -> 12.60
    [250, 2000, 300],
    // where float arithmetic (Math.round(c * 1.055)) is a cent off
    [1900, 550, 2005], // 20.045 -> 20.05
    [500, 210, 511], // 5.105 -> 5.11
    [999, 0, 999],
  ])("%i cents + %i bp -> %i", (cents, bp, expected) => {
    expect(addVat(cents, bp)).toBe(expected);
  });

  it("matches exact decimal rounding for any amount and rate", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 9999 }), (cents, bp) => {
        const exact = BigInt(cents) * BigInt(10000 + bp); // in 1/10000 cents
        const expected = Number((exact + 5000n) / 10000n);
        expect(addVat(cents, bp)).toBe(expected);
      }),
    );
  });
});

describe("prices in the source unit", () => {
  it.each([
    [820, "cents", 820],
    [1450, "cents", 1450],
    [8.2, "euro", 820],
    [8, "euro", 800],
    [14.5, "euro", 1450],
    [0.29, "euro", 29],
  ] as const)("%s %s -> %i cents", (raw, unit, cents) => {
    expect(sourceToCents(raw, unit)).toEqual({ ok: true, value: cents });
  });

  it.each([
    [820.5, "cents"],
    [0, "cents"],
    [-1, "cents"],
    [Number.NaN, "cents"],
    ["820", "cents"],
    [8.205, "euro"],
    [0, "euro"],
    [1e21, "euro"],
  ] as const)("%s %s is INVALID_PRICE", (raw, unit) => {
    const r = sourceToCents(raw, unit);
    expect(r.ok ? undefined : r.reason.code).toBe("INVALID_PRICE");
  });
});

describe("decimalToCents (offers file)", () => {
  it.each([
    ["12.99", 1299],
    ["12,99", 1299],
    ["12.9", 1290],
    ["12", 1200],
    ["12.990", 1299],
    [" 7,50 ", 750],
    [12.99, 1299],
    [0.1, 10],
  ])("%j -> %i", (raw, cents) => {
    expect(decimalToCents(raw)).toEqual({ ok: true, value: cents });
  });

  it.each([["12.999"], ["1.299,00"], ["1 299,00"], ["12.99 €"], ["-3"], ["abc"], [""], ["1e3"], [Number.NaN]])("%j is refused", (raw) => {
    expect(decimalToCents(raw).ok).toBe(false);
  });
});

describe("formatMoney", () => {
  it.each([
    [1299, { decimalSeparator: ".", currency: "suffix" }, "12.99 EUR"],
    [1299, { decimalSeparator: ",", currency: "none" }, "12,99"],
    [1299, { decimalSeparator: ",", currency: "suffix" }, "12,99 EUR"],
    [5, { decimalSeparator: ".", currency: "none" }, "0.05"],
    [123456789, { decimalSeparator: ".", currency: "none" }, "1234567.89"],
  ] as const)("%i with %j -> %s", (cents, format, text) => {
    const m = formatMoney(cents, "EUR", format);
    expect(m.text).toBe(text);
    expect(m.cents).toBe(cents);
    expect(m.amount).toBe(centsToAmount(cents));
  });
});
