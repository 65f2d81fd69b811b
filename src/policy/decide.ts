/**
 * A product's verdict on one channel (pure): each of its classes looked up in the channel's rules
 * (table.ts); left out when any says deny, asks for a certification the shop does not hold, or sets a
 * limit the product fails. The reason cites the row: its key, verdict, source and verified date.
 */
import type { Product } from "../catalogue/schemas/product.js";
import { certificationOf, type PolicyRule, type ProductClass, ruleKey } from "./schema.js";
import type { ChannelRules } from "./table.js";

/** What an allowed product carries into the item from its rows' limits. */
export interface PolicyCarry {
  minAge?: number;
  maxQuantity?: number;
}

export type PolicyVerdict = { ok: true; carry: PolicyCarry | undefined } | { ok: false; rule: PolicyRule; klass: ProductClass; why: string };

/**
 * POLICY_DENIED's detail: the product's class, the row that decided (its key may be wider than the
 * class: "google * *"), its verdict, source and verified date, then why.
 *   pharmacy-medicine: row "google BE pharmacy-medicine" deny (https://..., verified 2026-11-29): ...
 */
export function deniedDetail(verdict: Extract<PolicyVerdict, { ok: false }>): string {
  const r = verdict.rule;
  const when = r.verified === undefined ? r.from : `verified ${r.verified}`;
  return `${verdict.klass}: row "${ruleKey(r)}" ${r.verdict} (${r.source}, ${when}): ${verdict.why}`;
}

/** The row key a POLICY_DENIED detail names (deniedDetail), for counting products per row. */
export function deniedRowKey(detail: string | undefined): string | undefined {
  return detail === undefined ? undefined : /^[a-z-]+: row "([^"]+)"/.exec(detail)?.[1];
}

/** A term as a whole word (letters and digits of any script around it do not count), compiled once. */
const TERMS = new Map<string, RegExp>();
function termPattern(term: string): RegExp {
  let pattern = TERMS.get(term);
  if (pattern === undefined) {
    pattern = new RegExp(`(^|[^\\p{L}\\p{N}])${term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}\\p{N}])`, "iu");
    TERMS.set(term, pattern);
  }
  return pattern;
}

function nameHas(product: Product, terms: readonly string[]): string | undefined {
  const names: string[] = [];
  const name = product.name;
  if (typeof name === "string") names.push(name);
  else if (name !== null && name !== undefined) for (const v of Object.values(name)) if (typeof v === "string") names.push(v);
  for (const term of terms) {
    const pattern = termPattern(term);
    if (names.some((n) => pattern.test(n))) return term;
  }
  return undefined;
}

export function decidePolicy(product: Product, classes: readonly ProductClass[], rules: ChannelRules, certifications: ReadonlySet<string>): PolicyVerdict {
  let carry: PolicyCarry | undefined;
  for (const klass of classes) {
    const rule = rules[klass];
    // No row at all: the table has none for this class anywhere (load.ts ships a * * * row), so nothing forbids it.
    if (rule === undefined) continue;
    const denied = (why: string): PolicyVerdict => ({ ok: false, rule, klass, why });
    if (rule.verdict === "deny") return denied(rule.rule);
    const needs = certificationOf(rule.verdict);
    if (needs !== undefined && !certifications.has(needs)) return denied(`needs the certification ${needs}, which shop.certifications does not list`);
    const limits = rule.limits;
    if (limits === undefined) continue;
    if (limits.legalText === "deny" && product.requiresLegalText === true) return denied("the product requires a legal text, which the channel's ads cannot carry (limits.legalText)");
    const quantity = product.maximumDispenseQuantity;
    const hasQuantity = typeof quantity === "number" && Number.isFinite(quantity) && quantity > 0;
    if (limits.maxQuantity === "require" && !hasQuantity) return denied("the catalogue gives no maximumDispenseQuantity, which the row requires (limits.maxQuantity)");
    if (limits.bannedTerms !== undefined) {
      const term = nameHas(product, limits.bannedTerms);
      if (term !== undefined) return denied(`the name contains "${term}" (limits.bannedTerms)`);
    }
    if (limits.minAge !== undefined) (carry ??= {}).minAge = Math.max(carry?.minAge ?? 0, limits.minAge);
    if (limits.maxQuantity !== undefined && hasQuantity) (carry ??= {}).maxQuantity = quantity;
  }
  return { ok: true, carry };
}
