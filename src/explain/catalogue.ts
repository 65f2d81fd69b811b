/** The one catalogue request of `explain` for an id or code the last run never received. */
import type { CatalogueClient } from "../catalogue/client.js";
import type { Product } from "../catalogue/schemas/product.js";

const CODE_FILTERS = ["ean", "eanGtin13", "eanGtin14", "eanGtin12", "eanGtin8", "gtin", "cip13", "acl13"] as const;

/** Whatever its status (no status filter): the point is to say why the run's filter left it out. */
export async function fetchProduct(client: CatalogueClient, query: string): Promise<Product | undefined> {
  const filter = /^\d{8,14}$/.test(query) ? { or: [{ id: [query] }, ...CODE_FILTERS.map((key) => ({ [key]: [query] }))] } : { id: [query] };
  for await (const page of client.queryAll("products", { filter: filter as never, sorting: { id: "ASC" }, pageSize: 10 })) return page.results[0];
  return undefined;
}
