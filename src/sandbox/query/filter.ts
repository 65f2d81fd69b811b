/**
 * Compiles a filter body into a predicate. A filter object holds exactly one
 * key: a filter of the endpoint's table, or `and` (list), `or` (list), `not`
 * (one filter), nested to any depth. `{}` matches everything (the required
 * filter of products/query has to be able to say "all").
 */
import { got } from "../server/errors.js";
import { isPlainObject, violation, type ParseContext } from "./params.js";
import { markMatchAll } from "./select.js";

export type Pred<T> = (item: T) => boolean;

export interface FilterDef<T> {
  /** Parses the parameter at `path`; undefined after recording violations. */
  parse(ctx: ParseContext, path: string, value: unknown): Pred<T> | undefined;
  /** Whether the predicate needs the full record (false: cheap facts only). */
  heavy?: boolean;
}

export type FilterTable<T> = Record<string, FilterDef<T>>;

export interface CompiledFilter<T> {
  pred: Pred<T>;
  /** true when some predicate needs the full record. */
  heavy: boolean;
}

export const MATCH_ALL = markMatchAll(() => true);

/** Deeper nesting than any real filter needs; past it a body is refused instead of exhausting the stack. */
export const MAX_FILTER_DEPTH = 64;

export function compileFilter<T>(table: FilterTable<T>, ctx: ParseContext, path: string, value: unknown, depth = 0): CompiledFilter<T> | undefined {
  if (depth > MAX_FILTER_DEPTH) return violation(ctx, path, `filters nest at most ${MAX_FILTER_DEPTH} levels deep`);
  if (!isPlainObject(value)) return violation(ctx, path, `expected a filter object, got ${got(value)}`);
  const keys = Object.keys(value);
  if (keys.length === 0) return { pred: MATCH_ALL, heavy: false };
  if (keys.length > 1) {
    return violation(ctx, path, `a filter object holds exactly one filter (combine several with "and"), got keys ${got(keys)}`);
  }
  const key = keys[0] as string;
  const param = value[key];
  const here = path === "" ? key : `${path}.${key}`;
  if (key === "and" || key === "or") {
    if (!Array.isArray(param) || param.length === 0) return violation(ctx, here, `expected a non-empty list of filters, got ${got(param)}`);
    const parts = param.map((f, k) => compileFilter(table, ctx, `${here}[${k}]`, f, depth + 1));
    if (parts.some((p) => p === undefined)) return undefined;
    const preds = (parts as CompiledFilter<T>[]).map((p) => p.pred);
    const heavy = (parts as CompiledFilter<T>[]).some((p) => p.heavy);
    const pred: Pred<T> =
      key === "and"
        ? (item) => {
            for (const p of preds) if (!p(item)) return false;
            return true;
          }
        : (item) => {
            for (const p of preds) if (p(item)) return true;
            return false;
          };
    return { pred, heavy };
  }
  if (key === "not") {
    const inner = compileFilter(table, ctx, here, param, depth + 1);
    if (!inner) return undefined;
    return { pred: (item) => !inner.pred(item), heavy: inner.heavy };
  }
  const def = table[key];
  if (!def) return violation(ctx, here, `unknown filter; this endpoint accepts ${[...Object.keys(table), "and", "or", "not"].join(", ")}`);
  const pred = def.parse(ctx, here, param);
  return pred ? { pred, heavy: def.heavy ?? true } : undefined;
}
