/**
 * The table as `pharmafeed policy` prints it: rows (filtered by channel and country, wildcards
 * kept since they apply there too), and for one channel and country the row deciding each class.
 */
import { overdueRules } from "./check.js";
import { certificationOf, PRODUCT_CLASSES, type PolicyLimits, type PolicyRule } from "./schema.js";
import { channelRules } from "./table.js";

function limitsText(limits: PolicyLimits | undefined): string {
  if (limits === undefined) return "";
  const parts: string[] = [];
  if (limits.minAge !== undefined) parts.push(`minAge ${limits.minAge}`);
  if (limits.maxQuantity !== undefined) parts.push(`maxQuantity ${limits.maxQuantity}`);
  if (limits.legalText !== undefined) parts.push(`legalText ${limits.legalText}`);
  if (limits.bannedTerms !== undefined) parts.push(`bannedTerms ${limits.bannedTerms.join("|")}`);
  return parts.join(", ");
}

/** Rows that apply to this channel / country: its own and the "*" ones. */
export function rowsFor(rules: readonly PolicyRule[], channel?: string, country?: string): PolicyRule[] {
  return rules
    .filter((r) => (channel === undefined || r.channel === channel || r.channel === "*") && (country === undefined || r.country === country || r.country === "*"))
    .sort((a, b) => a.channel.localeCompare(b.channel) || a.country.localeCompare(b.country) || a.class.localeCompare(b.class));
}

function columns(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ").trimEnd()).join("\n");
}

export function rowsText(rules: readonly PolicyRule[], today: string): string {
  if (rules.length === 0) return "no rows";
  const due = new Set(overdueRules(rules, today));
  const head = ["channel", "country", "class", "verdict", "limits", "verified", "recheck", "source"];
  return columns([head, ...rules.map((r) => [r.channel, r.country, r.class, r.verdict, limitsText(r.limits), r.verified ?? "-", `${r.recheck ?? "-"}${due.has(r) ? " DUE" : ""}`, r.source])]);
}

/** For one channel and country: each class, the row deciding it, and whether the shop holds what it asks. */
export function decisionsText(rules: readonly PolicyRule[], channel: string, country: string, certifications: ReadonlySet<string>): string {
  const decided = channelRules(rules, channel, country);
  const lines = PRODUCT_CLASSES.map((klass) => {
    const r = decided[klass];
    if (r === undefined) return [klass, "allow", "(no row)", ""];
    const needs = certificationOf(r.verdict);
    const held = needs === undefined ? "" : certifications.has(needs) ? "held: allowed" : "not held: left out";
    return [klass, r.verdict, `${r.channel} ${r.country} ${r.class}`, [held, limitsText(r.limits)].filter((x) => x !== "").join("; ")];
  });
  return columns([["class", "verdict", "row", ""], ...lines]);
}
