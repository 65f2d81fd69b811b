/**
 * VAT scale normalisation. The wire `vat` is a float of undocumented scale:
 * 21 (percent), 0.21 (fraction) and 2100 (basis points, the internal store) are
 * all seen. The scales are told apart by range, never guessed:
 *
 *   v = 0              -> 0 (zero rate)
 *   0 < v < 1          -> fraction      (0.21, 0.055, 0.021)
 *   1 < v < 100        -> percent       (21, 5.5, 2.1)
 *   100 < v < 10000    -> basis points  (2100, 550, 210), integer only
 *   1, 100, >= 10000, negative, NaN    -> INVALID_VAT (1 and 100 are ambiguous)
 *
 * The result is an integer number of basis points (2100 = 21 %), so prices with
 * VAT are computed in integers. A value with finer precision than a basis point
 * (0.12345, 21.123) is refused too: no VAT rate is written that way.
 */
import { fail, ok, type Result } from "./reasons.js";

const EPSILON = 1e-6;

function integral(x: number): number | undefined {
  const r = Math.round(x);
  return Math.abs(x - r) < EPSILON ? r : undefined;
}

/** VAT in basis points (21 % -> 2100). */
export function normalizeVat(raw: unknown): Result<number, "INVALID_VAT"> {
  if (typeof raw !== "number" || !Number.isFinite(raw)) return fail("INVALID_VAT", String(raw));
  const v = raw;
  let bp: number | undefined;
  if (v === 0) bp = 0;
  else if (v > 0 && v < 1) bp = integral(v * 10000);
  else if (v > 1 && v < 100) bp = integral(v * 100);
  else if (v > 100 && v < 10000) bp = integral(v);
  if (bp === undefined || bp >= 10000) return fail("INVALID_VAT", String(raw));
  return ok(bp);
}

/** The fraction form (0.21) for templates and reports. */
export function vatFraction(basisPoints: number): number {
  return basisPoints / 10000;
}

/** `cents` plus VAT, rounded half-up to the cent in integer arithmetic (820 at 2100 -> 992). */
export function addVat(cents: number, basisPoints: number): number {
  return Math.floor((cents * (10000 + basisPoints) + 5000) / 10000);
}
