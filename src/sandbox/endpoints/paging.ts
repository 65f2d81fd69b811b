/**
 * Paged results: meta.total, and meta.page {no, offset, size} only when the
 * request had a page. Without a page every result is returned.
 */
import { errorReply, type JsonReply } from "../server/errors.js";
import type { Page } from "../query/request.js";
import type { Selection } from "../query/select.js";

export const RESULT_WINDOW = 10_000;

export interface PagedOptions {
  /** Products and media cap meta.total and the reachable results at 10,000. */
  window?: { streamPath: string };
}

export function pagedReply(selection: Selection, page: Page | undefined, render: (index: number) => unknown, options: PagedOptions = {}): JsonReply {
  const reachable = options.window ? Math.min(selection.total, RESULT_WINDOW) : selection.total;
  const offset = page ? page.no * page.size : 0;
  if (page && options.window && offset >= RESULT_WINDOW) {
    const message = `Results are limited to ${RESULT_WINDOW}; page ${page.no} of size ${page.size} starts at ${offset}. Use POST ${options.window.streamPath} to read every result.`;
    return errorReply("resultWindow", message, [{ path: "page.no", message }]);
  }
  const end = page ? Math.min(reachable, offset + page.size) : reachable;
  const results: unknown[] = [];
  for (let k = offset; k < end; k++) results.push(render(selection.at(k)));
  const meta: Record<string, unknown> = { total: reachable };
  if (page) meta.page = { no: page.no, offset, size: page.size };
  return { kind: "json", status: 200, body: { meta, results } };
}
