/**
 * Which products a push pass sends, pure. What Google has of a product is the input
 * pharmafeed pushed (when there is one) or else the last full run's file (the baseline).
 *
 *   in the feed, differs from what Google has ─> push, availability changes first,
 *        unless pushed maxPerProductPerDay times today or past the quota budget ─> waits
 *   has an input the file does not carry yet, pushed more than repushAfterDays ago ─> pushed again (inputs expire after 30 days)
 *   has an input, no longer in the feed ─> input deleted
 */
import { sameValues, type Values } from "./values.js";

export interface PushedInput {
  values: Values;
  /** ISO times of the pushes of the current UTC day, and the last one. */
  day: string;
  today: number;
  at: string;
}

export interface OfferState {
  /** The value of the last full run's file. */
  baseline?: Values;
  input?: PushedInput;
}

export interface PushPlan {
  push: { id: string; values: Values; reason: "changed" | "expiring" }[];
  remove: string[];
  /** Changed, but over the per-product daily limit or the quota budget: the nightly file carries them. */
  waiting: number;
}

export interface PlanLimits {
  maxPerProductPerDay: number;
  repushAfterDays: number;
  /** Writes (inserts + deletes) this pass may send. */
  budget: number;
}

const DAY_MS = 86_400_000;

export function planPush(current: ReadonlyMap<string, Values>, state: ReadonlyMap<string, OfferState>, limits: PlanLimits, now: Date): PushPlan {
  const today = now.toISOString().slice(0, 10);
  const changed: PushPlan["push"] = [];
  const expiring: PushPlan["push"] = [];
  const remove: string[] = [];
  for (const [id, values] of current) {
    const known = state.get(id);
    const google = known?.input?.values ?? known?.baseline;
    if (google === undefined) continue;
    if (!sameValues(values, google)) changed.push({ id, values, reason: "changed" });
    // An input the file now agrees with may expire: Google then takes the file's value, the same.
    else if (known?.input && !sameValues(values, known.baseline) && now.getTime() - Date.parse(known.input.at) > limits.repushAfterDays * DAY_MS) {
      expiring.push({ id, values, reason: "expiring" });
    }
  }
  for (const [id, known] of state) if (known.input && !current.has(id)) remove.push(id);
  // Stock first: selling what is out of stock is what hurts most; then prices.
  const rank = (p: PushPlan["push"][number]) => (p.values.availability !== (state.get(p.id)?.input?.values ?? state.get(p.id)?.baseline)?.availability ? 0 : 1);
  changed.sort((a, b) => rank(a) - rank(b));
  let budget = limits.budget - Math.min(remove.length, limits.budget);
  const push: PushPlan["push"] = [];
  let waiting = 0;
  for (const p of [...changed, ...expiring]) {
    const input = state.get(p.id)?.input;
    const pushedToday = input && input.day === today ? input.today : 0;
    if (budget <= 0 || (p.reason === "changed" && pushedToday >= limits.maxPerProductPerDay)) {
      waiting++;
      continue;
    }
    push.push(p);
    budget--;
  }
  return { push, remove: remove.slice(0, limits.budget), waiting };
}
