/**
 * Rolling-window rate limit per API key, as the service does it: N requests per
 * window, then 429 too_many_requests until the oldest request leaves the window.
 * Refused requests do not count, so a client that backs off gets back in.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Records a request for `key` and says whether it is allowed. */
  take(key: string): boolean {
    const now = this.now();
    let list = this.hits.get(key);
    if (!list) {
      list = [];
      this.hits.set(key, list);
    }
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < list.length && (list[drop] as number) <= cutoff) drop++;
    if (drop > 0) list.splice(0, drop);
    if (list.length >= this.limit) return false;
    list.push(now);
    return true;
  }
}
