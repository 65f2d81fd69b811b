/**
 * The codes and prices members of a product as bytes: codesJson and
 * pricesJson of product-codes.ts, MIRRORED draw for draw (see
 * worker-product.ts; test/sandbox/worker-product.test.ts compares them).
 * Codes are arrays of digits here, never strings.
 */
import { CODE_ODDITY, drawPrices } from "./product-codes.js";
import type { Rng } from "./prng.js";
import { holes } from "./worker-bytes.js";
import { encodeAll, type ByteWriter } from "./worker-writer.js";

const T = {
  gtin8: holes(',"ean":["@"],"eanGtin8":@'),
  gtin12: holes(',"eanGtin12":@'),
  cip: holes(',"cipOrAcl7":@,"cip13":@'),
  acl: holes(',"cipOrAcl7":@,"acl13":@'),
  gtin13: holes(',"eanGtin13":@'),
  gtin13Array: holes(',"eanGtin13":[@]'),
  gtin14: holes(',"eanGtin14":@,"gtin":"@"'),
  eanPair: holes(',"ean":["@",@]'),
  ean: holes(',"ean":[@]'),
  vat: holes(',"vat":@'),
  publicPrice: holes(',"publicPrice":@'),
  manufacturerPrice: holes(',"manufacturerPrice":@'),
  pharmacistPrice: holes(',"pharmacistPrice":@'),
  reimbursed: holes(',"tfrPrice":@,"ttcPrice":@,"reimbursementRate":@,"patientContribution":@,"codeActe":"@","rateOfReimbursement":@'),
};
const C = encodeAll({ quote: '"', phn: ',"codeActe":"PHN"', pan: ',"codeActe":"PAN"' });
const CODE_ACTE: Record<number, string> = { 100: "PH1", 65: "PH7", 30: "PH4", 15: "PH2" };
const digitsOf = (text: string) => Array.from(text, (c) => c.charCodeAt(0) - 48);
const PREFIX = { be8: digitsOf("54"), fr8: digitsOf("30"), upc: digitsOf("0"), cip: digitsOf("34009"), acl: digitsOf("34015") };

/** GS1 check digit of `body`: weights 3,1,3,... from the right (codes.ts gs1CheckDigit). */
function checkDigit(body: number[]): number {
  let sum = 0;
  for (let k = 0; k < body.length; k++) {
    const digit = body[body.length - 1 - k] as number;
    sum += k % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** makeGtin: prefix, then random digits (rng.digits), then the check digit. */
function makeGtin(rng: Rng, length: number, prefix: number[]): number[] {
  const code = prefix.slice();
  while (code.length < length - 1) code.push(Math.floor(rng.next() * 10));
  code.push(checkDigit(code));
  return code;
}

/** breakCheckDigit: the same code with a wrong check digit. */
function breakCheck(code: number[]): number[] {
  const last = code[code.length - 1] as number;
  const broken = code.slice(0, -1);
  broken.push((last + 1 + (code.length % 9)) % 10);
  return broken;
}

function digits(w: ByteWriter, code: number[], from = 0): void {
  for (let k = from; k < code.length; k++) w.c(48 + (code[k] as number));
}

/** A code as the wire sends it (product-codes.ts wire): quoted, or an integer that lost its leading zeros. */
function wire(w: ByteWriter, code: number[], asInteger: boolean): void {
  if (!asInteger) {
    w.b(C.quote);
    digits(w, code);
    w.b(C.quote);
    return;
  }
  let first = 0;
  while (first < code.length - 1 && code[first] === 0) first++;
  digits(w, code, first);
}

/** codesJson, draw for draw. */
export function codes(w: ByteWriter, rng: Rng, market: "BE" | "FR", medicine: boolean): void {
  const asInteger = rng.chance(CODE_ODDITY.integerCode);
  const u = rng.next();
  if (u < CODE_ODDITY.noCode) return;
  if (u < CODE_ODDITY.noCode + CODE_ODDITY.gtin8) {
    const ean8 = makeGtin(rng, 8, market === "BE" ? PREFIX.be8 : PREFIX.fr8);
    const sent = rng.chance(0.25) ? breakCheck(ean8) : ean8;
    const t = T.gtin8 as Uint8Array[];
    w.b(t[0] as Uint8Array);
    digits(w, sent);
    w.b(t[1] as Uint8Array);
    wire(w, sent, asInteger);
    return;
  }
  let ean13: number[];
  if (u < CODE_ODDITY.noCode + CODE_ODDITY.gtin8 + CODE_ODDITY.upc12) {
    const upc = makeGtin(rng, 12, PREFIX.upc);
    w.b(T.gtin12[0] as Uint8Array);
    wire(w, upc, asInteger);
    ean13 = [0, ...upc];
  } else if (market === "FR") {
    ean13 = makeGtin(rng, 13, medicine ? PREFIX.cip : PREFIX.acl);
    const t = (medicine ? T.cip : T.acl) as Uint8Array[];
    w.b(t[0] as Uint8Array);
    wire(w, ean13.slice(5, 12), true);
    w.b(t[1] as Uint8Array);
    wire(w, ean13, true);
  } else {
    ean13 = makeGtin(rng, 13, [5, 4, rng.int(0, 9)]);
  }
  if (rng.chance(CODE_ODDITY.badCheck)) ean13 = breakCheck(ean13);
  const g13 = (rng.chance(CODE_ODDITY.arrayGtin13) ? T.gtin13Array : T.gtin13) as Uint8Array[];
  w.b(g13[0] as Uint8Array);
  wire(w, ean13, asInteger);
  w.b(g13[1] as Uint8Array);
  if (rng.chance(CODE_ODDITY.gtin14)) {
    const body = [0, ...ean13.slice(0, -1)];
    const g14 = [...body, checkDigit(body)];
    const t = T.gtin14 as Uint8Array[];
    w.b(t[0] as Uint8Array);
    wire(w, g14, asInteger);
    w.b(t[1] as Uint8Array);
    digits(w, g14);
    w.b(t[2] as Uint8Array);
  }
  const eanAsInteger = rng.chance(0.3);
  if (rng.chance(CODE_ODDITY.duplicateEan)) {
    const padded = ean13[0] === 0 ? ean13 : [0, ...ean13];
    const short = padded.slice(1);
    const t = T.eanPair as Uint8Array[];
    w.b(t[0] as Uint8Array);
    digits(w, padded);
    w.b(t[1] as Uint8Array);
    wire(w, short, eanAsInteger && short[0] !== 0);
    w.b(t[2] as Uint8Array);
  } else {
    const t = T.ean as Uint8Array[];
    w.b(t[0] as Uint8Array);
    wire(w, ean13, eanAsInteger);
    w.b(t[1] as Uint8Array);
  }
}

function member(w: ByteWriter, t: Uint8Array[], value: number): void {
  w.b(t[0] as Uint8Array);
  w.n(value);
  w.b(t[1] as Uint8Array);
}

/** pricesJson as bytes: the same draws (drawPrices), written without strings. */
export function prices(w: ByteWriter, rng: Rng, market: "BE" | "FR", medicine: boolean, food: boolean): void {
  const { wireVat, publicPrice, showPublicPrice, manufacturerPrice, pharmacistPrice, rate } = drawPrices(rng, market, medicine, food);
  member(w, T.vat, wireVat);
  if (showPublicPrice) member(w, T.publicPrice, publicPrice);
  member(w, T.manufacturerPrice, manufacturerPrice);
  if (pharmacistPrice !== undefined) member(w, T.pharmacistPrice, pharmacistPrice);
  if (rate !== undefined) {
    const t = T.reimbursed as Uint8Array[];
    const values = [publicPrice, publicPrice, rate, Math.round(publicPrice * (1 - rate / 100))];
    for (let k = 0; k < 4; k++) {
      w.b(t[k] as Uint8Array);
      w.n(values[k] as number);
    }
    w.b(t[4] as Uint8Array);
    w.s(CODE_ACTE[rate] as string);
    w.b(t[5] as Uint8Array);
    w.n(rate);
    w.b(t[6] as Uint8Array);
  } else if (market === "FR") {
    w.b(medicine ? C.phn : C.pan);
  }
}

