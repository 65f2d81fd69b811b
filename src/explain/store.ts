/**
 * output/state/explain.sqlite: what the last run did with every product, for
 * `pharmafeed explain` and the status page's search. One row per product (its
 * codes, names, brand), its packed outcomes (one per channel) in a table of their
 * own, a table of codes (14-digit keys) and a word index of the names (FTS5, one
 * column per language).
 *
 * The outcomes stand apart because a refresh that copies rows (src/rowcache/)
 * maps the same products as the last run, in the same order: it copies the last
 * index and writes the outcomes only (their row offsets moved), instead of
 * indexing every name again (~25 us per product, most of such a refresh).
 *
 * Written in transactions of BATCH products, so memory stays flat however many
 * products a run has; the lookup indexes are built once at the end (faster than
 * keeping them up to date row by row). Built beside and renamed into place by
 * store/sqlite.ts: a reader sees the previous run's index or this one's.
 */
import { join } from "node:path";
import type { FileIdentity } from "../publish/file-identity.js";
import { buildStore, openStore, STATE_DIR, storeMeta, type Db, type StoreBuilder } from "../store/sqlite.js";
import type { IndexProduct, PackedOutcome } from "./entry.js";

export const EXPLAIN_KIND = { name: "explain", version: 2 };
export const EXPLAIN_FILE = "explain.sqlite";

export function explainFile(outputDir: string): string {
  return join(outputDir, STATE_DIR, EXPLAIN_FILE);
}

/** Word index columns: the catalogue's languages, and one for any other. */
export const NAME_COLUMNS = ["fr", "nl", "en", "de", "other"] as const;
export type NameColumn = (typeof NAME_COLUMNS)[number];

/** The column of a locale ("fr-BE" -> fr, "es" -> other). */
export function nameColumn(locale: string): NameColumn {
  const base = locale.split(/[-_]/)[0]?.toLowerCase() ?? "";
  return (NAME_COLUMNS as readonly string[]).includes(base) ? (base as NameColumn) : "other";
}

/** Products per transaction: large enough that commits cost little, small enough that nothing piles up. */
const BATCH = 5000;

/** A channel as the index knows it: where its rows are and whether that file is the one being served. */
export interface IndexChannel {
  name: string;
  file: string;
  locale: string;
  format: string;
  /** true, or why this run's file was not published (its rows are then not in the served file). */
  published: true | string;
  /** Size of this run's file. */
  bytes: number;
  /** The file's sha256 as the manifest records it, and its identity once published: explain reads a row only from that very file (freshness.ts). Absent in indexes of older versions. */
  sha256?: string;
  identity?: FileIdentity;
}

export interface IndexRunMeta {
  startedAt: string;
  channels: IndexChannel[];
  /** Products indexed (a copy for a refresh checks it, see ExplainIndexWriter.copying). */
  products?: number;
}

export class ExplainIndexWriter {
  private inBatch = 0;
  private pid = 0;
  private readonly insertProduct;
  private readonly insertOutcomes;
  private readonly insertCode;
  private readonly insertNames;
  private readonly begin;
  private readonly commitTx;

  /** `copied`: the products, codes and words are a copy of the last index (only outcomes are added). */
  private constructor(
    private readonly builder: StoreBuilder,
    private readonly copied: boolean,
  ) {
    const db = builder.db;
    if (copied) db.exec("DELETE FROM outcomes");
    else {
      db.exec(`CREATE TABLE products (id TEXT NOT NULL, gtin TEXT, cip13 TEXT, brand TEXT, names TEXT NOT NULL);
        CREATE TABLE outcomes (pid INTEGER PRIMARY KEY, outcomes TEXT NOT NULL);
        CREATE TABLE codes (code TEXT NOT NULL, pid INTEGER NOT NULL);
        CREATE VIRTUAL TABLE name_words USING fts5(${NAME_COLUMNS.join(", ")}, content='', detail=column, tokenize='unicode61 remove_diacritics 2');`);
    }
    this.insertProduct = db.prepare("INSERT INTO products (rowid, id, gtin, cip13, brand, names) VALUES (?, ?, ?, ?, ?, ?)");
    this.insertOutcomes = db.prepare("INSERT INTO outcomes (pid, outcomes) VALUES (?, ?)");
    this.insertCode = db.prepare("INSERT INTO codes (code, pid) VALUES (?, ?)");
    this.insertNames = db.prepare(`INSERT INTO name_words (rowid, ${NAME_COLUMNS.join(", ")}) VALUES (?, ?, ?, ?, ?, ?)`);
    this.begin = db.prepare("BEGIN");
    this.commitTx = db.prepare("COMMIT");
  }

  static async create(file: string): Promise<ExplainIndexWriter> {
    return new ExplainIndexWriter(await buildStore(file, EXPLAIN_KIND), false);
  }

  /**
   * The next index as a copy of the last one, for a run that gives the same products in the
   * same order (a refresh, src/rowcache/; check isOfRun() first): add() then writes outcomes only.
   * It is built at the same temporary name as create()'s: one writer per file at a time.
   */
  static async copying(file: string): Promise<ExplainIndexWriter> {
    return new ExplainIndexWriter(await buildStore(file, EXPLAIN_KIND, {}, { copyOf: file }), true);
  }

  /** Whether the index at `file` is the one of the run `startedAt`, with `products` products (ExplainIndexWriter.copying()). */
  static isOfRun(file: string, startedAt: string, products: number): boolean {
    let last: ExplainIndex | undefined;
    try {
      last = ExplainIndex.open(file);
    } catch {
      return false;
    }
    const meta = last?.meta;
    last?.close();
    return meta?.startedAt === startedAt && meta.products === products;
  }

  add(product: IndexProduct, outcomes: readonly PackedOutcome[]): void {
    if (this.inBatch === 0) this.begin.run();
    const pid = ++this.pid;
    this.insertOutcomes.run(pid, JSON.stringify(outcomes));
    if (!this.copied) {
      this.insertProduct.run(pid, product.id, product.gtin ?? null, product.cip13 ?? null, product.brand ?? null, JSON.stringify(product.names));
      for (const code of product.codes) this.insertCode.run(code, pid);
      const columns: Record<NameColumn, string[]> = { fr: [], nl: [], en: [], de: [], other: [] };
      for (const [locale, name] of Object.entries(product.names)) columns[nameColumn(locale)].push(name);
      this.insertNames.run(pid, ...NAME_COLUMNS.map((c) => (columns[c].length > 0 ? columns[c].join(" ") : null)));
    }
    if (++this.inBatch === BATCH) this.flush();
  }

  private flush(): void {
    if (this.inBatch === 0) return;
    this.commitTx.run();
    this.inBatch = 0;
  }

  /** Builds the lookup indexes, records the run's channels and renames the file into place. */
  async commit(meta: IndexRunMeta): Promise<void> {
    this.flush();
    const db = this.builder.db;
    db.exec("CREATE INDEX IF NOT EXISTS products_id ON products (id); CREATE INDEX IF NOT EXISTS codes_code ON codes (code);");
    db.prepare("INSERT OR REPLACE INTO pharmafeed_store (key, value) VALUES (?, ?)").run("run", JSON.stringify({ ...meta, products: this.pid }));
    await this.builder.commit();
  }

  abort(): Promise<void> {
    return this.builder.abort();
  }
}

/** A product row as read back. */
export interface IndexRow {
  id: string;
  gtin: string | undefined;
  cip13: string | undefined;
  brand: string | undefined;
  names: Record<string, string>;
  outcomes: PackedOutcome[];
}

interface RawRow {
  id: string;
  gtin: string | null;
  cip13: string | null;
  brand: string | null;
  names: string;
  outcomes: string;
}

const toRow = (r: RawRow): IndexRow => ({
  id: r.id,
  gtin: r.gtin ?? undefined,
  cip13: r.cip13 ?? undefined,
  brand: r.brand ?? undefined,
  names: JSON.parse(r.names) as Record<string, string>,
  outcomes: JSON.parse(r.outcomes) as PackedOutcome[],
});

/** FTS5 query of the words: each one a quoted prefix, all required. Quotes inside words are doubled. */
export function wordsQuery(words: string, column?: NameColumn): string | undefined {
  const tokens = words
    .normalize("NFKC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");
  if (tokens.length === 0) return undefined;
  const body = tokens.map((t) => `"${t.replace(/"/g, '""')}"*`).join(" AND ");
  return column === undefined ? body : `{${column}} : (${body})`;
}

/** The index of the last run, read-only. */
export class ExplainIndex {
  readonly meta: IndexRunMeta;
  readonly createdAt: string;

  private constructor(private readonly db: Db) {
    const meta = storeMeta(db);
    this.meta = JSON.parse(meta.run ?? '{"startedAt":"","channels":[]}') as IndexRunMeta;
    this.createdAt = meta.createdAt ?? "";
  }

  /** undefined when no run wrote an index yet. */
  static open(file: string): ExplainIndex | undefined {
    const db = openStore(file, EXPLAIN_KIND);
    return db && new ExplainIndex(db);
  }

  byId(id: string): IndexRow | undefined {
    const row = this.db.prepare("SELECT p.id, p.gtin, p.cip13, p.brand, p.names, o.outcomes FROM products p JOIN outcomes o ON o.pid = p.rowid WHERE p.id = ? LIMIT 1").get(id) as RawRow | undefined;
    return row && toRow(row);
  }

  /** Products carrying this code (a 14-digit key). */
  byCode(key: string): IndexRow[] {
    const rows = this.db
      .prepare("SELECT p.id, p.gtin, p.cip13, p.brand, p.names, o.outcomes FROM codes c JOIN products p ON p.rowid = c.pid JOIN outcomes o ON o.pid = p.rowid WHERE c.code = ? LIMIT 50")
      .all(key) as RawRow[];
    return rows.map(toRow);
  }

  /**
   * Products whose name has all these words (prefixes), in one language's column or any;
   * at most `limit`, in catalogue order, and how many in all. Not ranked: bm25 over
   * thousands of matches of a vague query cost ~10x the lookup; more words narrow instead.
   */
  byWords(words: string, column: NameColumn | undefined, limit: number): { total: number; rows: IndexRow[] } {
    const query = wordsQuery(words, column);
    if (query === undefined) return { total: 0, rows: [] };
    const total = (this.db.prepare("SELECT count(*) AS n FROM name_words WHERE name_words MATCH ?").get(query) as { n: number }).n;
    const rows = this.db
      .prepare("SELECT p.id, p.gtin, p.cip13, p.brand, p.names, o.outcomes FROM name_words n JOIN products p ON p.rowid = n.rowid JOIN outcomes o ON o.pid = p.rowid WHERE name_words MATCH ? LIMIT ?")
      .all(query, limit) as RawRow[];
    return { total, rows: rows.map(toRow) };
  }

  close(): void {
    this.db.close();
  }
}
