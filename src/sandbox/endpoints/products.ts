/** POST /v4/products/query and /v4/products/stream. */
import type { Catalogue } from "../generate/catalogue.js";
import { productFilters } from "../query/product-filters.js";
import { productSortings } from "../query/product-sortings.js";
import { parseQuery, type EndpointRules } from "../query/request.js";
import { ProductRow } from "../query/row.js";
import { select, type Indexed } from "../query/select.js";
import { linePool } from "../server/pool.js";
import { recordWriter } from "../generate/worker-lines.js";
import { pagedReply } from "./paging.js";
import type { Handler } from "./types.js";

function rules(catalogue: Catalogue, page: "required" | "none"): EndpointRules<ProductRow> {
  return { filters: productFilters(catalogue), sortings: productSortings(catalogue), filterRequired: true, sortingRequired: true, page };
}

function collection(catalogue: Catalogue): Indexed<ProductRow> {
  const row = new ProductRow(catalogue);
  return { size: catalogue.total, row: (i) => row.at(i) };
}

export function productEndpoints(catalogue: Catalogue): { query: Handler; stream: Handler } {
  const queryRules = rules(catalogue, "required");
  const streamRules = rules(catalogue, "none");
  return {
    query: ({ body }) => {
      const parsed = parseQuery(queryRules, body);
      if (!parsed.ok) return parsed.reply;
      const selection = select(collection(catalogue), parsed.value);
      return pagedReply(selection, parsed.value.page, (i) => catalogue.product(i), { window: { streamPath: "/v4/products/stream" } });
    },
    stream: ({ body }) => {
      const parsed = parseQuery(streamRules, body);
      if (!parsed.ok) return parsed.reply;
      const selection = select(collection(catalogue), parsed.value);
      if (selection.total === 0) return { kind: "empty", status: 204 };
      return {
        kind: "stream",
        total: selection.total,
        record: (k) => catalogue.productJson(selection.at(k)),
        ascii: true,
        batches: {
          source: "products",
          item: (k) => selection.at(k),
          // A changing catalogue's records are not the generator's alone: written here, from productJson.
          write: catalogue.changing ? (w, i) => w.s(catalogue.productJson(i)) : recordWriter(catalogue, "products"),
          pool: linePool(catalogue),
          inThread: catalogue.changing,
        },
      };
    },
  };
}
