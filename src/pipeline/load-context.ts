/**
 * Run-wide data, loaded once and in parallel before the stream starts: the
 * public category tree, the brands, and the offers file (bad rows reported with
 * their line number, never fatal).
 */
import { readFile } from "node:fs/promises";
import type { CatalogueClient } from "../catalogue/client.js";
import type { LoadedConfig } from "../config/types.js";
import { PharmafeedError } from "../errors.js";
import { buildContext, type BrandRecord, type CategoryNode, type MappingContext } from "../mapping/context.js";
import { parseOffers } from "../mapping/offers-parse.js";
import type { OfferError } from "../mapping/offers.js";

export interface OffersSummary {
  file: string;
  accepted: number;
  errors: OfferError[];
}

export async function loadContext(
  client: CatalogueClient,
  config: LoadedConfig,
  now: Date,
  /** Reference lists already at hand (a refresh from the snapshot): no request then. */
  known?: { categories: unknown[]; brands: unknown[] },
): Promise<{ context: MappingContext; offers: OffersSummary | undefined; reference: { categories: unknown[]; brands: unknown[] } }> {
  const readOffers = async (): Promise<{ parsed: ReturnType<typeof parseOffers>; file: string } | undefined> => {
    if (!config.offers) return undefined;
    const { file, format } = config.offers;
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (cause) {
      throw new PharmafeedError("CONFIG_INVALID", `offers file ${file}: ${(cause as Error).message}`, { cause, context: { file } });
    }
    return { parsed: parseOffers(text, format), file };
  };
  const lists = async () => {
    if (known) return known as { categories: CategoryNode[]; brands: BrandRecord[] };
    const [categories, brands] = await Promise.all([client.publicCategories(), client.brands()]);
    return { categories: categories.results as CategoryNode[], brands: brands.results as BrandRecord[] };
  };
  const [reference, offers] = await Promise.all([lists(), readOffers()]);
  const context = buildContext({
    categories: reference.categories,
    brands: reference.brands,
    offers: offers?.parsed.offers,
    now,
    priceUnit: config.priceUnit,
  });
  return {
    context,
    reference,
    offers: offers && { file: offers.file, accepted: offers.parsed.offers.size, errors: offers.parsed.errors },
  };
}
