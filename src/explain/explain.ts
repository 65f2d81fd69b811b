/**
 * `pharmafeed explain`: what the last run did with a product, per channel.
 *
 *   query ─> id? ─> code (GTIN any width, CIP13)? ─> words in the names?   (the run's index)
 *     └─ an id or code the last run never received ─> one catalogue request ─> source filter judged
 *   per channel: a row is read only from the very file the index was written for (freshness.ts);
 *   for a channel whose served file is another one, the answer comes from its report instead.
 *
 * The answer is plain data (printed as JSON with --json, or by render.ts).
 */
import type { Product } from "../catalogue/schemas/product.js";
import { PHARMACY_CODES } from "../mapping/pharmacy-codes.js";
import { fallbackDetail, reasonDetail } from "../mapping/reason-details.js";
import { ChannelMapping } from "../mapping/settings.js";
import type { GoogleAnswer } from "../merchant/explain.js";
import { nationalCodeKey, unpackOutcome } from "./entry.js";
import { type IndexFreshness, indexFreshness } from "./freshness.js";
import { readRow } from "./read-row.js";
import { lookUpReport, type ReportedExclusion } from "./report-lookup.js";
import { judgeSourceFilter } from "./source-filter.js";
import { type ExplainIndex, type IndexRow, nameColumn } from "./store.js";

export interface ReasonAnswer {
  code: string;
  /** Plain words: what the channel looked for and did not find, then the mapping's detail. */
  detail: string;
}

export interface ChannelAnswer {
  channel: string;
  outcome: "in_feed" | "left_out" | "channel_failed" | "not_run";
  file?: string;
  /** in_feed: the row or item exactly as written in the published file, with its place. */
  row?: string;
  offset?: number;
  bytes?: number;
  /** Why the row is not shown (file not published, changed since). */
  rowNote?: string;
  /**
   * The index was written for another file than the one served now (freshness.ts): why. The outcome is
   * then the channel's report's when it lists the product (`from: "report"`), else the index's, as of its run.
   */
  stale?: string;
  from?: "index" | "report";
  warnings?: ReasonAnswer[];
  fallbacks?: { field: string; locale: string; detail: string }[];
  reasons?: ReasonAnswer[];
  /** Google's own verdict from the Merchant API read-back (src/merchant/explain.ts), when the feed has an account. */
  google?: GoogleAnswer;
}

export interface ProductAnswer {
  id: string;
  gtin?: string;
  cip13?: string;
  /** In the channel's language with --channel, else the first name the catalogue sends. */
  name?: string;
  brand?: string;
  channels: ChannelAnswer[];
}

export interface CatalogueAnswer {
  found: boolean;
  /** Why the last run did not receive it, in words. */
  why: string[];
  product?: { id: string; name?: string; status: string };
}

export interface ExplainAnswer {
  query: string;
  matchedBy: "id" | "code" | "words" | "catalogue" | "none";
  /** When the run that wrote the index started. */
  runStartedAt: string;
  /** Channels whose served file is not the one the index describes (no row is read from them), and the served run when newer. */
  staleChannels?: string[];
  servedRunAt?: string;
  /** Matches in all (words may find more than are shown). */
  total: number;
  products: ProductAnswer[];
  catalogue?: CatalogueAnswer;
}

export interface ExplainInput {
  index: ExplainIndex;
  outputDir: string;
  /** The config's channels, for their settings (reasons in words). */
  channels: readonly { name: string; mapping: ChannelMapping }[];
  query: string;
  channel?: string;
  /** Products shown for words (default 20). */
  limit?: number;
  /** The source filter, to judge a product the run never received. */
  sourceFilter: Record<string, unknown>;
  /** One catalogue request for an id or code the index lacks; undefined: no catalogue at hand. */
  fetchProduct?: (query: string) => Promise<Product | undefined>;
}

const DEFAULT_SETTINGS = ChannelMapping.parse({});

/** One token with a digit: an id or a code; anything else is words. */
export function looksLikeIdentifier(query: string): boolean {
  return /^\S+$/.test(query) && /\d/.test(query);
}

function pickName(names: Record<string, string>, locale: string | undefined): string | undefined {
  if (locale !== undefined) {
    const base = locale.split(/[-_]/)[0] ?? locale;
    const hit = names[locale] ?? names[base];
    if (hit !== undefined) return hit;
  }
  return Object.values(names)[0];
}

/** What a query knows besides the index: which channels are stale, and their reports' lines for the products asked about. */
interface Checked {
  freshness: IndexFreshness;
  reports: Map<string, Map<string, ReportedExclusion> | undefined>;
}

async function check(input: ExplainInput, rows: readonly IndexRow[]): Promise<Checked> {
  const freshness = await indexFreshness(input.outputDir, input.index);
  const ids = new Set(rows.map((r) => r.id));
  const wanted = freshness.stale.filter((name) => input.channel === undefined || name === input.channel);
  const reports = new Map(await Promise.all(wanted.map(async (name) => [name, await lookUpReport(input.outputDir, name, ids)] as const)));
  return { freshness, reports };
}

async function productAnswer(input: ExplainInput, row: IndexRow, checked: Checked): Promise<ProductAnswer> {
  const settingsOf = new Map(input.channels.map((c) => [c.name, c.mapping]));
  const wanted = input.channel === undefined ? input.index.meta.channels.map((c) => c.name) : [input.channel];
  const channels: ChannelAnswer[] = [];
  for (const name of wanted) {
    const at = input.index.meta.channels.findIndex((c) => c.name === name);
    const meta = input.index.meta.channels[at];
    if (!meta) {
      channels.push({ channel: name, outcome: "not_run" });
      continue;
    }
    const settings = settingsOf.get(name) ?? DEFAULT_SETTINGS;
    const outcome = unpackOutcome(row.outcomes[at] ?? null);
    const fresh = checked.freshness.channels.get(name);
    const stale = meta.published === true && fresh && !fresh.current ? fresh.why : undefined;
    const reported = stale === undefined ? undefined : checked.reports.get(name)?.get(row.id);
    if (stale !== undefined && reported) {
      const codes = [reported.reason, ...reported.otherReasons];
      channels.push({ channel: name, outcome: "left_out", stale, from: "report", reasons: codes.map((code, i) => ({ code, detail: i === 0 ? reported.detail : reasonDetail({ code }, settings) })) });
    } else if (!outcome) channels.push({ channel: name, outcome: "channel_failed", file: meta.file });
    else if (outcome.kind === "excluded") {
      channels.push({ channel: name, outcome: "left_out", ...(stale !== undefined ? { stale, from: "index" as const } : {}), reasons: outcome.reasons.map((r) => ({ code: r.code, detail: reasonDetail(r, settings) })) });
    } else {
      // Never a row from a file the index was not written for: its offsets would cut another product's.
      const read = stale !== undefined ? { ok: false as const, why: stale } : fresh && !fresh.current ? { ok: false as const, why: fresh.why } : await readRow(input.outputDir, meta, outcome.offset, outcome.bytes);
      channels.push({
        channel: name,
        outcome: "in_feed",
        file: meta.file,
        offset: outcome.offset,
        bytes: outcome.bytes,
        ...(read.ok ? { row: read.text } : { rowNote: read.why }),
        ...(stale !== undefined ? { stale, from: "index" as const } : {}),
        warnings: outcome.warnings.map((w) => ({ code: w.code, detail: reasonDetail(w, settings) })),
        fallbacks: Object.entries(outcome.fallbacks).map(([field, locale]) => ({ field, locale, detail: fallbackDetail(field, locale, settings) })),
      });
    }
  }
  const locale = input.channel === undefined ? undefined : input.index.meta.channels.find((c) => c.name === input.channel)?.locale;
  const name = pickName(row.names, locale);
  return {
    id: row.id,
    ...(row.gtin ? { gtin: row.gtin } : {}),
    ...(row.cip13 ? { cip13: row.cip13 } : {}),
    ...(name ? { name } : {}),
    ...(row.brand ? { brand: row.brand } : {}),
    channels,
  };
}

/** What the catalogue says of a product the last run did not receive (`product`: its one-request lookup of the query). */
function fromCatalogue(input: ExplainInput, product: Product | undefined): CatalogueAnswer {
  if (!product) return { found: false, why: ["not in the catalogue"] };
  const verdict = judgeSourceFilter(input.sourceFilter, product);
  const status = product.status ?? "active";
  const name = product.name && typeof product.name === "object" ? Object.values(product.name as Record<string, unknown>).find((v): v is string => typeof v === "string") : undefined;
  const why =
    verdict.selects === false
      ? verdict.why
      : verdict.selects === true
        ? [`the source filter selects it now: it was added or changed after the last run (${input.index.meta.startedAt})`]
        : [`the last run did not receive it; ${verdict.why.join("; ")}`];
  return { found: true, why, product: { id: product.id, status, ...(name ? { name } : {}) } };
}

function nationalCodeRows(index: ExplainInput["index"], query: string): IndexRow[] {
  const rows = new Map<string, IndexRow>();
  for (const [kind, code] of Object.entries(PHARMACY_CODES)) {
    const checked = code.check(query);
    if (!checked.ok) continue;
    for (const row of index.byCode(nationalCodeKey(kind, checked.value))) rows.set(row.id, row);
  }
  return [...rows.values()];
}

export async function explain(input: ExplainInput): Promise<ExplainAnswer> {
  const query = input.query.trim();
  const base = { query, runStartedAt: input.index.meta.startedAt };
  const found = async (matchedBy: ExplainAnswer["matchedBy"], total: number, rows: IndexRow[]): Promise<ExplainAnswer> => {
    const checked = await check(input, rows);
    const { stale, servedRunAt } = checked.freshness;
    const products = await Promise.all(rows.map((r) => productAnswer(input, r, checked)));
    return { ...base, ...(stale.length > 0 ? { staleChannels: stale } : {}), ...(servedRunAt !== undefined ? { servedRunAt } : {}), matchedBy, total, products };
  };
  const byId = input.index.byId(query);
  if (byId) return found("id", 1, [byId]);
  if (/^\d{8,14}$/.test(query)) {
    const rows = input.index.byCode(query.padStart(14, "0"));
    if (rows.length > 0) return found("code", rows.length, rows);
  }
  // A national pharmacy code as the shop writes it ("PZN 04877800", "3012-345"): every kind it passes the check of.
  const national = nationalCodeRows(input.index, query);
  if (national.length > 0) return found("code", national.length, national);
  if (looksLikeIdentifier(query)) {
    if (!input.fetchProduct) return { ...base, matchedBy: "none", total: 0, products: [] };
    const product = await input.fetchProduct(input.query);
    // The catalogue finds codes the index does not key (a GTIN whose check digit is wrong is no
    // GTIN to the mapping): a product the last run received is explained from the index, not
    // said "added after the last run" (a review found it so).
    const received = product ? input.index.byId(product.id) : undefined;
    if (received) return found("code", 1, [received]);
    return { ...base, matchedBy: "catalogue", total: 0, products: [], catalogue: fromCatalogue(input, product) };
  }
  const locale = input.channel === undefined ? undefined : input.index.meta.channels.find((c) => c.name === input.channel)?.locale;
  const { total, rows } = input.index.byWords(query, locale === undefined ? undefined : nameColumn(locale), input.limit ?? 20);
  return found(total > 0 ? "words" : "none", total, rows);
}
