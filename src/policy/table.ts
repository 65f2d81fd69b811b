/**
 * Which row decides a class on a channel: the most specific one, in this order (docs/policy.md):
 *
 *   1 channel country class   2 channel country *   3 channel * class   4 * country class
 *   5 channel * *             6 * country *         7 * * class         8 * * *
 *
 * More exact fields first; between as many, the channel before the country before the class (a
 * marketplace's own rule beats the country's general one, a country's law beats a default).
 * Rows with the same key override in order: the shipped table, the config's files, its rows, a
 * channel's own (load.ts refuses two in one file).
 */
import { PRODUCT_CLASSES, type PolicyRule, type ProductClass, ruleKey } from "./schema.js";

const ORDER: readonly [channel: boolean, country: boolean, klass: boolean][] = [
  [true, true, true],
  [true, true, false],
  [true, false, true],
  [false, true, true],
  [true, false, false],
  [false, true, false],
  [false, false, true],
  [false, false, false],
];

/** Later rules replace earlier ones with the same key. */
export function mergeRules(...lists: readonly (readonly PolicyRule[])[]): PolicyRule[] {
  const byKey = new Map<string, PolicyRule>();
  for (const list of lists) for (const r of list) byKey.set(ruleKey(r), r);
  return [...byKey.values()];
}

/** The rule for every class on one channel and country; a class no row covers maps to undefined. */
export type ChannelRules = Readonly<Record<ProductClass, PolicyRule | undefined>>;

export function channelRules(rules: readonly PolicyRule[], channel: string, country: string): ChannelRules {
  const byKey = new Map(rules.map((r) => [ruleKey(r), r]));
  const out = {} as Record<ProductClass, PolicyRule | undefined>;
  for (const klass of PRODUCT_CLASSES) {
    let found: PolicyRule | undefined;
    for (const [ch, co, cl] of ORDER) {
      found = byKey.get(ruleKey({ channel: ch ? channel : "*", country: co ? country : "*", class: cl ? klass : "*" }));
      if (found !== undefined) break;
    }
    out[klass] = found;
  }
  return out;
}
