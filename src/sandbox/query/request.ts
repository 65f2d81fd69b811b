/**
 * Parses a query endpoint's body {filter, sorting, page} against the endpoint's
 * rules: which parts are required, which filters and sortings exist. Every
 * problem becomes a violation with its JSON path; the whole list is returned
 * at once so a client sees all of them in one 422.
 */
import { errorReply, got, type JsonReply } from "../server/errors.js";
import { compileFilter, MATCH_ALL, type CompiledFilter, type FilterTable } from "./filter.js";
import { isPlainObject, violation, type ParseContext } from "./params.js";
import { compileSorting, type SortKey, type SortTable } from "./sorting.js";

export const PAGE_SIZES = [10, 50, 100, 250] as const;
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_IDENTIFIERS = 1000;

export interface EndpointRules<T> {
  filters: FilterTable<T>;
  /** null: the endpoint has no sorting (active ingredients, public categories). */
  sortings: SortTable<T> | null;
  filterRequired: boolean;
  sortingRequired: boolean;
  /** "required", "optional" or "none" (streams). */
  page: "required" | "optional" | "none";
}

export interface Page {
  no: number;
  size: number;
}

export interface ParsedQuery<T> {
  filter: CompiledFilter<T>;
  /** undefined: natural order ascending. */
  sort: SortKey<T> | undefined;
  page: Page | undefined;
}

export type QueryResult<T> = { ok: true; value: ParsedQuery<T> } | { ok: false; reply: JsonReply };

function parsePage(ctx: ParseContext, value: unknown): Page | undefined {
  if (!isPlainObject(value)) return violation(ctx, "page", `expected {"no": 0, "size": 100}, got ${got(value)}`);
  let ok = true;
  for (const key of Object.keys(value)) {
    if (key !== "no" && key !== "size") ok = !!violation(ctx, `page.${key}`, `unknown key; a page has no and size, got ${got(key)}`);
  }
  const no = value.no ?? 0;
  const size = value.size ?? DEFAULT_PAGE_SIZE;
  if (typeof no !== "number" || !Number.isInteger(no) || no < 0) ok = !!violation(ctx, "page.no", `expected a zero-based page number (integer >= 0), got ${got(value.no)}`);
  if (typeof size !== "number" || !(PAGE_SIZES as readonly number[]).includes(size)) {
    ok = !!violation(ctx, "page.size", `expected one of ${PAGE_SIZES.join(", ")}, got ${got(value.size)}`);
  }
  return ok ? { no: no as number, size: size as number } : undefined;
}

export function parseQuery<T>(rules: EndpointRules<T>, body: unknown): QueryResult<T> {
  const ctx: ParseContext = { violations: [], ids: 0 };
  const input = body === undefined ? {} : body;
  if (!isPlainObject(input)) {
    return { ok: false, reply: errorReply("invalid", "The request body must be a JSON object.", [{ path: "(body)", message: `expected an object, got ${got(body)}` }]) };
  }
  const allowed = ["filter", ...(rules.sortings ? ["sorting"] : []), ...(rules.page !== "none" ? ["page"] : [])];
  for (const key of Object.keys(input)) {
    if (!allowed.includes(key)) violation(ctx, key, `unknown key; this endpoint takes ${allowed.join(", ")}`);
  }
  let filter: CompiledFilter<T> | undefined = { pred: MATCH_ALL, heavy: false };
  if (input.filter !== undefined) filter = compileFilter(rules.filters, ctx, "filter", input.filter);
  else if (rules.filterRequired) violation(ctx, "filter", "is required");
  let sort: SortKey<T> | undefined;
  if (rules.sortings && input.sorting !== undefined) sort = compileSorting(rules.sortings, ctx, "sorting", input.sorting);
  else if (rules.sortingRequired) violation(ctx, "sorting", "is required");
  let page: Page | undefined;
  if (rules.page !== "none" && input.page !== undefined) page = parsePage(ctx, input.page);
  else if (rules.page === "required") violation(ctx, "page", "is required");
  if (ctx.ids > MAX_IDENTIFIERS) {
    violation(ctx, "filter", `at most ${MAX_IDENTIFIERS} identifier codes per request, got ${ctx.ids}; split them over several requests`);
  }
  if (ctx.violations.length > 0 || !filter) {
    return { ok: false, reply: errorReply("invalid", "The request body is invalid.", ctx.violations) };
  }
  return { ok: true, value: { filter, sort, page } };
}
