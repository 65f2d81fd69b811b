/**
 * Run-wide data, loaded once before the stream starts: the public category tree
 * and the brands (in parallel, or from the snapshot on a refresh: no request
 * then), and the offers index read and judged before (offers-file.ts), so that
 * a refused offers file costs no request.
 */
import type { CatalogueClient } from "../catalogue/client.js";
import type { LoadedConfig } from "../config/types.js";
import { buildContext, type BrandRecord, type CategoryNode, type MappingContext } from "../mapping/context.js";
import type { OffersIndex } from "../mapping/offers.js";

/** The reference lists as the catalogue sent them (kept in the snapshot). */
export interface ReferenceLists {
  categories: unknown[];
  brands: unknown[];
}

export async function loadContext(
  client: CatalogueClient,
  config: LoadedConfig,
  now: Date,
  offers: OffersIndex | undefined,
  /** Reference lists already at hand (a refresh from the snapshot, or another shop's): no request then. */
  known?: ReferenceLists,
  /** Another shop's context of the run: this one shares its reference data and per-product work (mapping/context.ts). */
  sharedWith?: MappingContext,
): Promise<{ context: MappingContext; reference: ReferenceLists }> {
  let reference = known;
  if (!reference) {
    const [categories, brands] = await Promise.all([client.publicCategories(), client.brands()]);
    reference = { categories: categories.results, brands: brands.results };
  }
  const context = buildContext({
    categories: reference.categories as CategoryNode[],
    brands: reference.brands as BrandRecord[],
    ...(offers ? { offers } : {}),
    now,
    priceUnit: config.priceUnit,
  }, sharedWith);
  return { context, reference };
}
