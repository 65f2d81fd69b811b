/**
 * Durations a timer waits. Node's setTimeout takes at most 2^31 - 1 ms (about
 * 24.8 days); beyond that it warns and fires after 1 ms, so a "wait a month"
 * setting would become "do not wait". Every millisecond setting is bounded here.
 */
import { z } from "zod";

export const MAX_TIMER_MS = 2 ** 31 - 1;

/** An integer number of milliseconds from `min` to MAX_TIMER_MS. */
export function milliseconds(min: number) {
  return z
    .number()
    .int()
    .min(min)
    .max(MAX_TIMER_MS, `expected at most ${MAX_TIMER_MS} ms (about 24.8 days): a Node timer given more fires after 1 ms`);
}
