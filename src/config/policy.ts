/**
 * The health policy rows of a config (docs/policy.md): the shipped table (or `policy.table`), then
 * `policy.files`, then `policy.rows`, each replacing rows of the same channel, country and class;
 * then per channel its own `policy.rows` and the shop's certifications. Every problem is said with
 * its file and JSON path before any work.
 */
import { resolve } from "node:path";
import { certificationOf, mergeRules, type PolicyProblem, type PolicyRow, type PolicyRule, readPolicyDir, readPolicyFile, rowsToRules, SHIPPED_POLICY_DIR } from "../policy/index.js";
import type { Rule } from "../mapping/rules.js";
import type { MainConfig } from "./schema.js";
import type { LoadedChannel } from "./types.js";

export async function loadPolicyRules(file: string, base: string, policy: MainConfig["policy"], problems: PolicyProblem[]): Promise<PolicyRule[]> {
  const tableDir = policy.table === undefined ? SHIPPED_POLICY_DIR : resolve(base, policy.table);
  const table = await readPolicyDir(tableDir, problems, (name) => (policy.table === undefined ? `config/policy/${name}` : resolve(tableDir, name)));
  const files: PolicyRule[][] = [];
  for (const name of policy.files) files.push(await readPolicyFile(resolve(base, name), problems));
  const own = rowsToRules(policy.rows, `${file} policy.rows`, file, "policy.rows", problems);
  return mergeRules(table, ...files, own);
}

/** Gives each channel its rows in effect and the shop's certifications; a certification no row names is refused (a typo allows nothing). */
export function applyPolicy(
  file: string,
  rules: readonly PolicyRule[],
  channels: readonly LoadedChannel[],
  certifications: readonly string[],
  ownRows: ReadonlyMap<LoadedChannel, readonly PolicyRow[]>,
  problems: PolicyProblem[],
  generalSale?: Rule,
): void {
  const named = new Set<string>();
  for (const channel of channels) {
    const own = rowsToRules(ownRows.get(channel) ?? [], `${channel.configFile} policy.rows`, channel.configFile, "policy.rows", problems);
    const rows = mergeRules(rules, own);
    for (const r of rows) {
      const needs = certificationOf(r.verdict);
      if (needs !== undefined) named.add(needs);
    }
    channel.mapping.policy.rows = rows.map((r) => ({ ...r }) as (typeof channel.mapping.policy.rows)[number]);
    channel.mapping.policy.certifications = [...certifications];
    if (generalSale !== undefined && channel.mapping.policy.generalSale === undefined) channel.mapping.policy.generalSale = generalSale;
  }
  certifications.forEach((name, i) => {
    if (channels.length > 0 && !named.has(name)) {
      problems.push({ file, path: `shop.certifications[${i}]`, message: `"${name}" is named by no allow-if-certified row of the policy table (named: ${[...named].sort().join(", ") || "none"})` });
    }
  });
}
