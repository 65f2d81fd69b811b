/**
 * Declarative include/exclude rules, shaped like the API's filter language:
 * leaves `{ field, op, value }` combined with `{ all: [...] }`, `{ any: [...] }`
 * and `{ not: rule }`. Validated by zod, compiled once per channel into plain
 * closures (no eval, no new Function), evaluated per product.
 *
 * A field yields one value or a list (a path that crosses an array collects
 * every element's value); a leaf matches when ANY value matches, and `ne`/`nin`
 * are the negations of `eq`/`in`. Numbers and numeric strings compare equal
 * in eq/in ("12" eq 12), everything else compares strictly.
 */
import { z } from "zod";

export const RULE_OPS = ["eq", "ne", "in", "nin", "lt", "lte", "gt", "gte", "contains", "startsWith", "exists"] as const;

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const name = z.string().min(1).optional().describe("Shown as the detail of RULE_EXCLUDED.");
const field = z.string().min(1).describe("A derived name (brand, categoryId, price, ...) or a dotted path over the product.");

const Leaf = z.union([
  z.object({ name, field, op: z.enum(["eq", "ne"]), value: Scalar }).strict(),
  z.object({ name, field, op: z.enum(["in", "nin"]), value: z.array(Scalar).min(1) }).strict(),
  z.object({ name, field, op: z.enum(["lt", "lte", "gt", "gte"]), value: z.number() }).strict(),
  z.object({ name, field, op: z.literal("contains"), value: Scalar }).strict(),
  z.object({ name, field, op: z.literal("startsWith"), value: z.string() }).strict(),
  z.object({ name, field, op: z.literal("exists"), value: z.boolean().default(true) }).strict(),
]);
export type RuleLeaf = z.output<typeof Leaf>;

export type Rule =
  | RuleLeaf
  | { name?: string | undefined; all: Rule[] }
  | { name?: string | undefined; any: Rule[] }
  | { name?: string | undefined; not: Rule };
export type RuleInput =
  | z.input<typeof Leaf>
  | { name?: string | undefined; all: RuleInput[] }
  | { name?: string | undefined; any: RuleInput[] }
  | { name?: string | undefined; not: RuleInput };

export const Rule: z.ZodType<Rule, RuleInput> = z.lazy(() =>
  z.union([
    Leaf,
    z.object({ name, all: z.array(Rule).min(1) }).strict(),
    z.object({ name, any: z.array(Rule).min(1) }).strict(),
    z.object({ name, not: Rule }).strict(),
  ]),
);

export type Getter<S> = (subject: S) => unknown;
export type Predicate<S> = (subject: S) => boolean;

function keyOf(x: unknown): unknown {
  return typeof x === "number" ? String(x) : x;
}

function some(v: unknown, test: (x: unknown) => boolean): boolean {
  if (Array.isArray(v)) {
    for (const x of v) if (test(x)) return true;
    return false;
  }
  return test(v);
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== "" && !(Array.isArray(v) && v.length === 0);
}

function leafTest(leaf: RuleLeaf): (x: unknown) => boolean {
  switch (leaf.op) {
    case "eq":
    case "ne": {
      const want = keyOf(leaf.value);
      return (x) => (want === null ? x === null || x === undefined : keyOf(x) === want);
    }
    case "in":
    case "nin": {
      const set = new Set(leaf.value.map(keyOf));
      return (x) => set.has(keyOf(x)) || (set.has(null) && x === undefined);
    }
    case "lt":
      return (x) => typeof x === "number" && x < leaf.value;
    case "lte":
      return (x) => typeof x === "number" && x <= leaf.value;
    case "gt":
      return (x) => typeof x === "number" && x > leaf.value;
    case "gte":
      return (x) => typeof x === "number" && x >= leaf.value;
    case "contains": {
      const want = leaf.value;
      return (x) => (typeof x === "string" && typeof want === "string" ? x.includes(want) : keyOf(x) === keyOf(want));
    }
    case "startsWith":
      return (x) => typeof x === "string" && x.startsWith(leaf.value);
    case "exists":
      return present;
  }
}

function compileLeaf<S>(leaf: RuleLeaf, getter: (field: string) => Getter<S>): Predicate<S> {
  const get = getter(leaf.field);
  if (leaf.op === "exists") {
    const want = leaf.value;
    return (s) => present(get(s)) === want;
  }
  if (leaf.op === "contains") {
    // On a string `contains` is a substring test; on a list it is membership.
    const want = keyOf(leaf.value);
    const substring = leafTest(leaf);
    return (s) => {
      const v = get(s);
      return Array.isArray(v) ? v.some((x) => keyOf(x) === want) : substring(v);
    };
  }
  const test = leafTest(leaf);
  if (leaf.op === "ne" || leaf.op === "nin") return (s) => !some(get(s), test);
  return (s) => some(get(s), test);
}

/** Compile a validated rule. `getter` turns a field name into an accessor, once. */
export function compileRule<S>(rule: Rule, getter: (field: string) => Getter<S>): Predicate<S> {
  if ("all" in rule) {
    const parts = rule.all.map((r) => compileRule(r, getter));
    return (s) => parts.every((p) => p(s));
  }
  if ("any" in rule) {
    const parts = rule.any.map((r) => compileRule(r, getter));
    return (s) => parts.some((p) => p(s));
  }
  if ("not" in rule) {
    const inner = compileRule(rule.not, getter);
    return (s) => !inner(s);
  }
  return compileLeaf(rule, getter);
}

/**
 * A dotted path over plain data. Crossing an array collects the values of every
 * element (`brands.id` -> [12, 40]), like the API's filters on list fields.
 */
export function pathGetter(path: string): Getter<unknown> {
  const steps = path.split(".");
  return (root) => {
    let current: unknown[] = [root];
    for (const step of steps) {
      const next: unknown[] = [];
      for (const value of current) {
        if (value === null || typeof value !== "object") continue;
        const child = (value as Record<string, unknown>)[step];
        if (Array.isArray(child)) next.push(...(child as unknown[]));
        else if (child !== undefined) next.push(child);
      }
      current = next;
    }
    return current.length === 0 ? undefined : current.length === 1 ? current[0] : current;
  };
}
