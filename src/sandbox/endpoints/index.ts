/**
 * The route table: every /v4 endpoint of the spec. Query endpoints are POST;
 * endpoints the spec knows by name only answer 501 so a client learns at once
 * that the sandbox does not simulate them.
 */
import type { Catalogue } from "../generate/catalogue.js";
import { errorReply } from "../server/errors.js";
import { productEndpoints } from "./products.js";
import type { Handler } from "./types.js";

export interface Route {
  method: "GET" | "POST";
  handler: Handler;
  /** Media endpoints refuse requests without a proper User-Agent. */
  media?: boolean;
  /** Only keys whose subscription allows it (not BASIC_KEY). */
  restricted?: boolean;
}

const NAME_ONLY: [string, "GET" | "POST"][] = [
  ["/v4/products/find", "GET"], ["/v4/products/embed", "GET"], ["/v4/products/create", "POST"], ["/v4/products/update", "POST"],
  ["/v4/products/add-media", "POST"], ["/v4/products/remove-media", "POST"], ["/v4/products/get-fields", "GET"],
  ["/v4/product/descriptions/create", "POST"], ["/v4/product/descriptions/update", "POST"], ["/v4/product/descriptions/delete", "POST"],
  ["/v4/product/attributes/query", "POST"], ["/v4/product/attributes/find", "GET"], ["/v4/product/attribute/options/query", "POST"],
  ["/v4/product/attribute/options/find", "GET"], ["/v4/media/find", "GET"], ["/v4/media/upload", "POST"], ["/v4/media/create-link", "POST"],
  ["/v4/media/update", "POST"], ["/v4/media/publish", "POST"], ["/v4/media/unpublish", "POST"], ["/v4/media/get-fields", "GET"],
  ["/v4/organizations/find", "GET"], ["/v4/organizations/check/subscription", "POST"], ["/v4/api-keys/create", "POST"],
  ["/v4/api-keys/revoke", "POST"], ["/v4/subscription-types/query", "POST"], ["/v4/corrections/find", "GET"],
  ["/v4/corrections/create", "POST"], ["/v4/corrections/types", "GET"], ["/v4/brands/find", "GET"], ["/v4/brands/create", "POST"],
  ["/v4/brands/update", "POST"], ["/v4/dietary-restrictions/query", "POST"], ["/v4/colors/query", "POST"], ["/v4/osp-categories/query", "POST"],
];

export function buildRoutes(catalogue: Catalogue): Map<string, Route> {
  const routes = new Map<string, Route>();
  const products = productEndpoints(catalogue);
  routes.set("/v4/products/query", { method: "POST", handler: products.query });
  routes.set("/v4/products/stream", { method: "POST", handler: products.stream });
  for (const [path, method] of NAME_ONLY) {
    if (routes.has(path)) continue;
    routes.set(path, { method, handler: () => errorReply("notImplemented", `${method} ${path} exists in the service but is not simulated by the sandbox.`) });
  }
  return routes;
}
