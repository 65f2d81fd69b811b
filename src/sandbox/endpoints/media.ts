/**
 * POST /v4/media/query and /v4/media/stream. Media items belong to products
 * (see generate/product-media.ts), so a selection walks the products and keeps
 * only matching media ids (and sort keys); results are regenerated from their
 * product when written (generate/worker-lines.ts: a one-product cache, since
 * they come in runs), in worker threads for long streams.
 */
import type { Catalogue, MediaRecord } from "../generate/catalogue.js";
import { mediaById, recordJson, recordWriter } from "../generate/worker-lines.js";
import { MEDIA_FILTERS, MEDIA_SORTINGS } from "../query/media-filters.js";
import { parseQuery, type EndpointRules, type ParsedQuery } from "../query/request.js";
import type { Selection } from "../query/select.js";
import { linePool } from "../server/pool.js";
import { sortIndices, type SortValue } from "../query/sorting.js";
import { pagedReply } from "./paging.js";
import type { Handler } from "./types.js";

const queryRules: EndpointRules<MediaRecord> = { filters: MEDIA_FILTERS, sortings: MEDIA_SORTINGS, filterRequired: true, sortingRequired: true, page: "required" };
const streamRules: EndpointRules<MediaRecord> = { ...queryRules, page: "none" };

function selectMedia(catalogue: Catalogue, query: ParsedQuery<MediaRecord>): Selection {
  const ids: number[] = [];
  const keys: SortValue[] = [];
  const key = query.sort?.key;
  for (let i = 0; i < catalogue.total; i++) {
    for (const item of catalogue.mediaOf(i)) {
      if (!query.filter.pred(item)) continue;
      ids.push(item.id as number);
      if (key) keys.push(key(item));
    }
  }
  const dir = query.sort?.dir ?? 1;
  const ordered = key ? sortIndices(ids, keys, dir) : dir === 1 ? ids : ids.reverse();
  return { total: ordered.length, at: (k) => ordered[k] as number };
}

export function mediaEndpoints(catalogue: Catalogue): { query: Handler; stream: Handler } {
  return {
    query: ({ body }) => {
      const parsed = parseQuery(queryRules, body);
      if (!parsed.ok) return parsed.reply;
      const lookup = mediaById(catalogue);
      return pagedReply(selectMedia(catalogue, parsed.value), parsed.value.page, (id) => lookup(id), { window: { streamPath: "/v4/media/stream" } });
    },
    stream: ({ body }) => {
      const parsed = parseQuery(streamRules, body);
      if (!parsed.ok) return parsed.reply;
      const selection = selectMedia(catalogue, parsed.value);
      if (selection.total === 0) return { kind: "empty", status: 204 };
      const record = recordJson(catalogue, "media");
      return {
        kind: "stream",
        total: selection.total,
        record: (k) => record(selection.at(k)),
        ascii: true,
        batches: { source: "media", item: (k) => selection.at(k), write: recordWriter(catalogue, "media"), pool: linePool(catalogue) },
      };
    },
  };
}
