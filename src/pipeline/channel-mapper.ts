/**
 * What one channel does with one product, wherever it runs (the main thread, or
 * a worker thread of a sharded run, see shard/): map, then render the feed row
 * or the exclusion report's line, and count. No I/O: the caller writes the text.
 */
import { deniedRowKey } from "../policy/index.js";
import type { Product } from "../catalogue/schemas/product.js";
import { compileChannel, type CompiledChannel } from "../mapping/compile.js";
import type { MappingContext } from "../mapping/context.js";
import type { FeedItem, ImageSource } from "../mapping/feed-item.js";
import { mapProduct, type MapResult } from "../mapping/map-product.js";
import { selectImageSources } from "../mapping/photos.js";
import { isDataQualityReason, type Reason, type WarningCode } from "../mapping/reasons.js";
import type { ChannelMapping } from "../mapping/settings.js";
import { exclusionCells, exclusionLine, exclusionLineOf, type ReportProduct, warningLines } from "../publish/exclusion-report.js";
import { productFacts } from "../mapping/facts.js";
import { resolveLocalized } from "../mapping/locale.js";
import { mappingKey, sharedMapping } from "../mapping/locale-cache.js";
import { productLines } from "../mapping/product-cache.js";
import { rowStringifier } from "../writers/csv.js";
import type { LoadedLayout, OutputFormat } from "../writers/layout.js";
import { WRITERS } from "../writers/registry.js";
import type { FeedMeta, FeedWriter } from "../writers/types.js";
import { type ItemFacts, itemFacts } from "../mapping/item-facts.js";
import type { EntryOutcome } from "../rowcache/file.js";

/** A channel's counts; a sharded run adds up those of its workers. */
export interface Tally {
  items: number;
  /** Exclusions for bad data (the publish gate's rejection rate). */
  rejected: number;
  excluded: Record<string, number>;
  warnings: Record<string, number>;
  /** "field:locale" -> items that took that field from a fallback locale. */
  fallbacks: Record<string, number>;
  /** Per column of the writer (FeedWriter.columns), how many rows filled it; summed across workers. */
  filled: number[];
  /** Products a health policy row left out (POLICY_DENIED), by the row's key ("google FR pharmacy-medicine"). */
  policy: Record<string, number>;
}

export function emptyTally(): Tally {
  return { items: 0, rejected: 0, excluded: {}, warnings: {}, fallbacks: {}, filled: [], policy: {} };
}

function hasKeys(record: Record<string, string>): boolean {
  for (const _ in record) return true;
  return false;
}

function bump(counts: Record<string, number>, key: string, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}

/** Adds a row's marks to the counts; returns them as a mask (see ChannelMapper.lastMask). */
function countMarks(marks: readonly number[], counts: number[]): number[] {
  const mask: number[] = [];
  for (let i = 0; i < marks.length; i++) {
    if (!marks[i]) continue;
    counts[i] = (counts[i] ?? 0) + 1;
    const w = (i / 31) | 0;
    while (mask.length <= w) mask.push(0);
    mask[w]! |= 1 << i % 31;
  }
  return mask;
}

/** Adds `times` rows of this mask to the counts. */
export function addMask(mask: readonly number[], counts: number[], times = 1): void {
  for (let w = 0; w < mask.length; w++) {
    for (let bits = mask[w]!, i = 0; bits !== 0; bits >>>= 1, i++) if (bits & 1) counts[31 * w + i] = (counts[31 * w + i] ?? 0) + times;
  }
}

export function addTally(into: Tally, from: Tally): void {
  into.items += from.items;
  into.rejected += from.rejected;
  for (const key of ["excluded", "warnings", "fallbacks", "policy"] as const) {
    for (const [k, n] of Object.entries(from[key])) bump(into[key], k, n);
  }
  from.filled.forEach((n, i) => (into.filled[i] = (into.filled[i] ?? 0) + n));
}

/** What a channel needs to map and render; plain data, so that it crosses to a worker thread. */
export interface MapperSpec {
  name: string;
  mapping: ChannelMapping;
  layout: LoadedLayout;
  format: OutputFormat;
  meta: FeedMeta;
}

/** A product of an image-processing channel: mapped, with the photos its image jobs start from. */
export interface MappedForImages {
  id: string;
  /** Who the report lines are about. */
  who: ReportProduct;
  result: MapResult;
  sources: ImageSource[];
}

/** The row of an item (and its warnings report lines, maybe ""), or the report line of an exclusion, with what the explain index keeps of them. */
export type Outcome =
  | { row: string; report?: undefined; warningLines: string; warnings: readonly Reason<WarningCode>[]; fallbacks: Record<string, string> }
  | { row?: undefined; report: string; reasons: readonly Reason[] };

export class ChannelMapper {
  readonly compiled: CompiledChannel;
  readonly writer: FeedWriter;
  tally: Tally = emptyTally();
  /**
   * The columns the last row filled, 31 per number (bit i of word w: column 31w + i); empty for a
   * writer without columns. A reused row (src/rowcache/) adds these to the tally as if rendered.
   */
  lastMask: number[] = [];
  /** What the feed history compares of the last row (mapping/item-facts.ts). */
  lastFacts: ItemFacts | undefined;
  /** One csv-stringify instance per report: a run writes a line per excluded product per channel. */
  private readonly reportLine = rowStringifier({});

  private readonly mappingKey: number;

  constructor(spec: MapperSpec) {
    this.compiled = compileChannel(spec.mapping, spec.name);
    this.mappingKey = mappingKey(spec.mapping);
    this.writer = WRITERS[spec.format].create(spec.layout, spec.meta);
  }

  /** The product mapped with this channel's settings: once per product for all channels with the same settings (locale-cache.ts). */
  private mapped(product: Product, context: MappingContext): MapResult {
    return sharedMapping(context, product, this.mappingKey, () => mapProduct(product, this.compiled, context));
  }

  /** Maps and renders; a writer that throws (a broken custom template) throws here. */
  map(product: Product, context: MappingContext): Outcome {
    const result = this.mapped(product, context);
    if (!result.ok) return { report: this.excluded(product, context, result.reasons), reasons: result.reasons };
    const lines = result.warnings.length > 0 || hasKeys(result.fallbacks) ? this.warningLines(this.who(product, context), result.warnings, result.fallbacks) : "";
    return { row: this.row(result.item, result.warnings, result.fallbacks, product.id), warningLines: lines, warnings: result.warnings, fallbacks: result.fallbacks };
  }

  /** Id, GTIN, name and brand in the channel's language, for the reports (only for products that get a report line). */
  who(product: Product, context: MappingContext): ReportProduct {
    const facts = productFacts(product, context);
    const chain = this.compiled.chain;
    let brand: string | undefined;
    for (const raw of facts.brandNames) {
      brand = resolveLocalized(raw, chain)?.value.trim();
      if (brand !== undefined) break;
    }
    return { id: product.id, gtin: facts.gtins.valid[0]?.digits ?? facts.gtins.invalid[0], name: resolveLocalized(product.name, chain)?.value.trim(), brand };
  }

  /** The warnings report's lines of an item ("" without warnings or fallbacks). */
  warningLines(who: ReportProduct, warnings: readonly Reason<WarningCode>[], fallbacks: Record<string, string>): string {
    return warningLines(this.reportLine, who, warnings, fallbacks, this.compiled.settings);
  }

  /** Maps only: the row waits for the images (at most 1 + maxAdditional photos). */
  mapForImages(product: Product, context: MappingContext, maxAdditional: number): MappedForImages {
    const result = this.mapped(product, context);
    const sources = result.ok ? selectImageSources(product, this.compiled.images).slice(0, 1 + maxAdditional) : [];
    return { id: product.id, who: this.who(product, context), result, sources };
  }

  /** A product a policy row left out, under the row's key. */
  private countPolicy(detail: string | undefined): void {
    const key = deniedRowKey(detail);
    if (key !== undefined) bump(this.tally.policy, key);
  }

  /** Counts an exclusion; returns its report line. */
  exclusion(who: ReportProduct, reasons: readonly Reason[]): string {
    this.countExclusion(reasons);
    return exclusionLine(this.reportLine, who, reasons, this.compiled.settings);
  }

  private countExclusion(reasons: readonly Reason[]): void {
    const code = reasons[0]?.code ?? "MAPPING_ERROR";
    bump(this.tally.excluded, code);
    if (isDataQualityReason(code)) this.tally.rejected++;
    this.countPolicy(reasons.find((r) => r.code === "POLICY_DENIED")?.detail);
  }

  /**
   * As exclusion(), the line written once per product for every channel and shop that says the
   * same of it (the same language, the same reasons): rendering a report line (its cells checked
   * and quoted by csv-stringify) cost a run of many shops more than deciding the exclusion.
   */
  private excluded(product: Product, context: MappingContext, reasons: readonly Reason[]): string {
    this.countExclusion(reasons);
    const reason = exclusionCells(reasons, this.compiled.settings);
    const lines = productLines(context.memo.catalogue, product);
    const key = `${this.compiled.chainKey}\u0000${reason.code}\u0000${reason.detail}\u0000${reason.others}`;
    let line = lines.get(key);
    if (line === undefined) lines.set(key, (line = exclusionLineOf(this.reportLine, this.who(product, context), reason)));
    return line;
  }

  /**
   * The masks of copied rows, counted by mask and added to the tally once (settledTally()): most rows
   * of a channel fill the same columns, and a refresh copies some 1.7 million rows.
   */
  private readonly copiedMasks = new Map<number | string, { mask: readonly number[]; rows: number }>();

  /** The tally, with the copied rows' masks added. */
  settledTally(): Tally {
    for (const { mask, rows } of this.copiedMasks.values()) addMask(mask, this.tally.filled, rows);
    this.copiedMasks.clear();
    return this.tally;
  }

  /** Counts a product whose row or report line a refresh copied (src/rowcache/) as exclusion() or row() counted it. */
  countCopied(outcome: Exclude<EntryOutcome, null>): void {
    if ("r" in outcome) {
      const code = outcome.r[0]?.[0] ?? "MAPPING_ERROR";
      bump(this.tally.excluded, code);
      if (isDataQualityReason(code)) this.tally.rejected++;
      this.countPolicy(outcome.r.find(([c]) => c === "POLICY_DENIED")?.[1]);
      return;
    }
    for (const [code] of outcome.w ?? []) bump(this.tally.warnings, code);
    for (const field in outcome.f) bump(this.tally.fallbacks, `${field}:${outcome.f[field]}`);
    if (outcome.m) {
      const key = outcome.m.length === 1 ? outcome.m[0]! : outcome.m.join(",");
      const seen = this.copiedMasks.get(key);
      if (seen) seen.rows++;
      else this.copiedMasks.set(key, { mask: outcome.m, rows: 1 });
    }
    this.tally.items++;
  }

  /** Counts an item; returns its row. */
  row(item: FeedItem, warnings: readonly Reason<WarningCode>[], fallbacks: Record<string, string>, catalogueId: string): string {
    // The writer marks the cells this row fills in its live array, emptied first: this row's marks only.
    const marks = this.writer.filled;
    if (marks) marks.length = 0;
    const row = this.writer.row(item);
    if (marks) this.lastMask = countMarks(marks, this.tally.filled);
    this.lastFacts = itemFacts(item, catalogueId);
    for (const warning of warnings) bump(this.tally.warnings, warning.code);
    for (const field in fallbacks) bump(this.tally.fallbacks, `${field}:${fallbacks[field]}`);
    this.tally.items++;
    return row;
  }
}
