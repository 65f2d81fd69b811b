/**
 * Whether a product may be sold on a channel at all, before any content work:
 * lifecycle (deleted, status, official deletion date), then the health policy
 * table (src/policy/: the row deciding each of the product's classes on this
 * channel and country). Every applicable reason is returned, lifecycle first.
 * A missing status counts as active: records omit fields freely, and a status
 * the service adds later is STATUS_UNKNOWN, not active.
 */
import type { Product } from "../catalogue/schemas/product.js";
import { decidePolicy, deniedDetail, type PolicyCarry, type ProductClass } from "../policy/index.js";
import type { MappingContext } from "./context.js";
import { startState } from "./fields.js";
import type { CompiledChannel } from "./compile.js";
import type { ProductFacts } from "./facts.js";
import type { Reason } from "./reasons.js";
import type { Clock } from "./clock.js";

export interface Eligibility {
  reasons: Reason[];
  /** What the policy rows carry into an allowed item (policy.minAge, policy.maxQuantity). */
  carry: PolicyCarry | undefined;
}

/** The product's classes on this channel: an OTC medicine its policy.generalSale rule matches is general sale. */
function channelClasses(product: Product, facts: ProductFacts, channel: CompiledChannel, context: MappingContext | undefined): readonly ProductClass[] {
  const rule = channel.generalSale;
  const at = facts.classes.indexOf("pharmacy-medicine");
  if (rule === undefined || at < 0 || context === undefined) return facts.classes;
  // Before the item is built: only what the product and its facts say (no title, price or stock yet).
  if (!rule(startState(product, facts, channel, context, undefined))) return facts.classes;
  const classes = [...facts.classes];
  classes[at] = "general-sale-medicine";
  return classes;
}

export function eligibility(product: Product, facts: ProductFacts, channel: CompiledChannel, clock: Clock, context?: MappingContext): Eligibility {
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
  const verdict = decidePolicy(product, channelClasses(product, facts, channel, context), channel.policy, channel.certifications);
  if (!verdict.ok) reasons.push({ code: "POLICY_DENIED", detail: deniedDetail(verdict) });
  return { reasons, carry: verdict.ok ? verdict.carry : undefined };
}
