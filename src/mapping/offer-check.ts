/**
 * Whether a product's offers row may be used, as one pure check per product and channel:
 * a row refused when the file was read (kept with its keys, offers-table.ts) and a price
 * that cannot be the shop's (a typo, cents in the euros column) both return a reason;
 * map-product.ts then follows the channel's `offers.whenRefused`: leave the product out
 * with it, or publish the catalogue's price and stock with the warning OFFER_NOT_USED.
 * A wrong price is worse than no item: marketplaces disapprove or sell at it.
 */
import type { Product } from "../catalogue/schemas/product.js";
import type { ProductFacts } from "./facts.js";
import { centsToAmount, sourceToCents, type PriceUnit } from "./money.js";
import type { Reason } from "./reasons.js";
import type { ChannelMapping } from "./settings.js";

/** Around 100x (or 1/100x): the price was typed in cents in a column of euros (or the other way). */
function likelyCause(ratio: number): string {
  if (ratio >= 80 && ratio <= 125) return "looks like cents in the euros column";
  if (ratio >= 1 / 125 && ratio <= 1 / 80) return "looks like euros where cents were meant, or a decimal separator read as a thousands one";
  if (ratio >= 8 && ratio <= 12.5) return "looks like a decimal separator one place off";
  return "check the row's price";
}

/** What a price is judged against: the catalogue's public price, else the price last published. */
type Reference = { cents: number; what: "the catalogue's public price" | "the price last published" };

function plausibility(field: "price", cents: number, reference: Reference, maxRatio: number): Reason | undefined {
  const publicCents = reference.cents;
  const ratio = cents / publicCents;
  if (ratio <= maxRatio && ratio >= 1 / maxRatio) return undefined;
  const times = ratio >= 1 ? `${ratio >= 10 ? Math.round(ratio) : ratio.toFixed(1)} times` : `1/${Math.round(1 / ratio)} of`;
  return {
    code: "IMPLAUSIBLE_PRICE",
    // Without the row's line: an accepted row that only moved keeps its reused rows (OffersIndex.fingerprint).
    detail: `${field} ${centsToAmount(cents)} in the offers file is ${times} ${reference.what} ${centsToAmount(publicCents)}: ${likelyCause(ratio)}`,
  };
}

/** Why the product's offers row must not be used in this channel; undefined when it may (or there is none). */
export function offerRefusal(product: Product, facts: ProductFacts, s: ChannelMapping, unit: PriceUnit): Reason | undefined {
  const offer = facts.offer;
  if (offer === undefined) return undefined;
  if (offer.refused !== undefined) return { code: "OFFER_REFUSED", detail: `offers file line ${offer.line}: ${offer.refused} (the offers report gives the row's problem)` };
  const maxRatio = s.offers.maxPriceRatio;
  // The price where the channel publishes the offer's. Not the sale price: a deep discount is a
  // shop's choice, and one above the price is already refused (SALE_IGNORED).
  if (maxRatio === 0 || offer.priceCents === undefined || !s.price.sources.includes("offer")) return undefined;
  const reference = referenceOf(product, offer.lastPublishedCents, unit);
  return reference === undefined ? undefined : plausibility("price", offer.priceCents, reference, maxRatio);
}

/** The catalogue's public price when it has a usable one, else the price the product was last published at (if it was). */
function referenceOf(product: Product, lastPublishedCents: number | undefined, unit: PriceUnit): Reference | undefined {
  if (product.publicPrice !== null && product.publicPrice !== undefined) {
    const publicCents = sourceToCents(product.publicPrice, unit);
    if (publicCents.ok && publicCents.value > 0) return { cents: publicCents.value, what: "the catalogue's public price" };
  }
  return lastPublishedCents === undefined ? undefined : { cents: lastPublishedCents, what: "the price last published" };
}

/** The product's facts as if the offers file had no row for it (whenRefused: catalogue). A copy: facts are shared by every channel. */
export function withoutOffer(facts: ProductFacts): ProductFacts {
  return { ...facts, offer: undefined, saleFrom: undefined, saleUntil: undefined };
}
