/**
 * What the explain index keeps of one product and of what each channel did with
 * it. Plain data: a worker thread builds these and posts them to the main
 * thread (structured clone), which writes them (run-hook.ts).
 */
import type { Product } from "../catalogue/schemas/product.js";
import { parseGtin, productGtins } from "../mapping/gtin.js";
import type { Reason } from "../mapping/reasons.js";

/** A product as explain finds and shows it. */
export interface IndexProduct {
  id: string;
  /** Every valid code (GTINs, CIP13, ACL13) as its 14-digit key: a lookup by any width pads to 14. */
  codes: string[];
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
}

/** What one channel did with one product, before the main thread knows where its row lands in the file. */
export type PartOutcome =
  | ({ kind: "item"; bytes: number; warnings: readonly Reason<string>[]; fallbacks: Record<string, string> } & ItemCopy)
  | { kind: "excluded"; reasons: readonly Reason<string>[]; reportBytes: number };

/** The same with the row's place in the published file (byte offset and length, uncompressed). */
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

export function indexProduct(product: Product): IndexProduct {
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

/** Packed form of an outcome in the index: short keys, empty parts left out. */
export type PackedOutcome = { o: number; l: number; w?: [string, string?][]; f?: Record<string, string> } | { r: [string, string?][] } | null;

const packReasons = (reasons: readonly Reason<string>[]): [string, string?][] => reasons.map((r) => (r.detail === undefined ? [r.code] : [r.code, r.detail]));

export function packOutcome(outcome: ChannelOutcome | undefined): PackedOutcome {
  if (outcome === undefined) return null;
  if (outcome.kind === "excluded") return { r: packReasons(outcome.reasons) };
  const packed: PackedOutcome = { o: outcome.offset, l: outcome.bytes };
  if (outcome.warnings.length > 0) packed.w = packReasons(outcome.warnings);
  if (Object.keys(outcome.fallbacks).length > 0) packed.f = outcome.fallbacks;
  return packed;
}

export const unpackReasons = (reasons: [string, string?][]): Reason<string>[] => reasons.map(([code, detail]) => (detail === undefined ? { code } : { code, detail }));

export function unpackOutcome(packed: PackedOutcome): ChannelOutcome | undefined {
  if (packed === null) return undefined;
  if ("r" in packed) return { kind: "excluded", reasons: unpackReasons(packed.r), reportBytes: 0 };
  return { kind: "item", offset: packed.o, bytes: packed.l, warnings: unpackReasons(packed.w ?? []), fallbacks: packed.f ?? {}, warningBytes: 0, mask: [] };
}
