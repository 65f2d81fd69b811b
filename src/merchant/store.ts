/**
 * output/state/merchant.sqlite: what Google did with each product of each feed that has
 * a Merchant Center account, as the last read-back found it. Its own file beside the
 * explain index (never mixed into it): explain, the status page, the issues report and
 * the alerts read it. Built beside and renamed into place (store/sqlite.ts); a feed
 * whose read-back failed keeps the rows of the previous file, with its error noted.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildStore, openStore, type Db, type StoreBuilder } from "../store/sqlite.js";
import type { AccountIssue, ItemLevelIssue, Product } from "./schemas.js";
import { countriesOf, type CountryVerdict, mergeIssues, type ProductIssue, type ProductState, stateOf } from "./verdict.js";
import { MERCHANT_FILE, STATE_DIR } from "../core/layout.js";

export const MERCHANT_KIND = { name: "merchant", version: 1 };

export function merchantFile(outputDir: string): string {
  return join(outputDir, STATE_DIR, MERCHANT_FILE);
}

export interface TopIssue {
  code: string;
  severity: string;
  attribute?: string;
  description?: string;
  documentation?: string;
  products: number;
}

export interface FeedSummary {
  channel: string;
  accountId: string;
  /** When these statuses were read (the last successful read-back). */
  syncedAt: string;
  products: number;
  approved: number;
  pending: number;
  disapproved: number;
  /** Products Google sent that could not be read (counted, named in the log). */
  unreadable: number;
  accountIssues: AccountIssue[];
  /** The most frequent item issues, most products first. */
  topIssues: TopIssue[];
  /** Why the last read-back failed (these rows are then the previous one's). */
  error?: string;
  errorAt?: string;
}

export interface GoogleVerdict {
  channel: string;
  accountId: string;
  syncedAt: string;
  offerId: string;
  state: ProductState;
  countries: CountryVerdict[];
  /** Once each, with the reporting contexts Google listed it in. */
  issues: ProductIssue[];
}

const TOP = 20;

/** Counts and issue tallies of one feed while its products are written. */
export class FeedTally {
  readonly summary: Omit<FeedSummary, "topIssues" | "accountIssues">;
  readonly #issues = new Map<string, TopIssue>();

  constructor(channel: string, accountId: string, syncedAt: string) {
    this.summary = { channel, accountId, syncedAt, products: 0, approved: 0, pending: 0, disapproved: 0, unreadable: 0 };
  }

  count(state: ProductState, issues: readonly ItemLevelIssue[]): void {
    this.summary.products++;
    if (state !== "none") this.summary[state]++;
    for (const i of issues) {
      const key = `${i.code}|${i.attribute ?? ""}`;
      const top = this.#issues.get(key) ?? { code: i.code, severity: i.severity, ...(i.attribute ? { attribute: i.attribute } : {}), ...(i.description ? { description: i.description } : {}), ...(i.documentation ? { documentation: i.documentation } : {}), products: 0 };
      top.products++;
      this.#issues.set(key, top);
    }
  }

  top(): TopIssue[] {
    return [...this.#issues.values()].sort((a, b) => b.products - a.products || a.code.localeCompare(b.code)).slice(0, TOP);
  }
}

export class MerchantStoreWriter {
  readonly #insert;
  readonly #feed;
  private constructor(
    private readonly builder: StoreBuilder,
    private readonly previous: boolean,
  ) {
    const db = builder.db;
    this.#insert = db.prepare("INSERT INTO products (channel, offer_id, state, verdict) VALUES (?, ?, ?, ?)");
    this.#feed = db.prepare("INSERT OR REPLACE INTO feeds (channel, summary) VALUES (?, ?)");
  }

  static async open(outputDir: string): Promise<MerchantStoreWriter> {
    const file = merchantFile(outputDir);
    const builder = await buildStore(file, MERCHANT_KIND);
    const db = builder.db;
    db.exec("CREATE TABLE feeds (channel TEXT PRIMARY KEY, summary TEXT NOT NULL)");
    db.exec("CREATE TABLE products (channel TEXT NOT NULL, offer_id TEXT NOT NULL, state TEXT NOT NULL, verdict TEXT NOT NULL)");
    let previous = false;
    if (existsSync(file)) {
      // Checked as a store of this kind first (a file of another version is not copied from).
      const old = MerchantStore.openFile(file);
      old?.close();
      if (old) {
        db.prepare("ATTACH DATABASE ? AS previous").run(file);
        previous = true;
      }
    }
    return new MerchantStoreWriter(builder, previous);
  }

  /** The last read-back's summary of a channel, for the alerts' comparison. */
  previousSummary(channel: string): FeedSummary | undefined {
    if (!this.previous) return undefined;
    const row = this.builder.db.prepare("SELECT summary FROM previous.feeds WHERE channel = ?").get(channel) as { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as FeedSummary) : undefined;
  }

  /** Writes one product's verdict; returns what the tally needs. */
  put(channel: string, product: Product): { state: ProductState; issues: ProductIssue[] } {
    const countries = countriesOf(product.productStatus);
    const issues = mergeIssues(product.productStatus?.itemLevelIssues ?? []);
    const state = stateOf(countries, issues);
    this.#insert.run(channel, product.offerId, state, JSON.stringify({ c: countries, i: issues }));
    return { state, issues };
  }

  /** Many puts in one transaction (a page of products). */
  batch<T>(work: () => T): T {
    return this.builder.db.transaction(work)();
  }

  finishFeed(summary: FeedSummary): void {
    this.#feed.run(summary.channel, JSON.stringify(summary));
  }

  /** A failed read-back: the previous rows stay, with the error beside them. Returns the kept summary. */
  keep(channel: string, error: string, at: string): FeedSummary | undefined {
    const last = this.previousSummary(channel);
    if (!last) return undefined;
    this.builder.db.prepare("INSERT INTO products SELECT * FROM previous.products WHERE channel = ?").run(channel);
    const kept = { ...last, error, errorAt: at };
    this.finishFeed(kept);
    return kept;
  }

  async commit(): Promise<void> {
    const db = this.builder.db;
    if (this.previous) db.exec("DETACH DATABASE previous");
    db.exec("CREATE INDEX products_offer ON products (offer_id)");
    db.exec("CREATE INDEX products_state ON products (channel, state)");
    await this.builder.commit();
  }

  async abort(): Promise<void> {
    await this.builder.abort();
  }
}

export class MerchantStore {
  private constructor(private readonly db: Db) {}

  static openFile(file: string): MerchantStore | undefined {
    const db = openStore(file, MERCHANT_KIND);
    return db ? new MerchantStore(db) : undefined;
  }

  static open(outputDir: string): MerchantStore | undefined {
    return MerchantStore.openFile(merchantFile(outputDir));
  }

  feeds(): FeedSummary[] {
    const rows = this.db.prepare("SELECT summary FROM feeds ORDER BY channel").all() as { summary: string }[];
    return rows.map((r) => JSON.parse(r.summary) as FeedSummary);
  }

  /** Google's verdicts on one product, one per feed that has it. */
  verdicts(offerId: string): GoogleVerdict[] {
    const feeds = new Map(this.feeds().map((f) => [f.channel, f]));
    const rows = this.db.prepare("SELECT channel, offer_id, state, verdict FROM products WHERE offer_id = ? ORDER BY channel").all(offerId) as Row[];
    return rows.map((r) => verdictOf(r, feeds.get(r.channel)));
  }

  /** Products of a feed in a state (disapproved first on the status page), or whose issue matches `words`. */
  find(options: { channel?: string; state?: ProductState; words?: string; limit: number }): GoogleVerdict[] {
    const where: string[] = [];
    const args: unknown[] = [];
    const add = (clause: string, ...values: unknown[]): void => {
      where.push(clause);
      args.push(...values);
    };
    if (options.channel) add("channel = ?", options.channel);
    if (options.state) add("state = ?", options.state);
    // An id, or words of an issue (its code, attribute or Google's description).
    if (options.words) add("(offer_id = ? OR instr(lower(verdict), lower(?)) > 0)", options.words, options.words);
    const sql = `SELECT channel, offer_id, state, verdict FROM products ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY channel, offer_id LIMIT ?`;
    const feeds = new Map(this.feeds().map((f) => [f.channel, f]));
    return (this.db.prepare(sql).all(...args, options.limit) as Row[]).map((r) => verdictOf(r, feeds.get(r.channel)));
  }

  /** Every product with an issue, feed by feed, for reports/google-issues.csv. */
  *withIssues(): Generator<GoogleVerdict> {
    const feeds = new Map(this.feeds().map((f) => [f.channel, f]));
    for (const r of this.db.prepare("SELECT channel, offer_id, state, verdict FROM products WHERE verdict NOT LIKE '%\"i\":[]}' ORDER BY channel, offer_id").iterate() as Iterable<Row>) {
      yield verdictOf(r, feeds.get(r.channel));
    }
  }

  close(): void {
    this.db.close();
  }
}

interface Row {
  channel: string;
  offer_id: string;
  state: ProductState;
  verdict: string;
}

function verdictOf(row: Row, feed: FeedSummary | undefined): GoogleVerdict {
  const { c, i } = JSON.parse(row.verdict) as { c: CountryVerdict[]; i: ItemLevelIssue[] };
  // Merged again when read: a file of an earlier read-back kept one entry per context.
  return { channel: row.channel, accountId: feed?.accountId ?? "", syncedAt: feed?.syncedAt ?? "", offerId: row.offer_id, state: row.state, countries: c, issues: mergeIssues(i) };
}
