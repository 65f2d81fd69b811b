/**
 * The fake Merchant Center account: products with statuses, supplemental inputs, data
 * sources, account issues and quotas. Tests arrange it directly; the server reads it.
 */
import type { AccountIssue, DataSourceReference, ItemLevelIssue } from "../schemas.js";

export interface FakeStatus {
  approvedCountries?: string[];
  pendingCountries?: string[];
  disapprovedCountries?: string[];
  issues?: Partial<ItemLevelIssue>[];
}

export interface FakeProduct {
  offerId: string;
  contentLanguage: string;
  feedLabel: string;
  productAttributes: Record<string, unknown>;
  status: FakeStatus;
}

export interface FakeInput {
  offerId: string;
  contentLanguage: string;
  feedLabel: string;
  productAttributes: Record<string, unknown>;
}

export interface FakeDataSource {
  name: string;
  dataSourceId: string;
  displayName: string;
  input: "API" | "FILE";
  supplemental: boolean;
  /** A primary source's default rule: Google takes each attribute from the first source listed that has it. */
  defaultRule?: DataSourceReference[];
  /** A primary source for one feed label and language (both unset: any). */
  feedLabel?: string;
  contentLanguage?: string;
}

export interface FakeQuota {
  group: string;
  methods: string[];
  limit: number;
  minuteLimit: number;
  usage: number;
}

export class FakeAccount {
  /** developerRegistration.registerGcp was called (until then every call is 401). */
  registered = true;
  readonly products: FakeProduct[] = [];
  readonly dataSources: FakeDataSource[] = [{ name: "", dataSourceId: "1000", displayName: "Nightly feed file", input: "FILE", supplemental: false, defaultRule: [{ self: true }] }];
  /** Supplemental inputs by data source name, then product key (language~label~offer). */
  readonly inputs = new Map<string, Map<string, FakeInput>>();
  issues: AccountIssue[] = [];
  readonly quotas: FakeQuota[] = [
    { group: "products", methods: ["products.list", "products.get", "productinputs.insert", "productinputs.delete"], limit: 1_000_000, minuteLimit: 100_000, usage: 0 },
    { group: "accounts", methods: ["accounts.issues.list", "quotas.list", "datasources.list", "datasources.create", "datasources.patch"], limit: 100_000, minuteLimit: 1000, usage: 0 },
  ];
  registeredEmail: string | undefined;

  constructor(readonly id: string) {
    this.dataSources[0]!.name = `accounts/${id}/dataSources/1000`;
  }

  /** Adds products approved in `country` unless `status` says otherwise. */
  add(offerIds: readonly string[], options: { contentLanguage?: string; feedLabel?: string; status?: (offerId: string, i: number) => FakeStatus } = {}): void {
    offerIds.forEach((offerId, i) => {
      const feedLabel = options.feedLabel ?? "FR";
      this.products.push({
        offerId,
        contentLanguage: options.contentLanguage ?? "fr",
        feedLabel,
        productAttributes: { title: `Product ${offerId}`, price: { amountMicros: "9990000", currencyCode: "EUR" }, availability: "IN_STOCK", gtins: [] },
        status: options.status?.(offerId, i) ?? { approvedCountries: [feedLabel] },
      });
    });
  }

  /** The primary data source (the nightly file). */
  get primary(): FakeDataSource {
    return this.dataSources.find((d) => !d.supplemental)!;
  }

  quotaFor(method: string): FakeQuota | undefined {
    return this.quotas.find((q) => q.methods.includes(method));
  }
}

/** An issue as Google words one (description, detail, documentation link). */
export function disapproval(code: string, attribute: string, description: string, countries: string[]): Partial<ItemLevelIssue> {
  return {
    code,
    severity: "DISAPPROVED",
    resolution: "merchant_action",
    attribute,
    reportingContext: "SHOPPING_ADS",
    description,
    detail: `${description} [${attribute}]`,
    documentation: `https://support.google.com/merchants/answer/${6324000 + code.length}`,
    applicableCountries: countries,
  };
}
