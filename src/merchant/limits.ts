/**
 * How much of a run Google may take. Every answer of the Merchant API is bounded: a
 * request (the token grant too) has a timeout and the run's signal; a Retry-After longer
 * than the run waits gives up until the next run; a list stops at a page it has seen
 * before (a repeating nextPageToken) or past a number of pages; a page larger than a
 * byte cap is refused once, never fetched again; and the whole read-back or push has a
 * deadline. Whatever is cut short becomes a Problem naming the cap: the feeds are
 * published before any of this starts and never wait on it.
 */
import { PharmafeedError } from "../errors.js";
import type { MerchantSettings } from "./settings.js";

export interface MerchantLimits {
  /** One request (or token grant), from sending it to its last byte. */
  requestTimeoutMs: number;
  /** A 429/503 asking to wait longer than this ends the read-back or push for this run. */
  maxRetryAfterMs: number;
  /** A page (or any reply) larger than this is refused, once. */
  maxReplyBytes: number;
  /** Pages of one list (products.list's 1000 products each: 10 million products). */
  maxPages: number;
  /** The whole read-back, or the whole push, of a run. */
  totalMs: number;
}

export const DEFAULT_LIMITS: MerchantLimits = {
  // A page of 1000 products with their statuses comes in a few seconds; a silent request is tried twice at most (http.ts).
  requestTimeoutMs: 30_000,
  maxRetryAfterMs: 120_000,
  // 1000 products with statuses are a few MB; 64 MB leaves room for long issue texts.
  maxReplyBytes: 64 * 2 ** 20,
  maxPages: 10_000,
  totalMs: 15 * 60_000,
};

/** A channel's `merchant.limits`, as the client takes them. */
export function limitsOf(settings: MerchantSettings | undefined): MerchantLimits {
  const l = settings?.limits;
  if (!l) return DEFAULT_LIMITS;
  return {
    requestTimeoutMs: l.requestTimeoutSeconds * 1000,
    maxRetryAfterMs: l.maxRetryAfterSeconds * 1000,
    maxReplyBytes: Math.round(l.maxReplyMegabytes * 2 ** 20),
    maxPages: l.maxPages,
    totalMs: l.maxMinutes * 60_000,
  };
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/**
 * A signal that fires at the run's signal or at the deadline, whichever comes first; the
 * deadline's reason is a PharmafeedError that says which cap ended the work.
 */
export function deadline(totalMs: number, what: string, signal?: AbortSignal): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new PharmafeedError("MERCHANT_HTTP", `${what} took longer than ${seconds(totalMs)} (the cap of a run): stopped, to be done again by the next run`)),
    totalMs,
  );
  timer.unref();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}

/** The error to report when `signal` ended the work: its own reason when that is ours, else `error`. */
export function abortedBy(signal: AbortSignal | undefined, error: unknown): unknown {
  return signal?.aborted && signal.reason instanceof PharmafeedError ? signal.reason : error;
}

/** A request's signal: the caller's, and the request timeout. */
export function requestSignal(timeoutMs: number, signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

export { seconds as secondsText };
