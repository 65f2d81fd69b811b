/**
 * GTIN normalisation (wire-facts.md: codes arrive as integers that lost their
 * leading zeros, strings, or one-element arrays). Every code is reduced to its
 * 14-digit key, which makes "with and without leading zero" the same code and
 * lets the GS1 mod-10 check run once: left zeros never change the check digit.
 *
 * Refused: non-digits, wrong lengths, wrong check digit, restricted circulation
 * (GTIN-13 prefix 2, 02, 04; GTIN-8 prefix 0 or 2, which is also where a 7-digit
 * Belgian CNK lands), coupons (05, 99, 981-984) and variable-measure GTIN-14s.
 */
import type { Product } from "../catalogue/schemas/product.js";
import { fail, ok, type Result } from "./reasons.js";

export const GTIN_WIDTHS = [8, 12, 13, 14] as const;
export type GtinWidth = (typeof GTIN_WIDTHS)[number];
export const GTIN_OUTPUTS = ["gtin13-when-possible", "gtin13-only", "as-is", "gtin14"] as const;
/** gtin13-only: channels that take nothing but 13-digit EANs (beslist.nl); GTIN-8 and case GTIN-14 are not used. */
export type GtinOutput = (typeof GTIN_OUTPUTS)[number];

export interface GtinCode {
  /** 14 digits, left-padded: the identity of the code. */
  key: string;
  /** The code at the width it came in (the field's width, or its own length). */
  digits: string;
  width: GtinWidth;
}

/** Where GTINs live on a product, in the order a primary GTIN is chosen, with each field's width (productGtins unrolls it). */
export const GTIN_SOURCES: readonly (readonly [keyof Product & string, GtinWidth | undefined])[] = [
  ["eanGtin13", 13],
  ["eanGtin14", 14],
  ["eanGtin12", 12],
  ["eanGtin8", 8],
  ["ean", undefined],
  ["gtin", 14],
  ["cip13", 13],
  ["acl13", 13],
];

/** GS1 mod-10 check digit of `body` (all digits but the check digit), or of its first `length` digits. */
export function gs1CheckDigit(body: string, length = body.length): number {
  let sum = 0;
  // Weights 3,1,3,... from the right of the body.
  for (let i = length - 1, w = 3; i >= 0; i--, w = 4 - w) sum += (body.charCodeAt(i) - 48) * w;
  return (10 - (sum % 10)) % 10;
}

function smallestWidth(length: number): GtinWidth | undefined {
  for (const w of GTIN_WIDTHS) if (length <= w) return w;
  return undefined;
}

function isStandardWidth(length: number): length is GtinWidth {
  return length === 8 || length === 12 || length === 13 || length === 14;
}

/** Why a 14-digit key may not be published, or undefined when it may. */
export function restrictedPrefix(key: string): string | undefined {
  if (key.startsWith("000000")) {
    const first = key[6];
    return first === "0" || first === "2" ? "restricted prefix" : undefined;
  }
  if (key[0] === "9") return "variable measure";
  // The prefix rules apply to the GTIN-13 form: the key without its first digit.
  const a = key[1];
  const b = key[2];
  if (a === "2" || (a === "0" && (b === "2" || b === "4"))) return "restricted prefix";
  if ((a === "0" && b === "5") || (a === "9" && b === "9")) return "coupon prefix";
  if (a === "9" && b === "8" && key[3] !== undefined && key[3] >= "1" && key[3] <= "4") return "coupon prefix";
  return undefined;
}

const DIGITS = /^\d+$/;

/**
 * One wire value (number or string) to a GtinCode. `fieldWidth` is the width of
 * eanGtin8/12/13/14 (or 13 for cip13/acl13); undefined for ean[] entries, whose
 * strings must then carry their own width.
 */
export function parseGtin(raw: unknown, fieldWidth?: GtinWidth): Result<GtinCode, "INVALID_GTIN"> {
  let digits: string;
  let width: GtinWidth | undefined;
  if (typeof raw === "number") {
    if (!Number.isSafeInteger(raw) || raw < 0) return fail("INVALID_GTIN", `${raw} (not an integer code)`);
    digits = String(raw);
    // Leading zeros are lost: the field says how many to put back.
    width = fieldWidth !== undefined && digits.length <= fieldWidth ? fieldWidth : smallestWidth(digits.length);
  } else if (typeof raw === "string") {
    digits = raw.trim();
    if (!DIGITS.test(digits)) return fail("INVALID_GTIN", `${raw} (not digits)`);
    if (fieldWidth !== undefined && digits.length <= fieldWidth) width = fieldWidth;
    else width = isStandardWidth(digits.length) ? digits.length : undefined;
  } else {
    return fail("INVALID_GTIN", `${String(raw)} (not a code)`);
  }
  if (width === undefined) return fail("INVALID_GTIN", `${digits} (length ${digits.length})`);
  digits = digits.padStart(width, "0");
  const key = digits.padStart(14, "0");
  if (gs1CheckDigit(key, 13) !== key.charCodeAt(13) - 48) return fail("INVALID_GTIN", `${digits} (check digit)`);
  const restricted = restrictedPrefix(key);
  if (restricted !== undefined) return fail("INVALID_GTIN", `${digits} (${restricted})`);
  return ok({ key, digits, width });
}

/** The code at the channel's output width. */
export function formatGtin(code: GtinCode, output: GtinOutput): string {
  if (output === "gtin14") return code.key;
  if ((output === "gtin13-when-possible" || output === "gtin13-only") && hasGtin13Form(code)) return code.key.slice(1);
  return code.digits;
}

/** GTIN-13 and GTIN-12 (as 0 + 12) have a 13-digit form; GTIN-8 and true GTIN-14 do not. */
export function hasGtin13Form(code: GtinCode): boolean {
  return code.key[0] === "0" && !code.key.startsWith("000000");
}

export interface ProductGtins {
  /** Distinct valid codes, in source order. */
  valid: GtinCode[];
  /** Details of refused codes, e.g. "3401234567891 (check digit)". */
  invalid: string[];
}

function visit(raw: unknown, width: GtinWidth | undefined, seen: Set<string>, out: ProductGtins): void {
  if (raw === null || raw === undefined || raw === "") return;
  if (Array.isArray(raw)) {
    for (const item of raw) visit(item, width, seen, out);
    return;
  }
  const result = parseGtin(raw, width);
  if (!result.ok) {
    if (result.reason.detail !== undefined && !out.invalid.includes(result.reason.detail)) out.invalid.push(result.reason.detail);
    return;
  }
  if (seen.has(result.value.key)) return;
  seen.add(result.value.key);
  out.valid.push(result.value);
}

/** Every GTIN of a product, deduplicated on the 14-digit key. */
export function productGtins(product: Product): ProductGtins {
  const out: ProductGtins = { valid: [], invalid: [] };
  const seen = new Set<string>();
  // Unrolled GTIN_SOURCES: fixed property reads stay fast on wide product objects.
  visit(product.eanGtin13, 13, seen, out);
  visit(product.eanGtin14, 14, seen, out);
  visit(product.eanGtin12, 12, seen, out);
  visit(product.eanGtin8, 8, seen, out);
  visit(product.ean, undefined, seen, out);
  visit(product.gtin, 14, seen, out);
  visit(product.cip13, 13, seen, out);
  visit(product.acl13, 13, seen, out);
  return out;
}

/** The codes a channel can use: all, or only those with a 13-digit form for gtin13-only. */
export function usableGtins(codes: readonly GtinCode[], output: GtinOutput): readonly GtinCode[] {
  return output === "gtin13-only" ? codes.filter(hasGtin13Form) : codes;
}

/** The primary code for a channel: a code with a 13-digit form first when the channel wants GTIN-13. */
export function primaryGtin(codes: readonly GtinCode[], output: GtinOutput): GtinCode | undefined {
  if (output !== "as-is" && output !== "gtin14") {
    for (const code of codes) if (hasGtin13Form(code)) return code;
  }
  return output === "gtin13-only" ? undefined : codes[0];
}
