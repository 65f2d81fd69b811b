/**
 * output/state/explain.sqlite: how `pharmafeed explain` and the status page's search
 * find a product of the last run. One row per product (its id, codes, names, brand,
 * and where its line is in the run's state log), a table of codes (14-digit keys) and
 * a word index of the names (FTS5, one column per language).
 *
 * What each channel did with the product is not stored here: it is the state log's
 * line (output/state/rows.ndjson, src/rowcache/file.ts), written once for a refresh
 * and for explain alike. The index records the log's digest; a reader checks that the
 * log beside it is that very one (every byte against its digest) before reading any
 * outcome, and that the line it points at is the product's.
 *
 * Written in transactions of BATCH products, so memory stays flat however many
 * products a run has; the lookup indexes are built once at the end (faster than
 * keeping them up to date row by row). Built beside and renamed into place by
 * store/sqlite.ts: a reader sees the previous run's index or this one's.
 */
import { dirname, join } from "node:path";
import { PharmafeedError } from "../errors.js";
import type { FileIdentity } from "../publish/file-identity.js";
import { type LinePosition, RowsReader } from "../rowcache/file.js";
import { buildStore, openStore, storeMeta, type Db, type StoreBuilder } from "../store/sqlite.js";
import type { IndexProduct, Outcome } from "./entry.js";
import { EXPLAIN_FILE, ROWS_FILE, STATE_DIR } from "../core/layout.js";

/** Version 3: outcomes moved to the state log; an index of version 2 is not used (the next run writes one). */
export const EXPLAIN_KIND = { name: "explain", version: 3 };

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
  /** Products indexed. */
  products?: number;
}

export class ExplainIndexWriter {
  private inBatch = 0;
  private pid = 0;
  private readonly insertProduct;
  private readonly insertCode;
  private readonly insertNames;
  private readonly begin;
  private readonly commitTx;

  private constructor(private readonly builder: StoreBuilder) {
    const db = builder.db;
    db.exec(`CREATE TABLE products (id TEXT NOT NULL, gtin TEXT, cip13 TEXT, brand TEXT, names TEXT NOT NULL, line_at INTEGER NOT NULL, line_bytes INTEGER NOT NULL);
      CREATE TABLE codes (code TEXT NOT NULL, pid INTEGER NOT NULL);
      CREATE VIRTUAL TABLE name_words USING fts5(${NAME_COLUMNS.join(", ")}, content='', detail=column, tokenize='unicode61 remove_diacritics 2');`);
    this.insertProduct = db.prepare("INSERT INTO products (rowid, id, gtin, cip13, brand, names, line_at, line_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    this.insertCode = db.prepare("INSERT INTO codes (code, pid) VALUES (?, ?)");
    this.insertNames = db.prepare(`INSERT INTO name_words (rowid, ${NAME_COLUMNS.join(", ")}) VALUES (?, ?, ?, ?, ?, ?)`);
    this.begin = db.prepare("BEGIN");
    this.commitTx = db.prepare("COMMIT");
  }

  static async create(file: string): Promise<ExplainIndexWriter> {
    return new ExplainIndexWriter(await buildStore(file, EXPLAIN_KIND));
  }

  /** A product and where its line is in the state log. */
  add(product: IndexProduct, line: LinePosition): void {
    if (this.inBatch === 0) this.begin.run();
    const pid = ++this.pid;
    this.insertProduct.run(pid, product.id, product.gtin ?? null, product.cip13 ?? null, product.brand ?? null, JSON.stringify(product.names), line.at, line.bytes);
    for (const code of product.codes) this.insertCode.run(code, pid);
    for (const code of product.national ?? []) this.insertCode.run(code, pid);
    const columns: Record<NameColumn, string[]> = { fr: [], nl: [], en: [], de: [], other: [] };
    for (const locale in product.names) columns[nameColumn(locale)].push(product.names[locale]!);
    this.insertNames.run(pid, ...NAME_COLUMNS.map((c) => (columns[c].length > 0 ? columns[c].join(" ") : null)));
    if (++this.inBatch === BATCH) this.flush();
  }

  private flush(): void {
    if (this.inBatch === 0) return;
    this.commitTx.run();
    this.inBatch = 0;
  }

  /** Builds the lookup indexes, records the run's channels and the state log's digest, and renames the file into place. */
  async commit(meta: IndexRunMeta, logDigest: string): Promise<void> {
    this.flush();
    const db = this.builder.db;
    db.exec("CREATE INDEX products_id ON products (id); CREATE INDEX codes_code ON codes (code);");
    const put = db.prepare("INSERT OR REPLACE INTO pharmafeed_store (key, value) VALUES (?, ?)");
    put.run("run", JSON.stringify({ ...meta, products: this.pid }));
    put.run("log", logDigest);
    await this.builder.commit();
  }

  abort(): Promise<void> {
    return this.builder.abort();
  }
}

/** A product row as read back, with its outcomes from the state log. */
export interface IndexRow {
  id: string;
  gtin: string | undefined;
  cip13: string | undefined;
  brand: string | undefined;
  names: Record<string, string>;
  /** Per channel of meta.channels. */
  outcomes: Outcome[];
}

interface RawRow {
  id: string;
  gtin: string | null;
  cip13: string | null;
  brand: string | null;
  names: string;
  line_at: number;
  line_bytes: number;
}

const COLUMNS = "p.id, p.gtin, p.cip13, p.brand, p.names, p.line_at, p.line_bytes";

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

/**
 * State logs checked whole in this process, by content and identity (rowcache/file.ts): serve's
 * search opens the index per query, and a pass over a 1,000,000-product log takes seconds. A log
 * written to or replaced since has another identity (its ctime changes with any write).
 */
const CHECKED_LOGS = new Set<string>();

/** The index of the last run, read-only, with the state log its outcomes are read from. */
export class ExplainIndex {
  readonly meta: IndexRunMeta;
  readonly createdAt: string;

  private constructor(
    private readonly db: Db,
    private readonly log: RowsReader,
  ) {
    const meta = storeMeta(db);
    this.meta = JSON.parse(meta.run ?? '{"startedAt":"","channels":[]}') as IndexRunMeta;
    this.createdAt = meta.createdAt ?? "";
  }

  /**
   * undefined when no run wrote an index yet. Throws STORE_INVALID when the state log beside it is
   * missing, damaged or another run's (a run killed between the two, a file edited): every byte of
   * the log is checked against its digest and that digest against the one the index recorded.
   */
  static open(file: string): ExplainIndex | undefined {
    const db = openStore(file, EXPLAIN_KIND);
    if (!db) return undefined;
    const recorded = storeMeta(db).log;
    const opened = RowsReader.open(join(dirname(file), ROWS_FILE), CHECKED_LOGS);
    const why = "reason" in opened ? opened.reason : opened.reader.trailer.digest !== recorded ? `${join(dirname(file), ROWS_FILE)} is not the state log the index was written with (a run stopped between the two, or a file replaced)` : undefined;
    if (why !== undefined) {
      db.close();
      if (!("reason" in opened)) opened.reader.close();
      throw new PharmafeedError("STORE_INVALID", `the explain index cannot be used: ${why}; the next run writes both again`, { context: { file } });
    }
    return new ExplainIndex(db, (opened as { reader: RowsReader }).reader);
  }

  /** The row with its outcomes read from the log; a line that is not this product's is refused. */
  private toRow(r: RawRow): IndexRow {
    const entry = this.log.lineAt({ at: r.line_at, bytes: r.line_bytes });
    if (entry?.p?.id !== r.id || !Array.isArray(entry.c)) throw new PharmafeedError("STORE_INVALID", `the explain index cannot be used: its state log's line for ${r.id} is not that product's; the next run writes both again`);
    return {
      id: r.id,
      gtin: r.gtin ?? undefined,
      cip13: r.cip13 ?? undefined,
      brand: r.brand ?? undefined,
      names: JSON.parse(r.names) as Record<string, string>,
      outcomes: entry.c,
    };
  }

  byId(id: string): IndexRow | undefined {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM products p WHERE p.id = ? LIMIT 1`).get(id) as RawRow | undefined;
    return row && this.toRow(row);
  }

  /** Products carrying this code (a 14-digit key). */
  byCode(key: string): IndexRow[] {
    const rows = this.db.prepare(`SELECT ${COLUMNS} FROM codes c JOIN products p ON p.rowid = c.pid WHERE c.code = ? LIMIT 50`).all(key) as RawRow[];
    return rows.map((r) => this.toRow(r));
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
    const rows = this.db.prepare(`SELECT ${COLUMNS} FROM name_words n JOIN products p ON p.rowid = n.rowid WHERE name_words MATCH ? LIMIT ?`).all(query, limit) as RawRow[];
    return { total, rows: rows.map((r) => this.toRow(r)) };
  }

  close(): void {
    this.db.close();
    this.log.close();
  }
}
