/**
 * What the state log and the explain index keep of one product and of what each
 * channel did with it. Plain data: a worker thread builds these and posts them to
 * the main thread (structured clone), which writes them (run-hook.ts).
 */
import type { Product } from "../catalogue/schemas/product.js";
import type { ItemFacts } from "../mapping/item-facts.js";
import type { MappingContext } from "../mapping/context.js";
import { productFacts } from "../mapping/facts.js";
import { parseGtin, productGtins } from "../mapping/gtin.js";
import { intern } from "../mapping/locale-cache.js";
import { perProduct } from "../mapping/product-cache.js";
import type { Reason } from "../mapping/reasons.js";

/** A product as explain finds and shows it. */
export interface IndexProduct {
  id: string;
  /** Every valid code (GTINs, CIP13, ACL13) as its 14-digit key: a lookup by any width pads to 14. */
  codes: string[];
  /**
   * The item's national codes (catalogue and offers file, checked) as `<kind>:<digits>`
   * (`pzn:04877800`), searched like codes; absent when none. Apart from `codes`, which the offers
   * file's GTIN keys and the history's sheets read.
   */
  national?: string[];
  /** The first valid GTIN at the width it came in. */
  gtin: string | undefined;
  cip13: string | undefined;
  /** Name per locale, as the catalogue sends it. */
  names: Record<string, string>;
  brand: string | undefined;
}

/**
 * What a refresh needs besides, to copy a product's lines instead of mapping it again
 * (src/rowcache/): the bytes of its warnings report lines and the columns its row
 * filled (ChannelMapper.lastMask), or the bytes of its exclusion report line.
 */
export interface ItemCopy {
  warningBytes: number;
  mask: readonly number[];
  /** What the feed history compares (mapping/item-facts.ts): kept with the outcome so a copied row keeps them too. */
  facts?: ItemFacts;
}

/** What one channel did with one product, unpacked for explain: an item's row's place in the published file (byte offset and length, uncompressed). */
export type ChannelOutcome =
  | ({ kind: "item"; offset: number; bytes: number; warnings: readonly Reason<string>[]; fallbacks: Record<string, string> } & ItemCopy)
  | { kind: "excluded"; reasons: readonly Reason<string>[]; reportBytes: number };

function firstString(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const v of Object.values(value as Record<string, unknown>)) if (typeof v === "string" && v.trim() !== "") return v.trim();
  }
  return undefined;
}

/** The product's national codes as index keys (`pzn:04877800`). */
export function nationalCodeKey(kind: string, digits: string): string {
  return `${kind}:${digits}`;
}

/** What the index keeps of a product whatever the offers file says: every shop of a run shares it (product-cache.ts). */
function catalogueEntry(product: Product): IndexProduct {
  const gtins = productGtins(product);
  const names: Record<string, string> = {};
  const name = product.name;
  if (name !== null && typeof name === "object") {
    for (const [locale, value] of Object.entries(name as Record<string, unknown>)) if (typeof value === "string" && value.trim() !== "") names[locale] = value.trim();
  }
  const rawCip = Array.isArray(product.cip13) ? product.cip13[0] : product.cip13;
  const cip = rawCip === null || rawCip === undefined ? undefined : parseGtin(rawCip, 13);
  return {
    id: product.id,
    codes: gtins.valid.map((g) => g.key),
    gtin: gtins.valid[0]?.digits,
    cip13: cip?.ok ? cip.value.digits : undefined,
    names,
    brand: firstString(product.brands?.[0]?.name),
  };
}

const CATALOGUE_ENTRY = intern("explain entry");

/**
 * `context`: the run's, so that the offers file's codes (a shop's PZNs) are found too; its facts are
 * memoised for the mapping that follows. The rest is computed once per product for every shop of
 * the run (the entry is read only: posted to the main thread or written there).
 */
export function indexProduct(product: Product, context?: MappingContext): IndexProduct {
  const base = context === undefined ? catalogueEntry(product) : perProduct(context.memo.catalogue, product, CATALOGUE_ENTRY, () => catalogueEntry(product));
  if (context === undefined) return base;
  const codes = productFacts(product, context).national.codes;
  let national: string[] | undefined;
  for (const kind in codes) (national ??= []).push(nationalCodeKey(kind, codes[kind as keyof typeof codes]!));
  // In the entry's usual key order (the state log writes it as JSON).
  return national === undefined ? base : { id: base.id, codes: base.codes, national, gtin: base.gtin, cip13: base.cip13, names: base.names, brand: base.brand };
}

/**
 * What one channel did with one product, as kept in the state log (output/state/rows.ndjson,
 * src/rowcache/file.ts) that both explain and a refresh read: one form, short keys, empty parts
 * left out. An item: its row's byte offset and length in the published file (uncompressed), its
 * warnings report lines' bytes, the columns it filled (ChannelMapper.lastMask) and its warnings
 * and fallbacks; an exclusion: its reasons and its report line's bytes; null: the channel failed.
 */
export type Outcome =
  | { o: number; l: number; s?: ItemFacts; wb?: number; m?: number[]; w?: [string, string?][]; f?: Record<string, string> }
  | { r: [string, string?][]; rb: number }
  | null;

const packReasons = (reasons: readonly Reason<string>[]): [string, string?][] => reasons.map((r) => (r.detail === undefined ? [r.code] : [r.code, r.detail]));

/** An item's outcome, packed. */
export function itemOutcome(offset: number, bytes: number, warnings: readonly Reason<string>[], fallbacks: Record<string, string>, copy: ItemCopy): Outcome {
  const packed: Outcome = { o: offset, l: bytes };
  // Right after `l`: mapping/item-facts.ts factsText() reads it there without parsing the rest.
  if (copy.facts) packed.s = copy.facts;
  if (copy.warningBytes > 0) packed.wb = copy.warningBytes;
  // A fresh array per row (ChannelMapper.lastMask, or a worker's clone): kept as it is.
  if (copy.mask.length > 0) packed.m = copy.mask as number[];
  if (warnings.length > 0) packed.w = packReasons(warnings);
  for (const _ in fallbacks) {
    packed.f = fallbacks;
    break;
  }
  return packed;
}

/** An exclusion's outcome, packed. */
export function excludedOutcome(reasons: readonly Reason<string>[], reportBytes: number): Outcome {
  return { r: packReasons(reasons), rb: reportBytes };
}

/**
 * Outcomes cross from a worker thread to the main thread as their JSON text, one string per
 * channel and batch: a structured clone of 22 channels' outcome objects cost ~57 us a product
 * (serialize in the worker, deserialize here), the same as text ~6 us. A worker packs an item
 * with the offset 0 (it does not know where its row lands); the main thread puts the offset in
 * (withOffset), giving the very text JSON.stringify gives in the main thread's own path.
 */
const ITEM_AT_ZERO = '{"o":0,';

/** An outcome's text with its offset set, for a worker's item (offset 0); an exclusion's text unchanged. */
export function withOffset(text: string, offset: number): string {
  return text.startsWith(ITEM_AT_ZERO) ? `{"o":${offset},${text.slice(ITEM_AT_ZERO.length)}` : text;
}

/** An item's row bytes from its text (`{"o":N,"l":<bytes>,...`); undefined for an exclusion. */
export function itemBytes(text: string): number | undefined {
  if (!text.startsWith('{"o":')) return undefined;
  const at = text.indexOf('"l":');
  return at < 0 ? undefined : Number.parseInt(text.slice(at + 4), 10);
}

export const unpackReasons = (reasons: [string, string?][]): Reason<string>[] => reasons.map(([code, detail]) => (detail === undefined ? { code } : { code, detail }));

export function unpackOutcome(packed: Outcome | undefined): ChannelOutcome | undefined {
  if (packed === null || packed === undefined) return undefined;
  if ("r" in packed) return { kind: "excluded", reasons: unpackReasons(packed.r), reportBytes: packed.rb };
  return { kind: "item", offset: packed.o, bytes: packed.l, warnings: unpackReasons(packed.w ?? []), fallbacks: packed.f ?? {}, warningBytes: packed.wb ?? 0, mask: packed.m ?? [] };
}
