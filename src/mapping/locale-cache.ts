/**
 * Per-locale work shared by the channels of a run: a run maps each product for
 * every channel in a row, and channels of the same locale chain with the same
 * description or photo settings (google-fr and meta-fr, say) choose the same
 * description (HTML to text included) and the same photos. The first channel
 * computes them; the others of that locale reuse them until the next product.
 *
 * A cache layer only: the choices themselves stay in text.ts and photos.ts, and
 * a key holds every setting the choice reads, so a result is only ever reused
 * where it would have been computed the same. Results are shared objects:
 * callers read them and never change them.
 */
import { createHash } from "node:crypto";
import type { Product } from "../catalogue/schemas/product.js";
import type { MappingContext } from "./context.js";
import { selectImages, type ImagePlan } from "./photos.js";
import { selectDescription, type DescriptionChoice } from "./text.js";
import { localesWithText } from "./locale.js";
import { perProduct, productHtml } from "./product-cache.js";

/** Per product, owned by the shop's context: what its offers can change. */
function shared<T>(context: MappingContext, product: Product, key: number, compute: () => T): T {
  return perProduct(context, product, key, compute);
}

/** Per product, shared by every shop's context (memo.catalogue): what no offers file changes. */
function catalogueShared<T>(context: MappingContext, product: Product, key: number, compute: () => T): T {
  return perProduct(context.memo.catalogue, product, key, compute);
}

/**
 * Settings written out in full, to the number that stands for them. A long text is kept by its
 * sha256 only: a channel's mapping settings are ~24 KB of JSON (its Google category map), and
 * every shop of a run of many has its own, kept for the whole run (13 MB for 50 shops).
 */
const interned = new Map<string, number>();
export function intern(text: string): number {
  const id = text.length > 64 ? `#${createHash("sha256").update(text).digest("base64")}` : `=${text}`;
  let key = interned.get(id);
  if (key === undefined) interned.set(id, (key = interned.size));
  return key;
}

/** Every field of an image plan, as a key (computed once per compiled plan). */
const planKeys = new WeakMap<ImagePlan, number>();
function planKey(plan: ImagePlan): number {
  let key = planKeys.get(plan);
  if (key === undefined) {
    key = intern(`i ${JSON.stringify(plan, (_k, value: unknown) => (value instanceof Map ? [...value] : value instanceof Set ? [...value] : value))}`);
    planKeys.set(plan, key);
  }
  return key;
}

export interface DescriptionSettings {
  types: readonly string[];
  targetGroup: string | null;
  maxLength: number;
}

const descriptionKeys = new WeakMap<DescriptionSettings, Map<string, number>>();
function descriptionKey(settings: DescriptionSettings, chainKey: string): number {
  let byChain = descriptionKeys.get(settings);
  if (!byChain) descriptionKeys.set(settings, (byChain = new Map()));
  let key = byChain.get(chainKey);
  if (key === undefined) {
    key = intern(`d ${JSON.stringify([settings.types, settings.targetGroup, settings.maxLength, chainKey])}`);
    byChain.set(chainKey, key);
  }
  return key;
}

/** selectDescription, shared by the channels with the same locale chain and description settings. */
export function sharedDescription(product: Product, settings: DescriptionSettings, chain: readonly string[], chainKey: string, context: MappingContext): DescriptionChoice | undefined {
  return catalogueShared(context, product, descriptionKey(settings, chainKey), () =>
    selectDescription(product, settings.types, settings.targetGroup, chain, settings.maxLength, productHtml(context.memo.catalogue, product)),
  );
}

/** Every locale any of the product's descriptions has text in, sorted: the same for every channel. */
const ALL_DESCRIPTION_LOCALES = intern("description locales");
function descriptionLocales(product: Product): string[] {
  const locales = new Set<string>();
  for (const d of product.descriptions ?? []) for (const l of localesWithText(d.content)) locales.add(l);
  return [...locales].sort();
}

/**
 * The locales, other than a channel's own, that hold a usable description for these settings
 * (MISSING_LANGUAGE rather than MISSING_DESCRIPTION), shared by the channels with the same
 * description settings: a product without one in its channels' languages is asked by each.
 */
export function sharedDescriptionLocales(product: Product, settings: DescriptionSettings, context: MappingContext): string[] {
  return catalogueShared(context, product, descriptionKey(settings, "*any single locale*"), () =>
    catalogueShared(context, product, ALL_DESCRIPTION_LOCALES, () => descriptionLocales(product)).filter((l) =>
      selectDescription(product, settings.types, settings.targetGroup, [l], settings.maxLength, productHtml(context.memo.catalogue, product)),
    ),
  );
}

/** selectImages, shared by the channels with the same image plan (locale included). */
export function sharedImages(product: Product, plan: ImagePlan, context: MappingContext): string[] {
  return catalogueShared(context, product, planKey(plan), () => selectImages(product, plan));
}

/** The whole mapping settings, as a key: channels that differ only in layout, format or name map a product alike. */
const mappingKeys = new WeakMap<object, number>();
export function mappingKey(settings: object): number {
  let key = mappingKeys.get(settings);
  if (key === undefined) {
    key = intern(`m ${JSON.stringify(settings)}`);
    mappingKeys.set(settings, key);
  }
  return key;
}

/**
 * A product's whole mapping (mapProduct's result), shared by the channels whose mapping settings are the
 * same (google-fr and microsoft-fr, say: 22 outputs of the benchmark are 12 mappings): mapped once,
 * rendered per channel. The result is read, never changed, by the writers and the reports.
 */
export function sharedMapping<T>(context: MappingContext, product: Product, key: number, compute: () => T): T {
  return shared(context, product, key, compute);
}
