/**
 * The one retry loop of pharmafeed (catalogue requests, photo downloads, pushes to destinations,
 * Google's Merchant API) and what it is made of: exponential backoff with full jitter, Retry-After
 * parsing, a sleep that an AbortSignal ends at once.
 *
 *   retrying(attempt, { next, signal }):  attempt ─ ok ─> value
 *                                            └─ error ─> next(error, n): ms to wait, or throws to stop
 *                                                        ─> sleep(ms, signal) ─> attempt again
 *
 * What is worth another try, and how many, is the caller's (`next`): each of them classifies its
 * own failures and keeps its own budget; the loop makes every one of them abortable alike.
 */

/** How retries wait (the catalogue's `source.retry`, images' `retry`, Merchant's defaults). */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff ceiling; it doubles per retry up to `maxMs`. */
  baseMs: number;
  maxMs: number;
  /** "full": a uniform draw below the ceiling (no thundering herd); "none": the ceiling itself. */
  jitter: "full" | "none";
}

/** Exponential ceiling base*2^attempt capped at max; "full" jitter picks uniformly below it. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return policy.jitter === "full" ? Math.floor(random() * ceiling) : ceiling;
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === "") return undefined;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects with the signal's reason when aborted first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export interface RetryingOptions {
  /**
   * After the `failures`-th failure (1-based): how long to wait before trying again, or throw to
   * stop (the error itself, or a better worded one).
   */
  next(error: unknown, failures: number): number;
  signal?: AbortSignal;
}

/** Runs `attempt` until it succeeds, `next` stops it, or the signal aborts (its reason is thrown). */
export async function retrying<T>(attempt: () => Promise<T>, options: RetryingOptions): Promise<T> {
  for (let failures = 1; ; failures++) {
    try {
      return await attempt();
    } catch (error) {
      // An abort is the caller's decision, not a failure to retry or to reword.
      options.signal?.throwIfAborted();
      await sleep(options.next(error, failures), options.signal);
    }
  }
}

/**
 * undici's own timers for a server that says nothing (headersTimeout, bodyTimeout). Where a
 * request also has an abort timer of the same length, either may fire first: both mean "no answer
 * within" that time, and are said so.
 */
export function isSilenceTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT";
}
