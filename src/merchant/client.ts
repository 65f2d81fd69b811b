/**
 * The Merchant API resources pharmafeed uses, over http.ts. One client per Merchant
 * Center account; `requests` counts what was sent (the figures, the quota).
 */
import { inspect } from "node:util";
import type { RetryPolicy } from "../core/retry.js";
import { formatIssue } from "../core/issues.js";
import { PharmafeedError } from "../errors.js";
import { TokenSource } from "./auth.js";
import { GOOGLE_API_URL, MerchantHttp, type MerchantRetry, oneLine } from "./http.js";
import { readServiceAccountKey } from "./key.js";
import { DEFAULT_LIMITS, type MerchantLimits } from "./limits.js";
import { productSegment, type ProductKey } from "./names.js";
import {
  AccountIssuesPage,
  type AccountIssue,
  DataSource,
  type DataSourceReference,
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
  /** Caps on what Google may take of a run (limits.ts); tests lower them. */
  limits?: Partial<MerchantLimits>;
}

/** The reply, or one line saying where it differs from what the reference describes (never zod's JSON). */
function parseAs<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly unknown[] } } }, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues as Parameters<typeof formatIssue>[0][];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  throw new PharmafeedError("MERCHANT_HTTP", `${what}: the reply does not have the shape Google's reference gives: ${oneLine(formatIssue(issues[0]!, value), 200)}${more}`);
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
  readonly limits: MerchantLimits;

  private constructor(options: MerchantClientOptions, tokens: TokenSource, limits: MerchantLimits) {
    this.accountId = options.accountId;
    this.tokens = tokens;
    this.limits = limits;
    this.#http = new MerchantHttp(options.apiUrl ?? GOOGLE_API_URL, tokens, options.retry, options.onRetry, limits);
    this.#signal = options.signal;
  }

  static async open(options: MerchantClientOptions): Promise<MerchantClient> {
    const limits = { ...DEFAULT_LIMITS, ...options.limits };
    return new MerchantClient(options, new TokenSource(await readServiceAccountKey(options.keyFile), Date.now, limits.requestTimeoutMs), limits);
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

  /**
   * Each page of a list resource, parsed, following nextPageToken to the end. A token seen
   * before would loop forever (once 150,000 requests in a minute): the list stops there, as
   * it does past maxPages, with an error that says so.
   */
  async *#pages<P extends { nextPageToken?: string | undefined }>(path: string, pageSize: number, schema: Parameters<typeof parseAs<P>>[0]): AsyncGenerator<P> {
    const seen = new Set<string>();
    let pageToken: string | undefined;
    let pages = 0;
    do {
      if (pages >= this.limits.maxPages) throw new PharmafeedError("MERCHANT_HTTP", `GET /${path}: more than ${this.limits.maxPages} pages: stopped there (the cap of a list)`);
      const page = parseAs(schema, await this.#get(path, { pageSize, pageToken }), `GET /${path} (page ${pages + 1})`);
      pages++;
      yield page;
      pageToken = page.nextPageToken || undefined;
      if (pageToken !== undefined && seen.has(pageToken)) {
        throw new PharmafeedError("MERCHANT_HTTP", `GET /${path}: page ${pages} sent a nextPageToken already followed (${oneLine(pageToken, 40)}): the list would never end; stopped`);
      }
      if (pageToken !== undefined) seen.add(pageToken);
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

  /** developerRegistration.registerGcp: links the key's Cloud project to the account (once; the caller needs ADMIN access). */
  async registerGcp(developerEmail: string): Promise<void> {
    await this.#http.call("POST", `accounts/v1/${this.#account}/developerRegistration:registerGcp`, { body: { developerEmail }, ...(this.#signal ? { signal: this.#signal } : {}) });
  }

  /** A supplemental API data source (no file input): what productInputs.insert writes into. */
  async createSupplementalDataSource(displayName: string): Promise<DataSource> {
    const body = { displayName, supplementalProductDataSource: {} };
    return parseAs(DataSource, await this.#http.call("POST", `datasources/v1/${this.#account}/dataSources`, { body, ...(this.#signal ? { signal: this.#signal } : {}) }), "dataSources.create");
  }

  /**
   * Replaces a primary data source's default rule (dataSources.patch with the update mask
   * Google's own sample uses): what links a supplemental source, so that its values count.
   */
  async setDefaultRule(primary: string, takeFromDataSources: DataSourceReference[]): Promise<DataSource> {
    const body = { name: primary, primaryProductDataSource: { defaultRule: { takeFromDataSources } } };
    const path = `datasources/v1/${primary}`;
    const reply = await this.#http.call("PATCH", path, { query: { updateMask: "primaryProductDataSource.defaultRule" }, body, ...(this.#signal ? { signal: this.#signal } : {}) });
    return parseAs(DataSource, reply, "dataSources.patch");
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
