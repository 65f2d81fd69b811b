/**
 * The Catalogue API v4 client (the SDK's entry point).
 *
 *   options --> Transport (undici Pool, Basic auth, User-Agent, shared limiter)
 *   request body --> validate (QUERY_INVALID) --> split ids > 1000 --> parts
 *   parts --> RecordStream (streams) | PageStream / listAll (queries)
 *
 * Every call validates its body before any request; every read reports
 * stats and events (rejections, retries, resumes).
 */
import { inspect } from "node:util";
import { PharmafeedError } from "../errors.js";
import { RetryBudget } from "./http/retry.js";
import { Transport } from "./http/transport.js";
import { parseSourceOptions, type SourceOptions, type SourceOptionsInput } from "./options.js";
import type { PageSize } from "./query/filter-kit.js";
import { listAll, PageStream, type ListResult } from "./query/pager.js";
import { postJson } from "./query/read-json.js";
import {
  RESOURCES,
  type FilterFor,
  type RecordOf,
  type ResourceDef,
  type ResourceName,
  type SortingFor,
  type StreamResourceName,
} from "./query/resources.js";
import { splitIdentifiers } from "./query/split.js";
import { validateQueryBody, type BodyKind } from "./query/validate.js";
import type { MediaItem } from "./schemas/media.js";
import type { Product } from "./schemas/product.js";
import { CreateOrganizationRequest, CreateUserRequest } from "./schemas/requests.js";
import type { EventListener } from "./stream/events.js";
import { RecordStream } from "./stream/record-stream.js";
import type { z } from "zod";

export interface ReadOptions {
  signal?: AbortSignal;
  /** Rejections, retries, resumes and the total, as they happen. */
  onEvent?: EventListener;
}

export interface StreamOptions<R extends StreamResourceName> extends ReadOptions {
  filter: FilterFor<R>;
  sorting: SortingFor<R>;
}

export interface QueryOptions<R extends ResourceName> extends ReadOptions {
  filter?: FilterFor<R>;
  sorting?: SortingFor<R>;
  /** 10, 50, 100 or 250 (default 100). */
  pageSize?: PageSize;
}

export interface ListOptions<R extends ResourceName> extends ReadOptions {
  filter?: FilterFor<R>;
  sorting?: SortingFor<R>;
}

export interface ClientExtras {
  /** Default listener for every read of this client (a call's own onEvent wins). */
  onEvent?: EventListener;
}

const noop: EventListener = () => {};

function sortIdsBy(sorting: unknown): "ASC" | "DESC" | undefined {
  const id = (sorting as { id?: unknown } | undefined)?.id;
  return id === "ASC" || id === "DESC" ? id : undefined;
}

export class CatalogueClient {
  readonly #transport: Transport;
  readonly #options: SourceOptions;
  readonly #onEvent: EventListener;

  constructor(options: SourceOptionsInput | SourceOptions, extras: ClientExtras = {}) {
    this.#options = parseSourceOptions(options);
    this.#transport = new Transport(this.#options);
    this.#onEvent = extras.onEvent ?? noop;
  }

  get baseUrl(): string {
    return this.#transport.baseUrl;
  }

  get keyId(): string {
    return this.#transport.keyId;
  }

  get userAgent(): string {
    return this.#transport.userAgent;
  }

  /** Every product matching `filter`, in `sorting` order, validated (products/stream). */
  streamProducts(options: StreamOptions<"products">): RecordStream<Product> {
    return this.#stream("products", options);
  }

  /** Every media item matching `filter` (media/stream). */
  streamMedia(options: StreamOptions<"media">): RecordStream<MediaItem> {
    return this.#stream("media", options);
  }

  /** Every page of a query (products and media stop at the 10,000 window: RESULT_WINDOW). */
  queryAll<R extends ResourceName>(resource: R, options: QueryOptions<R> = {}): PageStream<RecordOf<R>> {
    const def = this.#def(resource);
    const size = options.pageSize ?? 100;
    const body = this.#body(options);
    // Validated with a first page, so that a bad page size is refused here too.
    validateQueryBody(def, "query", { ...body, page: { no: 0, size } });
    return new PageStream(this.#transport, this.#plan(def, body, options), size);
  }

  /** An unpaged query: the whole result in one response (per 1000 identifiers). */
  async list<R extends ResourceName>(resource: R, options: ListOptions<R> = {}): Promise<ListResult<RecordOf<R>>> {
    const def = this.#def(resource);
    if (def.body.page === "required") {
      throw new PharmafeedError("QUERY_INVALID", `${def.path}/query requires paging: use queryAll() or stream${def.path === "products" ? "Products" : "Media"}()`);
    }
    const body = this.#body(options);
    validateQueryBody(def, "query", body);
    return listAll(this.#transport, this.#plan(def, body, options));
  }

  brands(options?: ListOptions<"brands">) {
    return this.list("brands", options);
  }
  productFamilies(options?: ListOptions<"product-families">) {
    return this.list("product-families", options);
  }
  activeIngredients(options?: ListOptions<"active-ingredients">) {
    return this.list("active-ingredients", options);
  }
  publicCategories(options?: ListOptions<"public-categories">) {
    return this.list("public-categories", options);
  }
  catalogCategories(options?: ListOptions<"catalog-categories">) {
    return this.list("catalog-categories", options);
  }
  organizations(options?: ListOptions<"organizations">) {
    return this.list("organizations", options);
  }
  updates(options?: ListOptions<"updates">) {
    return this.list("updates", options);
  }
  corrections(options?: ListOptions<"corrections">) {
    return this.list("corrections", options);
  }
  users(options?: ListOptions<"users">) {
    return this.list("users", options);
  }

  /** users/create (restricted by subscription). Resolves with the response body as sent (not documented). */
  createUser(body: CreateUserRequest, options: ReadOptions = {}): Promise<unknown> {
    return this.#create("users/create", CreateUserRequest, body, options);
  }

  /** organizations/create (restricted by subscription). */
  createOrganization(body: CreateOrganizationRequest, options: ReadOptions = {}): Promise<unknown> {
    return this.#create("organizations/create", CreateOrganizationRequest, body, options);
  }

  /** Closes the connections (waits for requests in flight). */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  toString(): string {
    return `CatalogueClient(${this.baseUrl}, key ${this.keyId})`;
  }

  [inspect.custom](): string {
    return `CatalogueClient { baseUrl: ${JSON.stringify(this.baseUrl)}, keyId: ${JSON.stringify(this.keyId)} }`;
  }

  #def(resource: ResourceName): ResourceDef {
    const def = (RESOURCES as Record<string, ResourceDef>)[resource];
    if (!def) throw new PharmafeedError("QUERY_INVALID", `unknown resource ${JSON.stringify(resource)}; known: ${Object.keys(RESOURCES).join(", ")}`);
    return def;
  }

  #body(options: { filter?: unknown; sorting?: unknown }): Record<string, unknown> {
    const body: Record<string, unknown> = {};
    if (options.filter !== undefined) body.filter = options.filter;
    if (options.sorting !== undefined) body.sorting = options.sorting;
    return body;
  }

  #plan(def: ResourceDef, body: Record<string, unknown>, options: ReadOptions) {
    return {
      def,
      bodies: this.#parts(def, body),
      policy: this.#options.retry,
      onEvent: options.onEvent ?? this.#onEvent,
      signal: options.signal,
    };
  }

  /** The body, or one body per chunk of an identifier list over the limit. */
  #parts(def: ResourceDef, body: Record<string, unknown>): Record<string, unknown>[] {
    if (body.filter === undefined) return [body];
    const split = splitIdentifiers(body.filter, def.identifierFilters, { sortIdsBy: sortIdsBy(body.sorting) });
    if (!split.ok) throw new PharmafeedError("QUERY_INVALID", `${def.path}: ${split.path}: ${split.reason}`, { context: { path: split.path } });
    return split.value.filters.map((filter) => ({ ...body, filter }));
  }

  #stream<R extends StreamResourceName>(resource: R, options: StreamOptions<R>): RecordStream<RecordOf<R>> {
    const def = this.#def(resource);
    const kind: BodyKind = "stream";
    const body = this.#body(options);
    validateQueryBody(def, kind, body);
    const plan = this.#plan(def, body, options);
    return new RecordStream(this.#transport, {
      endpoint: `${def.path}/stream`,
      bodies: plan.bodies,
      schema: def.record as z.ZodType<RecordOf<R>>,
      policy: plan.policy,
      onEvent: plan.onEvent,
      signal: plan.signal,
    });
  }

  async #create(endpoint: string, schema: z.ZodType, body: unknown, options: ReadOptions): Promise<unknown> {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue?.path.map(String).join(".") || "(body)";
      throw new PharmafeedError("QUERY_INVALID", `${endpoint}: ${path}: ${issue?.message ?? "invalid body"}`, { context: { path } });
    }
    const onEvent = options.onEvent ?? this.#onEvent;
    // Creating twice is worse than failing: only what surely never reached the server is repeated.
    const budget = new RetryBudget(this.#transport.describe(endpoint), this.#options.retry, (retry) => onEvent({ type: "retry", retry }), true);
    return postJson(this.#transport, endpoint, parsed.data, budget, options.signal, () => {});
  }
}

/** Creates a client; options are parsed (CONFIG_INVALID on a bad value, never echoing the secret). */
export function createCatalogueClient(options: SourceOptionsInput | SourceOptions, extras?: ClientExtras): CatalogueClient {
  return new CatalogueClient(options, extras);
}
