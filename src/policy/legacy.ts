/**
 * The eligibility switches channel files had before the table (allowPrescription, allowMedicines,
 * allowVeterinary) as rows of the channel's own: a file that sets one keeps doing what it did, and
 * explain cites the setting instead of a source.
 */
import type { PolicyRule, ProductClass } from "./schema.js";
import { mergeRules } from "./table.js";

export interface LegacySwitches {
  allowPrescription?: boolean | undefined;
  allowMedicines?: boolean | undefined;
  allowVeterinary?: boolean | undefined;
}

const MEDICINES: readonly ProductClass[] = ["pharmacy-medicine", "general-sale-medicine", "reimbursable-medicine"];

export function legacyRules(switches: LegacySwitches, channel: string, country: string): PolicyRule[] {
  const rules: PolicyRule[] = [];
  const row = (klass: ProductClass, allow: boolean, setting: string): PolicyRule => ({
    channel,
    country,
    class: klass,
    verdict: allow ? "allow" : "deny",
    source: `eligibility.${setting}`,
    rule: `the channel's eligibility.${setting} is ${allow}`,
    from: `channel setting eligibility.${setting}`,
  });
  if (switches.allowMedicines !== undefined) for (const klass of MEDICINES) rules.push(row(klass, switches.allowMedicines, "allowMedicines"));
  // allowMedicines: false always covered prescription medicines too; allowPrescription decides them when set.
  if (switches.allowMedicines === false) rules.push(row("prescription-medicine", false, "allowMedicines"));
  if (switches.allowPrescription !== undefined) rules.push(row("prescription-medicine", switches.allowPrescription, "allowPrescription"));
  if (switches.allowVeterinary !== undefined) rules.push(row("veterinary", switches.allowVeterinary, "allowVeterinary"));
  return rules;
}

/**
 * The rows a channel's products are judged by: its rows (the table's with the config's and its own
 * over them), then the rows of its legacy switches. Mapping, `pharmafeed policy` and the status
 * page all read them so.
 */
export function rulesInEffect(rows: readonly PolicyRule[], switches: LegacySwitches, channel: string, country: string): PolicyRule[] {
  return mergeRules(rows, legacyRules(switches, channel, country));
}
