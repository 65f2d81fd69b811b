/**
 * The route table: every /v4 endpoint of the spec. Query endpoints are POST;
 * endpoints the spec knows by name only answer 501 so a client learns at once
 * that the sandbox does not simulate them.
 */
import type { Catalogue } from "../generate/catalogue.js";
import { errorReply } from "../server/errors.js";
import type { Wire } from "../generate/types.js";
import { BRAND_FILTERS, CATALOG_CATEGORY_FILTERS, FAMILY_FILTERS, ID_SORTING, INGREDIENT_FILTERS, NAME_SORTINGS, ORGANIZATION_FILTERS, PUBLIC_CATEGORY_FILTERS } from "../query/reference-filters.js";
import { CORRECTION_FILTERS, CORRECTION_SORTINGS, UPDATE_FILTERS, UPDATE_SORTINGS, userFilters } from "../query/record-filters.js";
import { createEndpoints } from "./create.js";
import { listEndpoint } from "./lists.js";
import { mediaEndpoints } from "./media.js";
import { productEndpoints } from "./products.js";
import type { Created, Handler } from "./types.js";

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

export function buildRoutes(catalogue: Catalogue, created: Created): Map<string, Route> {
  const routes = new Map<string, Route>();
  const post = (path: string, handler: Handler, extra: Partial<Route> = {}) => routes.set(path, { method: "POST", handler, ...extra });
  const products = productEndpoints(catalogue);
  post("/v4/products/query", products.query);
  post("/v4/products/stream", products.stream);
  const media = mediaEndpoints(catalogue);
  post("/v4/media/query", media.query, { media: true });
  post("/v4/media/stream", media.stream, { media: true });
  const organizations = (): Wire[] => [...catalogue.organizations, ...created.organizations];
  const users = (): Wire[] => [...catalogue.users, ...created.users];
  post("/v4/updates/query", listEndpoint(() => catalogue.updates, UPDATE_FILTERS, UPDATE_SORTINGS));
  post("/v4/brands/query", listEndpoint(() => catalogue.brands, BRAND_FILTERS, NAME_SORTINGS));
  post("/v4/product-families/query", listEndpoint(() => catalogue.productFamilies, FAMILY_FILTERS, NAME_SORTINGS));
  post("/v4/active-ingredients/query", listEndpoint(() => catalogue.activeIngredients, INGREDIENT_FILTERS, null));
  post("/v4/corrections/query", listEndpoint(() => catalogue.corrections, CORRECTION_FILTERS, CORRECTION_SORTINGS));
  post("/v4/users/query", listEndpoint(users, userFilters(catalogue, () => created.organizations), ID_SORTING));
  post("/v4/public-categories/query", listEndpoint(() => catalogue.publicCategories, PUBLIC_CATEGORY_FILTERS, null));
  post("/v4/catalog-categories/query", listEndpoint(() => catalogue.catalogCategories, CATALOG_CATEGORY_FILTERS, null));
  post("/v4/organizations/query", listEndpoint(organizations, ORGANIZATION_FILTERS, ID_SORTING));
  const create = createEndpoints(() => organizations().map((o) => o.id as number), created.users, created.organizations);
  post("/v4/users/create", create.users, { restricted: true });
  post("/v4/organizations/create", create.organizations, { restricted: true });
  for (const [path, method] of NAME_ONLY) {
    if (routes.has(path)) continue;
    routes.set(path, { method, handler: () => errorReply("notImplemented", `${method} ${path} exists in the service but is not simulated by the sandbox.`) });
  }
  return routes;
}
