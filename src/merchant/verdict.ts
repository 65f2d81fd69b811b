/**
 * Google's verdict on one product, from its productStatus: per country the worst of its
 * reporting contexts (disapproved > pending > approved), and the product's state for the
 * counts (disapproved when any country is). Pure; the store keeps the compact form.
 *
 * Google lists an item issue once per reporting context (Shopping ads, free listings):
 * the same issue of the same product is one issue here, with its contexts, so that it is
 * counted once per product on the page, in the summary, the alerts, the CSV and explain.
 */
import type { ItemLevelIssue, ProductStatus } from "./schemas.js";

export type CountryStatus = "approved" | "pending" | "disapproved";
export type ProductState = CountryStatus | "none";

export interface CountryVerdict {
  country: string;
  status: CountryStatus;
  /** Per reporting context (SHOPPING_ADS, FREE_LISTINGS, ...). */
  contexts: Record<string, CountryStatus>;
}

const RANK: Record<CountryStatus, number> = { approved: 0, pending: 1, disapproved: 2 };

export function countriesOf(status: ProductStatus | undefined): CountryVerdict[] {
  const byCountry = new Map<string, CountryVerdict>();
  for (const d of status?.destinationStatuses ?? []) {
    const lists: [CountryStatus, string[]][] = [["approved", d.approvedCountries], ["pending", d.pendingCountries], ["disapproved", d.disapprovedCountries]];
    for (const [verdict, countries] of lists) {
      for (const country of countries) {
        const entry = byCountry.get(country) ?? { country, status: verdict, contexts: {} };
        entry.contexts[d.reportingContext] = verdict;
        if (RANK[verdict] > RANK[entry.status]) entry.status = verdict;
        byCountry.set(country, entry);
      }
    }
  }
  return [...byCountry.values()].sort((a, b) => a.country.localeCompare(b.country));
}

export function stateOf(countries: readonly CountryVerdict[], issues: readonly ItemLevelIssue[] = []): ProductState {
  if (countries.length === 0) return issues.some((i) => i.severity === "DISAPPROVED") ? "disapproved" : "none";
  return countries.reduce<CountryStatus>((worst, c) => (RANK[c.status] > RANK[worst] ? c.status : worst), "approved");
}

/** Plain words for a reporting context. */
export function contextWords(context: string): string {
  return context.toLowerCase().replace(/_/g, " ");
}

/** An item issue with every reporting context Google listed it in. */
export type ProductIssue = ItemLevelIssue & { contexts: string[] };

const SEVERITY: Record<string, number> = { DISAPPROVED: 3, DEMOTED: 2, NOT_IMPACTED: 1 };
const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])].sort();

/** One entry per issue (code and attribute): the worst severity, the union of countries and contexts. Idempotent. */
export function mergeIssues(issues: readonly (ItemLevelIssue & { contexts?: string[] })[]): ProductIssue[] {
  const byKey = new Map<string, ProductIssue>();
  for (const issue of issues) {
    const contexts = issue.contexts ?? (issue.reportingContext ? [issue.reportingContext] : []);
    const key = `${issue.code}|${issue.attribute ?? ""}`;
    const seen = byKey.get(key);
    if (!seen) {
      const { reportingContext: _one, ...rest } = issue;
      byKey.set(key, { ...rest, contexts: union(contexts, []), applicableCountries: union(issue.applicableCountries, []) });
      continue;
    }
    if ((SEVERITY[issue.severity] ?? 0) > (SEVERITY[seen.severity] ?? 0)) seen.severity = issue.severity;
    seen.contexts = union(seen.contexts, contexts);
    seen.applicableCountries = union(seen.applicableCountries, issue.applicableCountries);
  }
  return [...byKey.values()];
}
