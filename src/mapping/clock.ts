/**
 * The run's clock as mapping sees it. Every comparison of a time with "now" goes
 * through `reached()`, which also remembers the earliest future time that some
 * comparison would answer differently (`horizon`): a row rendered now stays
 * right until then. A refresh reuses a row only before its horizon (see
 * src/rowcache/); a comparison that bypassed the clock would make it reuse a
 * row that changed, which is why the context has no bare `now`.
 */
export class Clock {
  /** Earliest future time (Unix seconds) at which a comparison made since reset() flips; Infinity: none. */
  horizon = Infinity;

  constructor(readonly now: number) {}

  /** Whether `at` (Unix seconds) has come: at <= now. */
  reached(at: number): boolean {
    if (at <= this.now) return true;
    if (at < this.horizon) this.horizon = at;
    return false;
  }

  /** Starts a new product: its rows' horizon is what its mapping compares from here on. */
  reset(): void {
    this.horizon = Infinity;
  }
}
