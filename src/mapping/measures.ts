/**
 * Weight and unit pricing measure, where the catalogue has them. The package
 * content is free text ("200 ml", "2 x 50 ml", "30 comprimés"): only metric
 * volumes and masses become a unit pricing measure (unit-pricing.ts); anything
 * else is left out.
 */
import type { Product } from "../catalogue/schemas/product.js";
import { contentQuantity } from "./unit-pricing.js";

export interface Measure {
  value: number;
  unit: string;
  text: string;
}

function clean(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function measure(value: number, unit: string): Measure {
  const v = clean(value);
  return { value: v, unit, text: `${v} ${unit}` };
}

export function productWeight(product: Product): Measure | undefined {
  const w = product.weightWithUnit;
  if (w && typeof w.value === "number" && w.value > 0 && typeof w.unit === "string" && w.unit.trim() !== "") {
    return measure(w.value, w.unit.trim().toLowerCase());
  }
  // Deprecated `weight` is in grams.
  if (typeof product.weight === "number" && product.weight > 0) return measure(product.weight, "g");
  return undefined;
}

/** The package content as sold, when it is a metric volume or mass (a multi-pack counts whole: "2 x 50 ml" is 100 ml). */
export function unitPricingMeasure(packageContent: string | null | undefined): Measure | undefined {
  return contentQuantity(packageContent)?.measure;
}
