/**
 * The item's price: the first of the channel's sources that has a value,
 * always VAT included, in integer cents. A source that is present but bad (a
 * non-integer cent amount, an unusable VAT) is skipped with a warning; when no
 * source works the first such failure is the reason, else NO_PRICE.
 * The sale price comes from the offer, only while the sale is running.
 */
import type { Product } from "../catalogue/schemas/product.js";
import type { ProductFacts } from "./facts.js";
import type { PriceUnit } from "./money.js";
import { fail, type Reason, type Result, type WarningCode } from "./reasons.js";
import type { PriceSource } from "./settings.js";
import { addVat } from "./vat.js";
import type { Clock } from "./clock.js";
import { sourceToCents } from "./money.js";

export interface ChosenPrice {
  cents: number;
  source: PriceSource;
  warnings: Reason<WarningCode>[];
}

type SourceResult = { cents: number } | { skip: true } | { failure: Reason };

function fromSource(source: PriceSource, product: Product, facts: ProductFacts, unit: PriceUnit): SourceResult {
  if (source === "offer") {
    const cents = facts.offer?.priceCents;
    return cents === undefined ? { skip: true } : { cents };
  }
  const field = source === "manufacturerPriceWithVat" ? "manufacturerPrice" : source;
  const raw = product[field];
  if (raw === null || raw === undefined) return { skip: true };
  const cents = sourceToCents(raw, unit);
  if (!cents.ok) return { failure: { code: "INVALID_PRICE", detail: `${field} ${cents.reason.detail ?? ""}`.trim() } };
  if (source !== "manufacturerPriceWithVat") return { cents: cents.value };
  if (facts.vat === undefined) return { failure: { code: "INVALID_VAT", detail: "no vat for manufacturerPrice" } };
  if (!facts.vat.ok) return { failure: facts.vat.reason };
  return { cents: addVat(cents.value, facts.vat.value) };
}

export function selectPrice(product: Product, facts: ProductFacts, sources: readonly PriceSource[], unit: PriceUnit): Result<ChosenPrice> {
  let firstFailure: Reason | undefined;
  const warnings: Reason<WarningCode>[] = [];
  for (const source of sources) {
    const r = fromSource(source, product, facts, unit);
    if ("skip" in r) continue;
    if ("failure" in r) {
      firstFailure ??= r.failure;
      warnings.push({ code: "PRICE_SOURCE_SKIPPED", detail: `${source}: ${r.failure.code} ${r.failure.detail ?? ""}`.trim() });
      continue;
    }
    if (facts.vat !== undefined && !facts.vat.ok && source !== "manufacturerPriceWithVat") {
      warnings.push({ code: "VAT_IGNORED", detail: facts.vat.reason.detail ?? "" });
    }
    return { ok: true, value: { cents: r.cents, source, warnings } };
  }
  return firstFailure === undefined ? fail("NO_PRICE") : { ok: false, reason: firstFailure };
}

export interface Sale {
  cents: number;
  from?: string;
  until?: string;
}

/** The offer's sale, if it runs at the clock's now and is below `priceCents`. */
export function activeSale(facts: ProductFacts, priceCents: number, clock: Clock): { sale?: Sale; warning?: Reason<WarningCode> } {
  const offer = facts.offer;
  if (offer?.salePriceCents === undefined) return {};
  if (offer.saleFrom !== undefined && !clock.reached(offer.saleFrom)) return {};
  // Ended once now > saleUntil, i.e. from saleUntil + 1 on (whole seconds).
  if (offer.saleUntil !== undefined && clock.reached(offer.saleUntil + 1)) return {};
  if (offer.salePriceCents >= priceCents) {
    return { warning: { code: "SALE_IGNORED", detail: String(offer.salePriceCents) } };
  }
  const sale: Sale = { cents: offer.salePriceCents };
  if (facts.saleFrom !== undefined) sale.from = facts.saleFrom;
  if (facts.saleUntil !== undefined) sale.until = facts.saleUntil;
  return { sale };
}
