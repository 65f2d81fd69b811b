/**
 * Whether a product may be sold on a channel at all, before any content work:
 * lifecycle (deleted, status, official deletion date) and the regulatory flags
 * (prescription, medicine, veterinary). Every applicable reason is returned,
 * lifecycle first. A missing status counts as active: records omit fields
 * freely, and a status the service adds later is STATUS_UNKNOWN, not active.
 */
import type { Product } from "../catalogue/schemas/product.js";
import type { ProductFacts } from "./facts.js";
import type { Reason } from "./reasons.js";
import type { ChannelMapping } from "./settings.js";
import type { Clock } from "./clock.js";

export function eligibility(product: Product, facts: ProductFacts, settings: ChannelMapping["eligibility"], clock: Clock): Reason[] {
  const reasons: Reason[] = [];
  if (product.deleted === true) reasons.push({ code: "DELETED" });
  switch (product.status) {
    case undefined:
    case null:
    case "active":
      break;
    case "replaced":
      reasons.push({ code: "REPLACED", detail: product.replacement ?? "no replacement id" });
      break;
    case "inactive":
      reasons.push({ code: "STATUS_INACTIVE" });
      break;
    case "no_selection":
      reasons.push({ code: "STATUS_NO_SELECTION" });
      break;
    default:
      reasons.push({ code: "STATUS_UNKNOWN", detail: product.status });
  }
  const end = product.officialDeletionAt;
  if (typeof end === "number" && Number.isFinite(end) && clock.reached(end)) {
    reasons.push({ code: "OFFICIALLY_DELETED", detail: new Date(end * 1000).toISOString().slice(0, 10) });
  }
  if (facts.prescription && !settings.allowPrescription) reasons.push({ code: "PRESCRIPTION" });
  if (facts.medicine && !settings.allowMedicines) reasons.push({ code: "MEDICINE" });
  if (facts.veterinary && !settings.allowVeterinary) reasons.push({ code: "VETERINARY" });
  return reasons;
}
