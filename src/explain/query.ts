/**
 * The bound on a query, shared by `explain` and the status page's search (a small module of its
 * own: the command checks it before it loads the index's code).
 */

/** The longest query they take: a name is never longer, and a query of thousands of words took 26 s at 100k products (each word is a scan of the names). */
export const MAX_QUERY_CHARS = 200;

/** A query's length as a person counts it: characters (an emoji is one), not UTF-16 units. */
export function queryLength(query: string): number {
  return [...query.trim()].length;
}
