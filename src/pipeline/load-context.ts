/**
 * Run-wide data, loaded once before the stream starts: the public category tree
 * and the brands (in parallel), and the offers index read and judged before
 * (offers-file.ts), so that a refused offers file costs no request.
 */
import type { CatalogueClient } from "../catalogue/client.js";
import type { LoadedConfig } from "../config/types.js";
import { buildContext, type MappingContext } from "../mapping/context.js";
import type { OffersIndex } from "../mapping/offers.js";

export async function loadContext(client: CatalogueClient, config: LoadedConfig, now: Date, offers: OffersIndex | undefined): Promise<MappingContext> {
  const [categories, brands] = await Promise.all([client.publicCategories(), client.brands()]);
  return buildContext({
    categories: categories.results,
    brands: brands.results,
    ...(offers ? { offers } : {}),
    now,
    priceUnit: config.priceUnit,
  });
}
