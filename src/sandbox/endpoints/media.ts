/**
 * POST /v4/media/query and /v4/media/stream. Media items belong to products
 * (see generate/product-media.ts), so a selection walks the products and keeps
 * only matching media ids (and sort keys); results are regenerated from their
 * product when written, with a one-product cache since they come in runs.
 */
import type { Catalogue, MediaRecord } from "../generate/catalogue.js";
import { phpJson } from "../generate/json.js";
import { MEDIA_ID_BASE, MEDIA_SLOTS } from "../generate/product-media.js";
import { MEDIA_FILTERS, MEDIA_SORTINGS } from "../query/media-filters.js";
import { parseQuery, type EndpointRules, type ParsedQuery } from "../query/request.js";
import type { Selection } from "../query/select.js";
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

/** Looks up a media item by id, regenerating its product's media (cached for the next lookup). */
function mediaById(catalogue: Catalogue): (id: number) => MediaRecord | undefined {
  let cachedIndex = -1;
  let cached: MediaRecord[] = [];
  return (id) => {
    const i = Math.floor((id - MEDIA_ID_BASE) / MEDIA_SLOTS);
    if (i !== cachedIndex) {
      cached = catalogue.mediaOf(i);
      cachedIndex = i;
    }
    return cached.find((m) => m.id === id);
  };
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
      const lookup = mediaById(catalogue);
      return { kind: "stream", total: selection.total, record: (k) => phpJson(lookup(selection.at(k))), ascii: true };
    },
  };
}
