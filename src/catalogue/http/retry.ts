/**
 * The retry budget of one logical request. Transient failures (429, 5xx,
 * network, timeouts) wait with exponential backoff and full jitter, or what
 * Retry-After says, until `maxRetries` consecutive failures; then the last
 * failure becomes the error. Streams call `progress()` when a retried attempt
 * delivered new lines, which refills the budget: a long stream on a flaky
 * network keeps going as long as it keeps moving.
 */
import { PharmafeedError } from "../../errors.js";
import { backoffDelay, retrying, sleep, type RetryPolicy } from "../../core/retry.js";
import { classify, type Failure } from "./failure.js";

export interface RetryEvent {
  operation: string;
  /** 1-based number of this retry within the current budget. */
  attempt: number;
  delayMs: number;
  reason: string;
  status?: number;
  apiCode?: string;
  /** The socket's error code when there is one (ECONNREFUSED, ENOTFOUND, ...). */
  errorCode?: string;
  /** Retries still allowed after this one, and at most how long they may wait in all (without Retry-After). */
  retriesLeft: number;
  maxWaitLeftMs: number;
}

export class RetryBudget {
  #failures = 0;
  /** Retries made over the whole request (never reset; for stats). */
  total = 0;

  constructor(
    private readonly operation: string,
    private readonly policy: RetryPolicy,
    private readonly onRetry: (event: RetryEvent) => void,
    /** Create calls repeat only what surely never reached the server (429, refused connection). */
    private readonly safeOnly = false,
  ) {}

  progress(): void {
    this.#failures = 0;
  }

  /** Waits before the next attempt, or throws the PharmafeedError when it cannot help or the budget is spent. */
  async backoff(error: unknown, signal?: AbortSignal): Promise<void> {
    // An abort is the caller's decision, not a failure to retry or to reword.
    signal?.throwIfAborted();
    await sleep(this.next(error), signal);
  }

  /** How long to wait before the next attempt (the retry is counted and told), or throws as backoff() says. */
  next(error: unknown): number {
    if (error instanceof PharmafeedError) throw error;
    const failure: Failure = classify(error);
    const repeatable = failure.transient && (!this.safeOnly || failure.kind === "rate" || failure.notSent);
    if (!repeatable || this.#failures >= this.policy.maxRetries) throw failure.toError(this.operation, this.total);
    const delayMs = failure.retryAfterMs ?? backoffDelay(this.#failures, this.policy);
    this.#failures++;
    this.total++;
    let maxWaitLeftMs = 0;
    for (let next = this.#failures; next < this.policy.maxRetries; next++) maxWaitLeftMs += backoffDelay(next, { ...this.policy, jitter: "none" });
    this.onRetry({
      operation: this.operation,
      attempt: this.#failures,
      delayMs,
      reason: failure.message,
      ...(failure.status === undefined ? {} : { status: failure.status }),
      ...(failure.apiCode === undefined ? {} : { apiCode: failure.apiCode }),
      ...(failure.errorCode === undefined ? {} : { errorCode: failure.errorCode }),
      retriesLeft: this.policy.maxRetries - this.#failures,
      maxWaitLeftMs,
    });
    return delayMs;
  }
}

/** Runs `attempt` until it succeeds or the budget says stop (core/retry.ts). */
export function withRetries<T>(budget: RetryBudget, attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return retrying(attempt, { next: (error) => budget.next(error), ...(signal ? { signal } : {}) });
}
