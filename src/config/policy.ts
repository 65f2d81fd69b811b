/**
 * The health policy rows of a config (docs/policy.md): the shipped table (or `policy.table`), then
 * `policy.files`, then `policy.rows`, each replacing rows of the same channel, country and class;
 * then per channel its own `policy.rows` and the shop's certifications. Every problem is said with
 * its file and JSON path before any work.
 */
import { resolve } from "node:path";
import {
  certificationOf,
  type Loosening,
  loosenings,
  MARKETPLACES,
  mergeRules,
  type PolicyProblem,
  type PolicyRow,
  type PolicyRule,
  readPolicyDir,
  readPolicyFile,
  ruleKey,
  rowsToRules,
  rulesInEffect,
  SHIPPED_POLICY_DIR,
  whereWritten,
} from "../policy/index.js";
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
  const inEffect = new Map<LoadedChannel, PolicyRule[]>();
  for (const channel of channels) {
    const own = rowsToRules(ownRows.get(channel) ?? [], `${channel.configFile} policy.rows`, channel.configFile, "policy.rows", problems);
    const rows = mergeRules(rules, own);
    inEffect.set(channel, rows);
    for (const r of rows) {
      const needs = certificationOf(r.verdict);
      if (needs !== undefined) named.add(needs);
    }
    channel.mapping.policy.rows = rows.map((r) => ({ ...r }) as (typeof channel.mapping.policy.rows)[number]);
    channel.mapping.policy.certifications = [...certifications];
    if (generalSale !== undefined && channel.mapping.policy.generalSale === undefined) channel.mapping.policy.generalSale = generalSale;
  }
  marketplaceProblems(file, inEffect, problems);
  looseningProblems(file, inEffect, problems);
  certifications.forEach((name, i) => {
    if (channels.length > 0 && !named.has(name)) {
      problems.push({ file, path: `shop.certifications[${i}]`, message: `"${name}" is named by no allow-if-certified row of the policy table (named: ${[...named].sort().join(", ") || "none"})` });
    }
  });
}

/**
 * A marketplace only one side names matches nothing: a row for `gogle` applies to no channel, and
 * a channel whose policy.channel is `gogle` gets no marketplace's rows (Google's certification
 * rows included). A name of the table (MARKETPLACES) is always known; another one needs a channel
 * and a row that share it (a marketplace of your own).
 */
function marketplaceProblems(file: string, inEffect: ReadonlyMap<LoadedChannel, readonly PolicyRule[]>, problems: PolicyProblem[]): void {
  const known = new Set<string>(MARKETPLACES);
  const sold = new Map<string, LoadedChannel>();
  for (const channel of inEffect.keys()) if (!sold.has(channel.mapping.policy.channel)) sold.set(channel.mapping.policy.channel, channel);
  const list = MARKETPLACES.join(", ");
  const seen = new Set<PolicyRule>();
  for (const rows of inEffect.values()) {
    for (const rule of rows) {
      if (seen.has(rule) || rule.channel === "*" || known.has(rule.channel) || sold.has(rule.channel)) continue;
      seen.add(rule);
      const where = whereWritten(rule) ?? { file, path: "policy" };
      const channel = [...inEffect.keys()].find((c) => c.name === rule.channel);
      const hint = channel === undefined ? "" : ` (a row names the marketplace, not the channel: ${channel.name} is sold on ${channel.mapping.policy.channel})`;
      problems.push({ file: where.file, path: `${where.path}.channel`, message: `"${rule.channel}" is no marketplace of the policy table (${list}) and no channel's policy.channel: the row would apply to nothing${hint}` });
    }
  }
  for (const [name, channel] of sold) {
    if (known.has(name) || (inEffect.get(channel) ?? []).some((r) => r.channel === name)) continue;
    problems.push({
      file: channel.configFile,
      path: "policy.channel",
      message: `"${name}" is no marketplace of the policy table (${list}) and no row names it: the channel would get no marketplace's rows (a marketplace of your own needs rows of its own)`,
    });
  }
}

/** Rows of class `*` that would loosen a row naming a class (policy/lint.ts): one problem per row, with every class and channel it would loosen. */
function looseningProblems(file: string, inEffect: ReadonlyMap<LoadedChannel, readonly PolicyRule[]>, problems: PolicyProblem[]): void {
  const found = new Map<PolicyRule, { classes: Map<string, Loosening>; channels: Set<string> }>();
  for (const [channel, rows] of inEffect) {
    const m = channel.mapping;
    for (const l of loosenings(rulesInEffect(rows, m.eligibility, m.policy.channel, m.country), m.policy.channel, m.country)) {
      const entry = found.get(l.row) ?? { classes: new Map(), channels: new Set() };
      found.set(l.row, entry);
      if (!entry.classes.has(l.klass)) entry.classes.set(l.klass, l);
      entry.channels.add(channel.name);
    }
  }
  for (const [row, { classes, channels }] of found) {
    const where = whereWritten(row) ?? { file, path: "policy" };
    const over = [...classes.values()].map((l) => `${l.klass} over "${ruleKey(l.named)}" ${l.named.verdict}${l.named.limits ? ` (limits: ${Object.keys(l.named.limits).join(", ")})` : ""}`).join("; ");
    problems.push({
      file: where.file,
      path: where.path,
      message: `"${ruleKey(row)}" ${row.verdict} would decide ${over}, on ${[...channels].join(", ")}: a row of class * may not loosen a row that names the class. Write a row per class it should decide instead (channel, country and class), or a row for that class that says what you mean`,
    });
  }
}
