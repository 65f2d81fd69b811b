/**
 * A product's health classes, from catalogue fields only (pure; computed once per product):
 *
 *   prescription: true ────────────────────────────> prescription-medicine
 *   category type medicine, no prescription ───────> pharmacy-medicine
 *   a medicine with rateOfReimbursement / reimbursementRate > 0
 *     or codeActe PH1, PH2, PH4, PH7 (France's reimbursed rates) ──> reimbursable-medicine
 *   category type medical_device, or an LPPR code on a non-medicine ──> medical-device
 *   isANutritionSupplement: true ──────────────────> food-supplement
 *   biocide: "yes" ────────────────────────────────> biocide
 *   category type veterinary_medicine ─────────────> veterinary
 *   none of these ─────────────────────────────────> other
 *
 * The catalogue does not say whether an OTC medicine is pharmacy-only or general sale (the Dutch
 * UA/UAD/AV, the German apothekenpflichtig/freiverkäuflich): every one is pharmacy-medicine, the
 * stricter; a shop's policy.generalSale rule moves the ones it knows (mapping/eligibility.ts).
 */
import type { Product } from "../catalogue/schemas/product.js";
import type { ProductClass } from "./schema.js";

/** France's codes of reimbursed pharmaceutical specialities (100 %, 15 %, 30 %, 65 %); PHN is not reimbursed. */
const REIMBURSED_ACTS = new Set(["PH1", "PH2", "PH4", "PH7"]);

function positive(n: unknown): boolean {
  return typeof n === "number" && Number.isFinite(n) && n > 0;
}

export function productClasses(product: Product): ProductClass[] {
  const types = new Set<string>();
  for (const c of product.catalogCategories ?? []) if (typeof c.type === "string") types.add(c.type);
  const classes: ProductClass[] = [];
  const prescription = product.prescription === true;
  const medicine = prescription || types.has("medicine");
  if (prescription) classes.push("prescription-medicine");
  else if (types.has("medicine")) classes.push("pharmacy-medicine");
  if (medicine && (positive(product.rateOfReimbursement) || positive(product.reimbursementRate) || REIMBURSED_ACTS.has(product.codeActe ?? ""))) {
    classes.push("reimbursable-medicine");
  }
  if (types.has("medical_device") || (!medicine && (product.lpprCode?.length ?? 0) > 0)) classes.push("medical-device");
  if (product.isANutritionSupplement === true) classes.push("food-supplement");
  if (product.biocide === "yes") classes.push("biocide");
  if (types.has("veterinary_medicine")) classes.push("veterinary");
  if (classes.length === 0) classes.push("other");
  return classes;
}
