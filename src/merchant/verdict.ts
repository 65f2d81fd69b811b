/**
 * Google's verdict on one product, from its productStatus: per country the worst of its
 * reporting contexts (disapproved > pending > approved), and the product's state for the
 * counts (disapproved when any country is). Pure; the store keeps the compact form.
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
