/**
 * products/stream and media/stream as an async iterable of validated records.
 *
 *   request --> body chunks --> LineSplitter --> envelope (index) --> schema --> record
 *      ^                                             |
 *      +---- cut mid-way: same body again, lines with index < watermark skipped
 *
 * The body is pulled chunk by chunk as the consumer asks for records, so memory
 * holds one chunk and one line whatever the size of the catalogue, and a slow
 * consumer slows the socket (undici pauses the body timeout meanwhile).
 *
 * `lines()` hands out the lines themselves, as bytes, for a consumer that decodes,
 * parses and validates them elsewhere (generate's worker threads): only the
 * envelope's index is read here, from the line's first bytes, so that a cut
 * stream still resumes where it stopped. Such a consumer reports the lines it refused with
 * `reject()`, so that the stats stay those of the records.
 */
import type { z } from "zod";
import { release, type Transport } from "../http/transport.js";
import { RetryBudget, type RetryEvent } from "../http/retry.js";
import type { RetryPolicy } from "../../core/retry.js";
import { Failure } from "../http/failure.js";
import { emptyStats, recordRejection, type EventListener, type ReadStats } from "./events.js";
import { ChunkReader } from "./chunks.js";
import { IdSet } from "./id-set.js";
import { checkRecord, idKey, peekEnvelope, readEnvelope, type Rejection } from "./line.js";
import { isBlankBytes, LineSplitter } from "./ndjson.js";

export interface StreamPlan<T> {
  endpoint: string;
  /** One body per part (several when an identifier list was split). */
  bodies: unknown[];
  schema: z.ZodType<T>;
  policy: RetryPolicy;
  onEvent: EventListener;
  signal: AbortSignal | undefined;
}

/**
 * A stream line not decoded yet: its UTF-8 bytes (a view of the response's chunk:
 * copy what must outlive the next line), its 1-based line number in the body,
 * its envelope.
 */
export interface RawLine {
  bytes: Buffer;
  line: number;
  index: number;
  total: number;
}

export class RecordStream<T> implements AsyncIterable<T> {
  readonly stats: ReadStats = emptyStats();
  #total: number | undefined;
  #started = false;
  readonly #transport: Transport;
  readonly #plan: StreamPlan<T>;

  constructor(transport: Transport, plan: StreamPlan<T>) {
    this.#transport = transport;
    this.#plan = plan;
    this.stats.parts = plan.bodies.length;
  }

  /**
   * `meta.total` of the result, known once the first line arrived (0 after a 204).
   * For a split query, the sum over the parts started so far: an upper bound when parts overlap.
   */
  get total(): number | undefined {
    return this.#total;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.#iterate(false) as AsyncIterator<T>;
  }

  /** The lines, unparsed (see the top of this file); iterable once, like the records. */
  lines(): AsyncIterable<RawLine> {
    return { [Symbol.asyncIterator]: () => this.#iterate(true) as AsyncIterator<RawLine> };
  }

  /** A line handed out by lines() that its consumer refused: counted as a rejection, not a record. */
  reject(rejection: Rejection): void {
    this.stats.records--;
    recordRejection(this.stats, rejection, this.#plan.onEvent);
  }

  #iterate(raw: boolean): AsyncIterator<T | RawLine> {
    if (this.#started) throw new Error("a RecordStream can be iterated only once");
    this.#started = true;
    // One part (the usual case) is iterated directly: one async generator per record, not two.
    if (this.#plan.bodies.length === 1) return this.#part(this.#plan.bodies[0], 0, undefined, raw);
    return this.#parts(raw);
  }

  async *#parts(raw: boolean): AsyncGenerator<T | RawLine> {
    const seen = new Set<unknown>();
    let totalBefore = 0;
    for (const body of this.#plan.bodies) {
      yield* this.#part(body, totalBefore, seen, raw);
      totalBefore = this.#total ?? totalBefore;
    }
  }

  #setTotal(total: number): void {
    if (this.#total === total) return;
    this.#total = total;
    this.#plan.onEvent({ type: "total", total });
  }

  /**
   * One part: requests (again after a cut) until every index of its result was
   * handled. `seen`: ids already delivered by earlier parts of a split query.
   * `raw`: yield lines (parsed here only when the index cannot be peeked or ids must be compared).
   */
  async *#part(body: unknown, totalBefore: number, seen: Set<unknown> | undefined, raw: boolean): AsyncGenerator<T | RawLine> {
    const { endpoint, schema, policy, onEvent, signal } = this.#plan;
    const onRetry = (retry: RetryEvent) => {
      this.stats.retries++;
      onEvent({ type: "retry", retry });
    };
    const budget = new RetryBudget(this.#transport.describe(endpoint), policy, onRetry);
    let watermark = 0;
    let partTotal: number | undefined;
    let cut = false;
    // The unterminated tail of the last body that ended inside a line, and where: see below.
    let tail: { watermark: number; text: string } | undefined;
    // Ids delivered so far: the service must not send one twice, and if it does the repeat is refused (DUPLICATE_ID),
    // so that no feed lists a product twice. Checked here, in stream order, before lines go to any worker thread.
    // A split query has `seen` instead (repeats across its parts are expected, counted as duplicates).
    const ids = seen === undefined ? new IdSet() : undefined;
    const duplicate = (line: number, index: number, id: unknown): void =>
      recordRejection(
        this.stats,
        { code: "DUPLICATE_ID", line, index, ...(typeof id === "string" || typeof id === "number" ? { id } : {}), message: "an earlier line of the stream carried this id; the first one is kept" },
        onEvent,
      );
    for (;;) {
      let response;
      try {
        this.stats.requests++;
        response = await this.#transport.send(endpoint, body, signal);
      } catch (error) {
        await budget.backoff(error, signal);
        continue;
      }
      if (response.statusCode === 204) {
        release(response.body);
        this.#setTotal(totalBefore);
        return;
      }
      if (cut) {
        this.stats.resumes++;
        onEvent({ type: "resume", fromIndex: watermark, resumes: this.stats.resumes });
      }
      const chunks = new ChunkReader(response.body);
      const splitter = new LineSplitter();
      let physical = 0;
      let ordinal = 0;
      let progressed = false;
      let failure: unknown;
      try {
        for (;;) {
          let chunk: Buffer | undefined;
          try {
            chunk = await chunks.next();
          } catch (error) {
            failure = error;
            break;
          }
          if (chunk !== undefined) splitter.push(chunk);
          // Lines of this chunk one by one; at the end of the body, only the unterminated last line if any.
          for (let bytes = chunk === undefined ? splitter.endBytes() : splitter.nextBytes(); bytes !== undefined; bytes = chunk === undefined ? undefined : splitter.nextBytes()) {
            physical++;
            if (bytes !== null && isBlankBytes(bytes)) continue;
            if (chunk === undefined && bytes !== null) {
              // The body ended inside a line (every line ends with a newline, says the spec). A proper prefix
              // of a JSON object is never JSON, so a tail that does not parse is a cut, not a bad record: it
              // neither counts nor moves the watermark, and the next attempt reads that line whole. Only the
              // same tail at the same place twice is what the service sends: then it is a line like any other.
              const text = bytes.toString("utf8");
              if (!readEnvelope(text, physical).ok && (tail?.watermark !== watermark || tail.text !== text)) {
                tail = { watermark, text };
                failure = new Failure("network", `the body ended inside line ${physical}, after ${watermark} of ${partTotal ?? "?"} lines`);
                break;
              }
            }
            const position = ordinal++;
            const peeked = raw && ids !== undefined && bytes !== null ? peekEnvelope(bytes) : undefined;
            if (peeked?.id !== undefined) {
              if (peeked.index < watermark) continue;
              watermark = peeked.index + 1;
              progressed = true;
              if (partTotal !== peeked.total) {
                partTotal = peeked.total;
                this.#setTotal(totalBefore + partTotal);
              }
              if (!ids!.add(peeked.id)) {
                duplicate(physical, peeked.index, JSON.parse(Buffer.from(peeked.id).toString("utf8")));
                continue;
              }
              this.stats.records++;
              yield { bytes: bytes as Buffer, line: physical, index: peeked.index, total: peeked.total };
              continue;
            }
            const envelope = readEnvelope(bytes === null ? null : bytes.toString("utf8"), physical);
            // A line without a readable index stands at its position: the service numbers lines from 0.
            const index = envelope.ok ? envelope.index : position;
            if (index < watermark) continue;
            watermark = index + 1;
            progressed = true;
            if (!envelope.ok) {
              recordRejection(this.stats, { ...envelope.reason, index }, onEvent);
              continue;
            }
            if (partTotal !== envelope.total) {
              partTotal = envelope.total;
              this.#setTotal(totalBefore + partTotal);
            }
            // The first line with an id claims it, valid or not: the raw path (above) cannot know yet.
            const key = ids === undefined ? undefined : idKey(envelope.result);
            if (key !== undefined && !ids!.add(key)) {
              duplicate(physical, index, (envelope.result as { id?: unknown }).id);
              continue;
            }
            const checked = checkRecord(schema, envelope.result, physical, index);
            if (!checked.ok) {
              recordRejection(this.stats, checked.reason, onEvent);
              continue;
            }
            if (seen) {
              const id = (checked.value as { id?: unknown }).id;
              if (seen.has(id)) {
                this.stats.duplicates++;
                continue;
              }
              seen.add(id);
            }
            this.stats.records++;
            yield raw ? { bytes: bytes as Buffer, line: physical, index, total: envelope.total } : checked.value;
          }
          if (chunk === undefined) break;
        }
      } finally {
        // Consumer stopped early, or a cut: release the socket either way.
        release(response.body);
      }
      if (failure === undefined && (partTotal === undefined || watermark >= partTotal)) {
        if (partTotal === undefined) this.#setTotal(totalBefore);
        return;
      }
      // Cut mid-way, inside a line or not (or a body that ended before meta.total lines): ask again, skip what was handled.
      cut = true;
      if (progressed) budget.progress();
      await budget.backoff(
        failure ?? new Failure("network", `the stream ended after ${watermark} of ${partTotal} lines`),
        signal,
      );
    }
  }
}
