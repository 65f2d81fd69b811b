/**
 * Identifier codes and prices of a product, as JSON members (",\"key\":value"),
 * in the shapes the real service sends: EANs as strings or as integers that
 * lost their leading zero, eanGtin13 sometimes a one-element array, duplicates
 * with and without the leading zero in ean[], a few wrong check digits; prices
 * in cents; vat as a percent, with a small share in the other scales seen
 * (0.21 and 2100).
 */
import { breakCheckDigit, gtin14Of, makeGtin } from "./codes.js";
import type { Rng } from "./prng.js";

/** Shares of the code and price oddities (per product). */
export const CODE_ODDITY = {
  noCode: 0.02,
  gtin8: 0.04,
  upc12: 0.04,
  gtin14: 0.08,
  badCheck: 0.02,
  duplicateEan: 0.04,
  arrayGtin13: 0.07,
  integerCode: 0.38,
  vatFraction: 0.03,
  vatHundredfold: 0.02,
  noPublicPrice: 0.04,
} as const;

/** A code as the wire sends it: a string, or an integer (leading zeros lost). */
function wire(code: string, asInteger: boolean): string {
  return asInteger ? String(Number(code)) : `"${code}"`;
}

export function codesJson(rng: Rng, market: "BE" | "FR", medicine: boolean): string {
  const asInteger = rng.chance(CODE_ODDITY.integerCode);
  const u = rng.next();
  if (u < CODE_ODDITY.noCode) return "";
  if (u < CODE_ODDITY.noCode + CODE_ODDITY.gtin8) {
    const ean8 = makeGtin(rng, 8, market === "BE" ? "54" : "30");
    const sent = rng.chance(0.25) ? breakCheckDigit(ean8) : ean8;
    return `,"ean":["${sent}"],"eanGtin8":${wire(sent, asInteger)}`;
  }
  let out = "";
  let ean13: string;
  if (u < CODE_ODDITY.noCode + CODE_ODDITY.gtin8 + CODE_ODDITY.upc12) {
    const upc = makeGtin(rng, 12, "0");
    out += `,"eanGtin12":${wire(upc, asInteger)}`;
    ean13 = "0" + upc;
  } else if (market === "FR") {
    ean13 = makeGtin(rng, 13, medicine ? "34009" : "34015");
    out += `,"cipOrAcl7":${Number(ean13.slice(5, 12))}`;
    out += medicine ? `,"cip13":${Number(ean13)}` : `,"acl13":${Number(ean13)}`;
  } else {
    ean13 = makeGtin(rng, 13, "54" + String(rng.int(0, 9)));
  }
  if (rng.chance(CODE_ODDITY.badCheck)) ean13 = breakCheckDigit(ean13);
  const g13 = wire(ean13, asInteger);
  out += `,"eanGtin13":${rng.chance(CODE_ODDITY.arrayGtin13) ? `[${g13}]` : g13}`;
  if (rng.chance(CODE_ODDITY.gtin14)) {
    const g14 = gtin14Of(ean13);
    out += `,"eanGtin14":${wire(g14, asInteger)},"gtin":"${g14}"`;
  }
  const eanAsInteger = rng.chance(0.3);
  if (rng.chance(CODE_ODDITY.duplicateEan)) {
    const padded = ean13.startsWith("0") ? ean13 : "0" + ean13;
    const short = padded.slice(1);
    out += `,"ean":["${padded}",${wire(short, eanAsInteger && !short.startsWith("0"))}]`;
  } else {
    out += `,"ean":[${wire(ean13, eanAsInteger)}]`;
  }
  return out;
}

/** VAT in percent by market and kind: BE 6/21, FR 2.1/5.5/10/20. */
function vatPercent(rng: Rng, market: "BE" | "FR", medicine: boolean, reimbursed: boolean, food: boolean): number {
  if (market === "BE") return medicine || (food && rng.chance(0.5)) ? 6 : 21;
  if (medicine) return reimbursed ? 2.1 : 10;
  return food ? 5.5 : 20;
}

const CODE_ACTE: Record<number, string> = { 100: "PH1", 65: "PH7", 30: "PH4", 15: "PH2" };

/** Every random draw of a product's prices, in one order, shared by the JSON and the byte writers. */
export interface PriceDraw {
  wireVat: number;
  publicPrice: number;
  showPublicPrice: boolean;
  manufacturerPrice: number;
  pharmacistPrice: number | undefined;
  /** Reimbursement rate of a reimbursed (FR medicine) product. */
  rate: number | undefined;
}

export function drawPrices(rng: Rng, market: "BE" | "FR", medicine: boolean, food: boolean): PriceDraw {
  const reimbursed = market === "FR" && medicine && rng.chance(0.5);
  const vat = vatPercent(rng, market, medicine, reimbursed, food);
  const scale = rng.next();
  const wireVat =
    scale < CODE_ODDITY.vatFraction ? Math.round(vat * 10) / 1000 : scale < CODE_ODDITY.vatFraction + CODE_ODDITY.vatHundredfold ? Math.round(vat * 100) : vat;
  const publicPrice = rng.int(medicine ? 299 : 399, medicine ? 2999 : 5999);
  const net = publicPrice / (1 + vat / 100);
  const showPublicPrice = !rng.chance(CODE_ODDITY.noPublicPrice);
  const pharmacistPrice = rng.chance(0.7) ? Math.round(net * 0.72) : undefined;
  const rate = reimbursed ? rng.pick([15, 30, 65, 100]) : undefined;
  return { wireVat, publicPrice, showPublicPrice, manufacturerPrice: Math.round(net * 0.62), pharmacistPrice, rate };
}

/** vat, prices and (FR) reimbursement members, as JSON. */
export function pricesJson(rng: Rng, market: "BE" | "FR", medicine: boolean, food: boolean): string {
  const { wireVat, publicPrice, showPublicPrice, manufacturerPrice, pharmacistPrice, rate } = drawPrices(rng, market, medicine, food);
  let out = `,"vat":${wireVat}`;
  if (showPublicPrice) out += `,"publicPrice":${publicPrice}`;
  out += `,"manufacturerPrice":${manufacturerPrice}`;
  if (pharmacistPrice !== undefined) out += `,"pharmacistPrice":${pharmacistPrice}`;
  if (rate !== undefined) {
    out += `,"tfrPrice":${publicPrice},"ttcPrice":${publicPrice},"reimbursementRate":${rate},"patientContribution":${Math.round(publicPrice * (1 - rate / 100))}`;
    out += `,"codeActe":"${CODE_ACTE[rate]}","rateOfReimbursement":${rate}`;
  } else if (market === "FR") {
    out += `,"codeActe":"${medicine ? "PHN" : "PAN"}"`;
  }
  return out;
}
