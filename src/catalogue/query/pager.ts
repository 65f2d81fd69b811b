/**
 * Query endpoints: every page of a paged query (`PageStream`), or the whole
 * result of an unpaged one (`listAll`). Records are validated one by one: a bad
 * one is a counted rejection, not a failed page. Parts of a split identifier
 * list are read one after the other, each record delivered once.
 */
import type { z } from "zod";
import { PharmafeedError } from "../../errors.js";
import type { RetryPolicy } from "../../core/retry.js";
import { Failure } from "../http/failure.js";
import { RetryBudget } from "../http/retry.js";
import type { Transport } from "../http/transport.js";
import { QueryResponse } from "../schemas/envelopes.js";
import { emptyStats, recordRejection, type EventListener, type ReadStats } from "../stream/events.js";
import { checkRecord, type Rejection } from "../stream/line.js";
import { postJson } from "./read-json.js";
import { RESULT_WINDOW, type ResourceDef } from "./resources.js";
import type { PageSize } from "./filter-kit.js";

export interface Page<T> {
  /** Zero-based page number within its part. */
  no: number;
  /** Offset of the page's first record within its part's result. */
  offset: number;
  /** meta.total of the part. */
  total: number;
  results: T[];
  rejections: Rejection[];
}

export interface ListResult<T> {
  total: number;
  results: T[];
  rejections: Rejection[];
  stats: ReadStats;
}

export interface QueryPlan {
  def: ResourceDef;
  /** Body without `page`, one per part. */
  bodies: Record<string, unknown>[];
  policy: RetryPolicy;
  onEvent: EventListener;
  signal: AbortSignal | undefined;
}

class Reader {
  readonly stats: ReadStats = emptyStats();
  readonly #seen: Set<unknown> | undefined;

  constructor(
    readonly transport: Transport,
    readonly plan: QueryPlan,
  ) {
    this.stats.parts = plan.bodies.length;
    this.#seen = plan.bodies.length > 1 ? new Set() : undefined;
  }

  async fetch(body: Record<string, unknown>, firstIndex: number): Promise<{ total: number; results: unknown[]; rejections: Rejection[] }> {
    const { def, policy, onEvent, signal } = this.plan;
    const endpoint = `${def.path}/query`;
    const operation = this.transport.describe(endpoint);
    const budget = new RetryBudget(operation, policy, (retry) => {
      this.stats.retries++;
      onEvent({ type: "retry", retry });
    });
    const json = await postJson(this.transport, endpoint, body, budget, signal, () => this.stats.requests++);
    const parsed = QueryResponse.safeParse(json);
    if (!parsed.success) {
      throw new Failure("parse", `not a query response: ${parsed.error.issues[0]?.message ?? "unexpected shape"}`).toError(operation, budget.total);
    }
    const results: unknown[] = [];
    const rejections: Rejection[] = [];
    parsed.data.results.forEach((item, i) => {
      const index = firstIndex + i;
      const checked = checkRecord(def.record as z.ZodType, item, index + 1, index, `results[${i}]`);
      if (!checked.ok) {
        rejections.push(checked.reason);
        recordRejection(this.stats, checked.reason, onEvent);
        return;
      }
      if (this.#seen) {
        const id = (checked.value as { id?: unknown }).id;
        if (this.#seen.has(id)) {
          this.stats.duplicates++;
          return;
        }
        this.#seen.add(id);
      }
      this.stats.records++;
      results.push(checked.value);
    });
    return { total: parsed.data.meta.total, results, rejections };
  }
}

/** Async iterator over every page of a paged query, stopping on meta.total. */
export class PageStream<T> implements AsyncIterable<Page<T>> {
  readonly #reader: Reader;
  readonly #size: PageSize;
  #total: number | undefined;

  constructor(transport: Transport, plan: QueryPlan, size: PageSize) {
    this.#reader = new Reader(transport, plan);
    this.#size = size;
  }

  get stats(): ReadStats {
    return this.#reader.stats;
  }

  /** meta.total of the first part, once its first page arrived. */
  get total(): number | undefined {
    return this.#total;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Page<T>> {
    const { def, onEvent } = this.#reader.plan;
    for (const body of this.#reader.plan.bodies) {
      for (let no = 0; ; no++) {
        const offset = no * this.#size;
        if (def.windowed && offset >= RESULT_WINDOW) {
          throw new PharmafeedError(
            "RESULT_WINDOW",
            `${def.path}/query cannot read past ${RESULT_WINDOW} results (page ${no} of size ${this.#size}): use POST /v4/${def.path}/stream (client.stream${def.path === "products" ? "Products" : "Media"}) for the whole result`,
            { context: { resource: def.path, page: no } },
          );
        }
        const page = await this.#reader.fetch({ ...body, page: { no, size: this.#size } }, offset);
        if (this.#total === undefined) {
          this.#total = page.total;
          onEvent({ type: "total", total: page.total });
        }
        yield { no, offset, total: page.total, results: page.results as T[], rejections: page.rejections };
        const reached = offset + this.#size;
        // A windowed total of 10,000 or more may be cut by the service: go on, so the window check speaks.
        const complete = reached >= page.total && !(def.windowed && page.total >= RESULT_WINDOW);
        if (complete || (page.results.length === 0 && page.rejections.length === 0)) break;
      }
    }
  }
}

/** An unpaged query: all results in one response per part. */
export async function listAll<T>(transport: Transport, plan: QueryPlan): Promise<ListResult<T>> {
  const reader = new Reader(transport, plan);
  let total = 0;
  const results: T[] = [];
  const rejections: Rejection[] = [];
  for (const body of plan.bodies) {
    const part = await reader.fetch(body, 0);
    total += part.total;
    for (const item of part.results) results.push(item as T);
    rejections.push(...part.rejections);
  }
  plan.onEvent({ type: "total", total });
  return { total: plan.bodies.length > 1 ? results.length : total, results, rejections, stats: reader.stats };
}
