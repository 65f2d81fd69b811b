import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatGtin, gs1CheckDigit, parseGtin, primaryGtin, productGtins, type GtinWidth } from "../../src/mapping/gtin.js";
import { CODES, product, withCheck } from "./fixtures.js";

// Oracle written from channels.md, independent of the implementation.
function restricted13(s13: string): boolean {
  return s13[0] === "2" || ["02", "04", "05", "99"].some((p) => s13.startsWith(p)) || /^98[1-4]/.test(s13);
}

const digit = fc.integer({ min: 0, max: 9 }).map(String);
const digits = (n: number) => fc.array(digit, { minLength: n, maxLength: n }).map((a) => a.join(""));

const gtin13 = digits(12)
  .map(withCheck)
  .filter((c) => c[0] !== "0" && !restricted13(c));
const gtin12 = digits(11)
  .map(withCheck)
  .filter((c) => !restricted13(`0${c}`) && !c.startsWith("0000"));
const gtin8 = digits(7)
  .map(withCheck)
  .filter((c) => c[0] !== "0" && c[0] !== "2");
const gtin14 = fc
  .tuple(fc.integer({ min: 1, max: 8 }), gtin13)
  .map(([ind, g13]) => withCheck(`${ind}${g13.slice(0, 12)}`));

const valid: fc.Arbitrary<[string, GtinWidth]> = fc.oneof(
  gtin8.map((c) => [c, 8] as [string, GtinWidth]),
  gtin12.map((c) => [c, 12] as [string, GtinWidth]),
  gtin13.map((c) => [c, 13] as [string, GtinWidth]),
  gtin14.map((c) => [c, 14] as [string, GtinWidth]),
);

const FIELD: Record<GtinWidth, string> = { 8: "eanGtin8", 12: "eanGtin12", 13: "eanGtin13", 14: "eanGtin14" };

function forms(code: string): unknown[] {
  return [code, Number(code), [code], [Number(code)], ` ${code} `];
}

describe("gs1CheckDigit", () => {
  it.each([
    ["400638133393", 1], // 4006381333931, GS1 example
    ["9638507", 4], // 96385074
    ["03600029145", 2], // UPC 036000291452
    ["1001234500001", 7], // 10012345000017, GTIN-14 example from GS1
  ])("%s -> %i", (body, check) => {
    expect(gs1CheckDigit(body)).toBe(check);
  });
});

describe("parseGtin table", () => {
  it.each<[unknown, GtinWidth | undefined, string | null]>([
    // integers lose leading zeros: the field width puts them back
    [36000291452, 12, "036000291452"],
    [36000291452, 13, "0036000291452"],
    [36000291452, undefined, "036000291452"],
    ["036000291452", 12, "036000291452"],
    ["36000291452", 12, "036000291452"],
    [Number(CODES.cip13), 13, CODES.cip13],
    [CODES.cip13, undefined, CODES.cip13],
    [`0${CODES.cip13}`, undefined, `0${CODES.cip13}`],
    [96385074, 8, "96385074"],
    [CODES.gtin14, 14, CODES.gtin14],
    // refused
    ["4006381333932", 13, null], // check digit
    ["400638133393A", 13, null], // letter
    ["4006381-333931", 13, null],
    ["", 13, null],
    [4006381333931.5, 13, null],
    [-4006381333931, 13, null],
    ["123456789", undefined, null], // 9 digits: no GTIN width
    ["400638133393100", undefined, null], // 15 digits
    [400638133393100, undefined, null],
    [withCheck("200000000001"), 13, null], // restricted 2
    [withCheck("020000000001"), 13, null], // restricted 02
    [withCheck("040000000001"), 13, null], // restricted 04
    [withCheck("050000000001"), 13, null], // coupon 05
    [withCheck("990000000001"), 13, null], // coupon 99
    [withCheck("981000000001"), 13, null], // coupon 981
    [withCheck("984000000001"), 13, null], // coupon 984
    [withCheck("20000000001"), 12, null], // UPC number system 2 -> 02
    [withCheck("0234567"), 8, null], // RCN-8 prefix 0
    [withCheck("2234567"), 8, null], // RCN-8 prefix 2
    [withCheck("9541234500001"), 14, null], // variable measure indicator 9
    [null, 13, null],
    [{}, 13, null],
  ])("%j (width %s) -> %s", (raw, width, expected) => {
    const r = parseGtin(raw, width);
    if (expected === null) {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason.code).toBe("INVALID_GTIN");
    } else {
      expect(r).toEqual({ ok: true, value: { key: expected.padStart(14, "0"), digits: expected, width: expected.length } });
    }
  });

  it("accepts 978/979 (books) and 980-free 3xx prefixes, refuses 981-984 only", () => {
    expect(parseGtin(withCheck("978000000001"), 13).ok).toBe(true);
    expect(parseGtin(withCheck("985000000001"), 13).ok).toBe(true);
    expect(parseGtin(withCheck("982000000001"), 13).ok).toBe(false);
  });

  it("never takes a Belgian CNK (7 digits) for a GTIN, in any field or form", () => {
    for (const cnk of ["3012345", "1234567", withCheck("123456"), withCheck("301234")]) {
      for (const width of [undefined, 8, 12, 13, 14] as const) {
        expect(parseGtin(cnk, width).ok).toBe(false);
        expect(parseGtin(Number(cnk), width).ok).toBe(false);
      }
    }
  });
});

describe("formatGtin", () => {
  const code = (raw: string, width?: GtinWidth) => {
    const r = parseGtin(raw, width);
    if (!r.ok) throw new Error(String(r.reason.detail));
    return r.value;
  };
  it.each([
    [CODES.cip13, 13, "gtin13-when-possible", CODES.cip13],
    [`0${CODES.cip13}`, 14, "gtin13-when-possible", CODES.cip13],
    [`0${CODES.cip13}`, 14, "as-is", `0${CODES.cip13}`],
    [CODES.cip13, 13, "gtin14", `0${CODES.cip13}`],
    [CODES.upc, 12, "gtin13-when-possible", `0${CODES.upc}`],
    [CODES.upc, 12, "as-is", CODES.upc],
    [CODES.gtin8, 8, "gtin13-when-possible", CODES.gtin8],
    [CODES.gtin8, 8, "gtin14", `000000${CODES.gtin8}`],
    [CODES.gtin14, 14, "gtin13-when-possible", CODES.gtin14],
    [`0${CODES.cip13}`, 14, "gtin13-only", CODES.cip13],
    [CODES.upc, 12, "gtin13-only", `0${CODES.upc}`],
  ] as const)("%s (%i) as %s -> %s", (raw, width, output, expected) => {
    expect(formatGtin(code(raw, width), output)).toBe(expected);
  });

  it("prefers a code with a 13-digit form for gtin13-when-possible", () => {
    const codes = [code(CODES.gtin8, 8), code(CODES.ean13, 13)];
    expect(primaryGtin(codes, "gtin13-when-possible")?.digits).toBe(CODES.ean13);
    expect(primaryGtin(codes, "as-is")?.digits).toBe(CODES.gtin8);
    expect(primaryGtin([code(CODES.gtin8, 8)], "gtin13-only")).toBeUndefined();
  });
});

describe("productGtins", () => {
  it("collapses duplicates with and without leading zero, across fields and wire types", () => {
    const p = product({ eanGtin13: [Number(CODES.cip13)], eanGtin14: `0${CODES.cip13}`, ean: [CODES.cip13, `0${CODES.cip13}`, Number(CODES.cip13)], cip13: CODES.cip13 });
    const g = productGtins(p);
    expect(g.valid.map((c) => c.key)).toEqual([`0${CODES.cip13}`]);
    expect(g.invalid).toEqual([]);
  });

  it("keeps valid codes in source order and reports the refused ones", () => {
    const bad = `${CODES.ean13.slice(0, 12)}${(Number(CODES.ean13[12]) + 1) % 10}`;
    const p = product({ eanGtin13: undefined, cip13: undefined, eanGtin8: Number(CODES.gtin8), ean: [bad, CODES.ean13, "3012345"] });
    const g = productGtins(p);
    expect(g.valid.map((c) => c.digits)).toEqual([CODES.gtin8, CODES.ean13]);
    expect(g.invalid).toEqual([`${bad} (check digit)`, "3012345 (length 7)"]);
  });

  it("reads a one-element array and the deprecated gtin field", () => {
    const p = product({ eanGtin13: undefined, cip13: undefined, ean: undefined, gtin: [CODES.ean13] });
    expect(productGtins(p).valid.map((c) => c.digits)).toEqual([`0${CODES.ean13}`]);
  });
});

describe("GTIN properties", () => {
  it("every valid GTIN-8/12/13/14 survives integer, string and one-element array forms, in its field and in ean[]", () => {
    fc.assert(
      fc.property(valid, ([code, width]) => {
        const key = code.padStart(14, "0");
        for (const form of forms(code)) {
          const inField = productGtins(product({ eanGtin13: undefined, cip13: undefined, ean: undefined, [FIELD[width]]: form }));
          expect(inField.valid.map((c) => c.key)).toEqual([key]);
          expect(formatGtin(inField.valid[0]!, "as-is")).toBe(code);
          const inList = productGtins(product({ eanGtin13: undefined, cip13: undefined, ean: Array.isArray(form) ? form : [form] }));
          expect(inList.valid.map((c) => c.key)).toEqual([key]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a wrong check digit is never accepted", () => {
    fc.assert(
      fc.property(valid, fc.integer({ min: 1, max: 9 }), ([code, width], shift) => {
        const wrong = code.slice(0, -1) + String((Number(code.at(-1)) + shift) % 10);
        for (const form of forms(wrong)) {
          for (const w of [width, undefined]) {
            const raw = Array.isArray(form) ? form[0] : form;
            expect(parseGtin(raw, w).ok).toBe(false);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a restricted or coupon prefix is never accepted, whatever the check digit", () => {
    const prefix = fc.constantFrom("2", "20", "29", "02", "04", "05", "99", "981", "982", "983", "984");
    fc.assert(
      fc.property(prefix, digits(12), (p, rest) => {
        const code = withCheck((p + rest).slice(0, 12));
        expect(parseGtin(code, 13).ok).toBe(false);
        expect(parseGtin(Number(code), 13).ok).toBe(false);
        expect(parseGtin(code, undefined).ok).toBe(false);
        expect(parseGtin(withCheck(`1${code.slice(0, 12)}`), 14).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("a code with a letter, or of a length no GTIN has, is never accepted", () => {
    // (Whitespace is trimmed, so a space replacing a leading zero of a padded field is the same code.)
    const letter = fc.constantFrom("A", "x", "O", "l", "-", ".", "e", "٣");
    fc.assert(
      fc.property(valid, letter, fc.nat(), ([code, width], l, at) => {
        const i = at % code.length;
        const broken = code.slice(0, i) + l + code.slice(i + 1);
        expect(parseGtin(broken, width).ok).toBe(false);
        expect(parseGtin(broken, undefined).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
    const oddLength = fc.constantFrom(9, 10, 11, 15, 16, 18).chain((n) => digits(n).filter((d) => d[0] !== "0"));
    fc.assert(
      fc.property(oddLength, (d) => {
        expect(parseGtin(d, undefined).ok).toBe(false);
        if (d.length > 14) {
          for (const w of [8, 12, 13, 14] as const) expect(parseGtin(d, w).ok).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("CIP13 / ACL13 codes (340...) are accepted as GTIN-13 when their check digit is right", () => {
    fc.assert(
      fc.property(digits(9), (rest) => {
        const cip = withCheck(`340${rest}`);
        expect(parseGtin(cip, 13)).toMatchObject({ ok: true, value: { digits: cip } });
        expect(parseGtin(Number(cip), 13)).toMatchObject({ ok: true, value: { digits: cip } });
      }),
      { numRuns: 100 },
    );
  });
});
