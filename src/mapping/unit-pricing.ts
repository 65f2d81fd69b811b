/**
 * Unit pricing: the measure of the product as sold, the base the unit price is
 * given for, and the unit price itself. EU law (Directive 98/6/EC) wants the
 * unit price of products sold by volume or weight wherever the price is shown,
 * advertisements included; Google reads it from `unit_pricing_measure` with
 * `unit_pricing_base_measure` (Merchant Center answers 6324455 and 6324490).
 *
 * The measure comes from the package content ("3 x 25 ml" is 75 ml: a
 * multi-pack counts as sold). When the product's name states a quantity of the
 * same kind that disagrees ("... 25 ml" sold as 225 ml), nothing is published
 * and a warning says so: a wrong unit price is worse than none.
 *
 * Pure functions of the product and the channel's settings.
 */
import type { Money } from "./feed-item.js";
import type { Measure } from "./measures.js";
import { formatMoney, type PriceFormat } from "./money.js";
import type { Reason, WarningCode } from "./reasons.js";

type Dimension = "volume" | "mass";

/** Units the package content may use, with their size in the dimension's smallest unit (ml, mg). */
const UNITS: Record<string, { dimension: Dimension; factor: number }> = {
  ml: { dimension: "volume", factor: 1 },
  cl: { dimension: "volume", factor: 10 },
  l: { dimension: "volume", factor: 1000 },
  mg: { dimension: "mass", factor: 1 },
  g: { dimension: "mass", factor: 1000 },
  kg: { dimension: "mass", factor: 1_000_000 },
};

/**
 * Google's allowed bases (answer 6324490): 1, 10, 100, 2, 4, 8 of a unit, and
 * 75cl, 750ml, 50kg, 1000kg. Only the metric volume and mass units are offered
 * here: package contents are metric.
 */
const bases = (units: string[], extra: string[]) => [...units.flatMap((u) => [1, 10, 100, 2, 4, 8].map((n) => `${n} ${u}`)), ...extra];
export const VOLUME_BASES: readonly string[] = bases(["ml", "cl", "l"], ["75 cl", "750 ml"]);
export const MASS_BASES: readonly string[] = bases(["mg", "g", "kg"], ["50 kg", "1000 kg"]);

// "3 x 25 ml", "2×50g", "200 ml", "1,5 l": an optional count, a size, a unit not followed by a letter.
const QUANTITY = /(?:(\d+)\s*[x×]\s*)?(\d+(?:[.,]\d+)?)\s*(mg|g|kg|ml|cl|l)(?![\p{L}\d/])/giu;
// The first quantity only (no lastIndex to carry over between calls).
const FIRST_QUANTITY = new RegExp(QUANTITY.source, "iu");

interface Quantity {
  measure: Measure;
  dimension: Dimension;
  /** In ml or mg. */
  size: number;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function quantity(count: string | undefined, size: string, rawUnit: string): Quantity | undefined {
  const unit = rawUnit.toLowerCase();
  const info = UNITS[unit];
  const n = count === undefined ? 1 : Number(count);
  const value = Number(size.replace(",", "."));
  if (info === undefined || !(n > 0 && value > 0)) return undefined;
  const total = round(n * value);
  return { measure: { value: total, unit, text: `${total} ${unit}` }, dimension: info.dimension, size: total * info.factor };
}

/** The package content as sold, when it is a metric volume or mass ("30 comprimés" is not). */
export function contentQuantity(packageContent: string | null | undefined): Quantity | undefined {
  if (typeof packageContent !== "string") return undefined;
  const m = FIRST_QUANTITY.exec(packageContent);
  // Only a quantity at the start: "Boîte de 30, 200 ml chacun" is not a content to price by.
  if (m === null || packageContent.slice(0, m.index).trim() !== "") return undefined;
  return quantity(m[1], m[2] ?? "", m[3] ?? "");
}

/** Every volume or mass a name states, concentrations ("0.33 mg/ml") left aside. */
export function nameQuantities(name: string): Quantity[] {
  const out: Quantity[] = [];
  for (const m of name.matchAll(QUANTITY)) {
    const q = quantity(m[1], m[2] ?? "", m[3] ?? "");
    if (q !== undefined) out.push(q);
  }
  return out;
}

/** Whether two sizes are the same quantity (within rounding). */
function same(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(a, b) * 0.005;
}

export type UnitMeasure =
  | { ok: true; measure: Measure | undefined; dimension?: Dimension }
  | { ok: false; detail: string };

/**
 * The unit pricing measure of a product: its package content, checked against
 * the quantities its name states. A name with quantities of the same kind, none
 * equal to the content, is a disagreement.
 */
export function unitMeasure(packageContent: string | null | undefined, name: string | undefined): UnitMeasure {
  // Channels of one language ask for the same product one after the other: the last answer is kept.
  if (packageContent === last.content && name === last.name) return last.result;
  const result = measureOf(packageContent, name);
  last = { content: packageContent, name, result };
  return result;
}

let last: { content: string | null | undefined; name: string | undefined; result: UnitMeasure } = { content: undefined, name: undefined, result: { ok: true, measure: undefined } };

function measureOf(packageContent: string | null | undefined, name: string | undefined): UnitMeasure {
  const content = contentQuantity(packageContent);
  if (content === undefined) return { ok: true, measure: undefined };
  const stated = name === undefined ? [] : nameQuantities(name).filter((q) => q.dimension === content.dimension);
  if (stated.length > 0 && !stated.some((q) => same(q.size, content.size))) {
    return { ok: false, detail: `name says ${stated.map((q) => q.measure.text).join(", ")}, package content is ${content.measure.text}` };
  }
  return { ok: true, measure: content.measure, dimension: content.dimension };
}

/** A base from VOLUME_BASES or MASS_BASES ("100 ml") as a measure with its size in ml or mg. */
export function baseMeasure(base: string): Quantity | undefined {
  let q = BASES.get(base);
  if (q === undefined && !BASES.has(base)) {
    const m = /^(\d+) (mg|g|kg|ml|cl|l)$/.exec(base);
    q = m === null ? undefined : quantity(undefined, m[1] ?? "", m[2] ?? "");
    BASES.set(base, q);
  }
  return q;
}
const BASES = new Map<string, Quantity | undefined>();

export interface UnitPricingBases {
  volume: string;
  mass: string;
}

export interface UnitPrice {
  /** What the measure is priced per: the channel's base for the measure's dimension. */
  base: Measure;
  /** The unit price in cents (half up): price x base / measure. */
  cents: number;
}

/** The unit price of `priceCents` for a measure, per the channel's base of that dimension. */
export function unitPrice(priceCents: number, measure: Measure, bases: UnitPricingBases): UnitPrice | undefined {
  const info = UNITS[measure.unit];
  if (info === undefined) return undefined;
  const base = baseMeasure(info.dimension === "volume" ? bases.volume : bases.mass);
  if (base === undefined || base.dimension !== info.dimension) return undefined;
  const size = measure.value * info.factor;
  return { base: base.measure, cents: Math.round((priceCents * base.size) / size) };
}

export interface ItemUnitPricing {
  measure?: Measure;
  base?: Measure;
  price?: Money;
  warning?: Reason<WarningCode>;
}

/**
 * An item's unit pricing: the measure, the channel's base for it and the unit
 * price of what the customer pays, or a warning and nothing when the name and
 * the package content disagree.
 */
export function itemUnitPricing(
  packageContent: string | null | undefined,
  name: string | undefined,
  paidCents: number | undefined,
  channel: { unitPricing: { volumeBase: string; massBase: string }; currency: string; price: PriceFormat },
): ItemUnitPricing {
  const r = unitMeasure(packageContent, name);
  if (!r.ok) return { warning: { code: "UNIT_MEASURE_MISMATCH", detail: r.detail } };
  if (r.measure === undefined) return {};
  const bases = { volume: channel.unitPricing.volumeBase, mass: channel.unitPricing.massBase };
  const unit = paidCents === undefined ? undefined : unitPrice(paidCents, r.measure, bases);
  if (unit === undefined) return { measure: r.measure };
  return { measure: r.measure, base: unit.base, price: formatMoney(unit.cents, channel.currency, channel.price) };
}
