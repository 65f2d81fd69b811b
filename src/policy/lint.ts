/**
 * A row that would loosen the table without saying so. The most specific row decides
 * (table.ts), and a row whose class is `*` is specific in its marketplace and country: `google FR
 * * allow`, written to allow "the rest", would also decide prescription medicines over `* FR
 * prescription-medicine deny` and OTC medicines over the certification France asks for. So a row
 * of class `*` may decide a class only where it is at least as strict as the row that names that
 * class (the one that would decide without the `*` rows); config/policy.ts refuses it otherwise,
 * naming both rows, when the config loads (docs/policy.md, "Which row decides").
 */
import { certificationOf, PRODUCT_CLASSES, type PolicyRule, type ProductClass } from "./schema.js";
import { channelRules } from "./table.js";

/** deny > allow-if-certified > allow. */
function strictness(verdict: string): number {
  return verdict === "deny" ? 2 : verdict === "allow" ? 0 : 1;
}

/** Whether `row` lets through something `named` (a row naming the class) keeps out: a weaker verdict, another certification, a limit dropped or changed. */
function loosens(row: PolicyRule, named: PolicyRule): boolean {
  const [a, b] = [strictness(row.verdict), strictness(named.verdict)];
  // A deny lets nothing through; a stricter verdict may still drop the named row's limits.
  if (a === 2) return false;
  if (a < b) return true;
  if (a === b && certificationOf(row.verdict) !== certificationOf(named.verdict)) return true;
  const limits: Record<string, unknown> = { ...row.limits };
  return Object.entries(named.limits ?? {}).some(([key, value]) => JSON.stringify(limits[key]) !== JSON.stringify(value));
}

export interface Loosening {
  /** The row of class `*` that decides. */
  row: PolicyRule;
  klass: ProductClass;
  /** The row naming the class that would decide without it. */
  named: PolicyRule;
}

/** The classes a `*` row decides on this marketplace and country over a stricter row naming them (`rows`: every row in effect for the channel). */
export function loosenings(rows: readonly PolicyRule[], marketplace: string, country: string): Loosening[] {
  const decided = channelRules(rows, marketplace, country);
  const named = channelRules(
    rows.filter((r) => r.class !== "*"),
    marketplace,
    country,
  );
  const out: Loosening[] = [];
  for (const klass of PRODUCT_CLASSES) {
    const row = decided[klass];
    const over = named[klass];
    if (row !== undefined && over !== undefined && row.class === "*" && loosens(row, over)) out.push({ row, klass, named: over });
  }
  return out;
}
