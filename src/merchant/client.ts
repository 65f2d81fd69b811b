/**
 * The Merchant API resources pharmafeed uses, over http.ts. One client per Merchant
 * Center account; `requests` counts what was sent (the figures, the quota).
 */
import { inspect } from "node:util";
import type { RetryPolicy } from "../core/retry.js";
import { TokenSource } from "./auth.js";
import { GOOGLE_API_URL, MerchantHttp, type MerchantRetry } from "./http.js";
import { readServiceAccountKey } from "./key.js";
import { productSegment, type ProductKey } from "./names.js";
import {
  AccountIssuesPage,
  type AccountIssue,
  DataSource,
  DataSourcesPage,
  Product,
  ProductsPage,
  type PushAttributes,
  QuotasPage,
  type QuotaGroup,
} from "./schemas.js";

/** products.list: "The maximum value is 1000; values above 1000 are coerced to 1000." */
export const PRODUCTS_PAGE = 1000;

export interface MerchantClientOptions {
  accountId: string;
  /** Path of the service account key file. */
  keyFile: string;
  apiUrl?: string;
  retry?: RetryPolicy;
  onRetry?: (event: MerchantRetry) => void;
  signal?: AbortSignal;
}

/** A product the API sent that does not have the shape of one: counted, never fatal. */
export interface Unreadable {
  name: string;
  why: string;
}

export class MerchantClient {
  readonly accountId: string;
  readonly tokens: TokenSource;
  readonly #http: MerchantHttp;
  readonly #signal: AbortSignal | undefined;

  private constructor(options: MerchantClientOptions, tokens: TokenSource) {
    this.accountId = options.accountId;
    this.tokens = tokens;
    this.#http = new MerchantHttp(options.apiUrl ?? GOOGLE_API_URL, tokens, options.retry, options.onRetry);
    this.#signal = options.signal;
  }

  static async open(options: MerchantClientOptions): Promise<MerchantClient> {
    return new MerchantClient(options, new TokenSource(await readServiceAccountKey(options.keyFile)));
  }

  get requests(): number {
    return this.#http.requests;
  }

  get retries(): number {
    return this.#http.retries;
  }

  get #account(): string {
    return `accounts/${this.accountId}`;
  }

  #get<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T> {
    return this.#http.call<T>("GET", path, { ...(query ? { query } : {}), ...(this.#signal ? { signal: this.#signal } : {}) });
  }

  /** Each page of a list resource, parsed, following nextPageToken to the end. */
  async *#pages<P extends { nextPageToken?: string | undefined }>(path: string, pageSize: number, schema: { parse(value: unknown): P }): AsyncGenerator<P> {
    let pageToken: string | undefined;
    do {
      const page = schema.parse(await this.#get(path, { pageSize, pageToken }));
      yield page;
      pageToken = page.nextPageToken || undefined;
    } while (pageToken);
  }

  /** Every product with its status, a page at a time (products.list). */
  async *products(pageSize = PRODUCTS_PAGE): AsyncGenerator<{ products: Product[]; unreadable: Unreadable[] }> {
    for await (const page of this.#pages(`products/v1/${this.#account}/products`, pageSize, ProductsPage)) {
      const products: Product[] = [];
      const unreadable: Unreadable[] = [];
      for (const raw of page.products) {
        const parsed = Product.safeParse(raw);
        if (parsed.success) products.push(parsed.data);
        else unreadable.push({ name: String((raw as { name?: unknown } | null)?.name ?? "?"), why: parsed.error.issues.map((i) => i.path.join(".")).join(", ") });
      }
      yield { products, unreadable };
    }
  }

  /** Account-level issues (accounts.issues.list). */
  async accountIssues(): Promise<AccountIssue[]> {
    const issues: AccountIssue[] = [];
    for await (const page of this.#pages(`accounts/v1/${this.#account}/issues`, 100, AccountIssuesPage)) issues.push(...page.accountIssues);
    return issues;
  }

  async dataSources(): Promise<DataSource[]> {
    const sources: DataSource[] = [];
    for await (const page of this.#pages(`datasources/v1/${this.#account}/dataSources`, 1000, DataSourcesPage)) sources.push(...page.dataSources);
    return sources;
  }

  /** A supplemental API data source (no file input): what productInputs.insert writes into. */
  async createSupplementalDataSource(displayName: string): Promise<DataSource> {
    const body = { displayName, supplementalProductDataSource: {} };
    return DataSource.parse(await this.#http.call("POST", `datasources/v1/${this.#account}/dataSources`, { body, ...(this.#signal ? { signal: this.#signal } : {}) }));
  }

  async quotas(): Promise<QuotaGroup[]> {
    const groups: QuotaGroup[] = [];
    for await (const page of this.#pages(`quota/v1/${this.#account}/quotas`, 100, QuotasPage)) groups.push(...page.quotaGroups);
    return groups;
  }

  /** productInputs.insert into `dataSource` (its resource name) with only `attributes`. */
  async insertProductInput(dataSource: string, key: ProductKey, attributes: PushAttributes): Promise<void> {
    await this.#http.call("POST", `products/v1/${this.#account}/productInputs:insert`, {
      query: { dataSource },
      body: { offerId: key.offerId, contentLanguage: key.contentLanguage, feedLabel: key.feedLabel, productAttributes: attributes },
      ...(this.#signal ? { signal: this.#signal } : {}),
    });
  }

  /** productInputs.delete: the product leaves this (supplemental) data source only. */
  async deleteProductInput(dataSource: string, key: ProductKey): Promise<void> {
    await this.#http.call("DELETE", `products/v1/${this.#account}/productInputs/${productSegment(key)}`, { query: { dataSource }, ...(this.#signal ? { signal: this.#signal } : {}) });
  }

  async close(): Promise<void> {
    await this.#http.close();
  }

  [inspect.custom](): string {
    return `MerchantClient { accountId: ${JSON.stringify(this.accountId)} }`;
  }
}
