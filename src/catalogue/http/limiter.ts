/**
 * Rolling-window pacing: at most `limit` requests in any `windowMs`, per key,
 * shared by every client of the process (one registry entry per base URL and
 * key id: a key belongs to one environment).
 *
 * A slot is stamped when the request's response headers arrive (or it fails),
 * not when it is sent: the server counts a request when it receives it, which is
 * between the two, so stamping late can only make us wait a little longer,
 * never send the (limit+1)-th request inside the server's window.
 */
export interface Permit {
  /** Call once the server has answered (headers) or the request failed. */
  done(): void;
}

interface Waiter {
  resolve: (permit: Permit) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export class RollingWindowLimiter {
  #limit: number;
  #windowMs: number;
  /** Completion stamps of the requests of the current window, oldest first. */
  readonly #stamps: number[] = [];
  readonly #queue: Waiter[] = [];
  #inFlight = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #now: () => number;

  constructor(limit: number, windowMs: number, now: () => number = () => performance.now()) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  get limit(): number {
    return this.#limit;
  }

  get windowMs(): number {
    return this.#windowMs;
  }

  /** Makes the pacing at least as strict as (limit, windowMs): fewer requests, longer window. */
  tighten(limit: number, windowMs: number): void {
    this.#limit = Math.min(this.#limit, limit);
    this.#windowMs = Math.max(this.#windowMs, windowMs);
  }

  /** Resolves when a request may be sent. */
  acquire(signal?: AbortSignal): Promise<Permit> {
    signal?.throwIfAborted();
    return new Promise<Permit>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const at = this.#queue.indexOf(waiter);
          if (at >= 0) this.#queue.splice(at, 1);
          reject(signal.reason);
          this.#pump();
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /** Requests counted in the window right now (tests and stats). */
  get used(): number {
    this.#expire();
    return this.#stamps.length + this.#inFlight;
  }

  #expire(): void {
    const horizon = this.#now() - this.#windowMs;
    while (this.#stamps.length > 0 && (this.#stamps[0] as number) <= horizon) this.#stamps.shift();
  }

  #pump(): void {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#expire();
    while (this.#queue.length > 0 && this.#stamps.length + this.#inFlight < this.#limit) {
      const waiter = this.#queue.shift() as Waiter;
      if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
      this.#inFlight++;
      let finished = false;
      waiter.resolve({
        done: () => {
          if (finished) return;
          finished = true;
          this.#inFlight--;
          this.#stamps.push(this.#now());
          this.#pump();
        },
      });
    }
    // Only in-flight requests block: their done() pumps again. Otherwise wake when the oldest stamp expires.
    if (this.#queue.length > 0 && this.#stamps.length > 0 && this.#stamps.length + this.#inFlight >= this.#limit) {
      const wait = Math.max(1, (this.#stamps[0] as number) + this.#windowMs - this.#now());
      this.#timer = setTimeout(() => this.#pump(), wait);
    }
  }
}

const registry = new Map<string, RollingWindowLimiter>();

/**
 * The process-wide limiter of a key. If clients of the same key ask for different
 * pacing, the shared limiter takes the stricter of both (lower limit, longer window).
 */
export function limiterFor(key: string, limit: number, windowMs: number): RollingWindowLimiter {
  const existing = registry.get(key);
  if (existing) {
    existing.tighten(limit, windowMs);
    return existing;
  }
  const limiter = new RollingWindowLimiter(limit, windowMs);
  registry.set(key, limiter);
  return limiter;
}
