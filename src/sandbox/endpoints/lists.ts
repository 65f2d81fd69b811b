/**
 * The reference-list query endpoints (brands, product families, active
 * ingredients, categories, organizations, users, updates, corrections):
 * filter, sorting and page all optional, default order id ASC, every result
 * when no page is sent.
 */
import { parseQuery, type EndpointRules } from "../query/request.js";
import { select } from "../query/select.js";
import type { FilterTable } from "../query/filter.js";
import type { SortTable } from "../query/sorting.js";
import { pagedReply } from "./paging.js";
import type { Handler } from "./types.js";

export function listEndpoint<R>(records: () => readonly R[], filters: FilterTable<R>, sortings: SortTable<R> | null): Handler {
  const rules: EndpointRules<R> = { filters, sortings, filterRequired: false, sortingRequired: false, page: "optional" };
  return ({ body }) => {
    const parsed = parseQuery(rules, body);
    if (!parsed.ok) return parsed.reply;
    const list = records();
    const selection = select({ size: list.length, row: (i) => list[i] as R }, parsed.value);
    return pagedReply(selection, parsed.value.page, (i) => list[i]);
  };
}
