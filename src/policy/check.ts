/** Rows whose re-check date has passed (`pharmafeed policy --check`, the status page's warning). */
import type { PolicyRule } from "./schema.js";

/** `today` as YYYY-MM-DD; rows without a re-check date (a channel's legacy switch) are never due. */
export function overdueRules(rules: readonly PolicyRule[], today: string): PolicyRule[] {
  return rules.filter((r) => r.recheck !== undefined && r.recheck < today);
}
