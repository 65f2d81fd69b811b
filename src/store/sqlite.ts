/**
 * The one embedded store of pharmafeed: SQLite files, through better-sqlite3.
 * The explain index and the Merchant Center store are such files (the catalogue snapshot
 * has its own format since version 2, see snapshot/store.ts).
 *
 *   buildStore(file) ─> temporary file beside it (.name.tmp-<pid>) ─> tables filled
 *        └─ commit(): close, fsync, rename over `file` (atomic on one filesystem)
 *   openStore(file) ─> read-only, kind and format version checked
 *
 * Why SQLite: no server, one file a user can inspect (`sqlite3 file .tables`), FTS5
 * for word search, range queries for ordered reads, and a page cache of bounded size,
 * so memory stays flat whatever the table size. Why build-and-rename and never update
 * in place: a file is either the previous complete one or the new complete one, after a
 * kill -9 at any moment, with no journal to roll back (a hot journal left beside a file
 * that a later run renamed over would be applied to the wrong file). A new version of a
 * store is built from the old one (ATTACH and INSERT ... SELECT copy unchanged rows in C).
 * Which better-sqlite3 a Node.js loads, and why: native.ts.
 */
import { constants, existsSync } from "node:fs";
import { copyFile, rm } from "node:fs/promises";
import type Database from "better-sqlite3";
import { isPharmafeedError, PharmafeedError } from "../errors.js";
import { renameIntoPlace, temporaryPath } from "../core/atomic-file.js";
import { openDatabase } from "./native.js";


export type Db = Database.Database;

/** What a store file holds and in which format version. */
export interface StoreKind {
  /** e.g. "snapshot", "explain". */
  name: string;
  /** Raised whenever the tables change shape; a file of another version is refused. */
  version: number;
}

const META = "pharmafeed_store";

/**
 * Page cache per connection (KiB), so a large table never grows the process: a builder
 * filling tables and indexes gets 16 MiB; a reader, which reads a few rows by key or
 * every block once in order, 2 MiB (15 MB less peak RSS for a refresh, no slower).
 */
const BUILD_CACHE_KIB = 16 * 1024;
const READ_CACHE_KIB = 2 * 1024;

/**
 * What the builders open at once share: a run of many shops builds an explain index per shop at
 * the same time (docs/shops.md), and 10 builders of 16 MiB each were ~160 MB of a run's peak RSS
 * at 100,000 products. Each gets its share of this, between a reader's cache and a builder's.
 */
const BUILDERS_CACHE_KIB = 32 * 1024;
const building = new Set<Db>();

function shareBuildCache(): void {
  const each = Math.max(READ_CACHE_KIB, Math.min(BUILD_CACHE_KIB, Math.floor(BUILDERS_CACHE_KIB / Math.max(1, building.size))));
  for (const db of building) if (db.open) db.pragma(`cache_size = -${each}`);
}

function kindOf(db: Db): { name: string; version: number } | undefined {
  try {
    const rows = db.prepare(`SELECT key, value FROM ${META}`).all() as { key: string; value: string }[];
    const map = new Map(rows.map((r) => [r.key, r.value]));
    const name = map.get("kind");
    const version = Number(map.get("version"));
    return name === undefined || !Number.isInteger(version) ? undefined : { name, version };
  } catch {
    return undefined;
  }
}

/**
 * Opens a store read-only; undefined when the file does not exist. A file that is
 * not a store of this kind and version is refused with STORE_INVALID, naming what
 * was found, so that a snapshot written by another version is never misread.
 */
export function openStore(file: string, kind: StoreKind): Db | undefined {
  if (!existsSync(file)) return undefined;
  let db: Db;
  try {
    db = openDatabase(file, { readonly: true, fileMustExist: true });
    db.pragma(`cache_size = -${READ_CACHE_KIB}`);
  } catch (cause) {
    // A native module built for another Node.js is not the file's fault: say so, with the fix.
    if (isPharmafeedError(cause, "NATIVE_MODULE")) throw cause;
    throw new PharmafeedError("STORE_INVALID", `${file}: not a readable store: ${(cause as Error).message}`, { cause, context: { file } });
  }
  const found = kindOf(db);
  if (found?.name !== kind.name || found.version !== kind.version) {
    db.close();
    const what = found ? `a ${found.name} store of format version ${found.version}` : "not a pharmafeed store";
    throw new PharmafeedError("STORE_INVALID", `${file}: ${what}; this version reads ${kind.name} format version ${kind.version}`, {
      context: { file, found: found ? `${found.name}@${found.version}` : "none" },
    });
  }
  return db;
}

/** A store being written: fill `db`, then commit() or abort(). */
export interface StoreBuilder {
  readonly db: Db;
  /** The temporary file being written. */
  readonly tmp: string;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Starts a new version of `file` in a temporary file beside it. Nothing is journaled
 * (the temporary is thrown away on failure), so writes cost only the pages.
 */
export async function buildStore(file: string, kind: StoreKind, meta: Record<string, string> = {}, options: { copyOf?: string } = {}): Promise<StoreBuilder> {
  const tmp = temporaryPath(file);
  await rm(tmp, { force: true });
  let db: Db;
  let opened: Db | undefined;
  try {
    // A new version that starts as a copy of a store (explain/store.ts: a refresh keeps its products).
    if (options.copyOf !== undefined) await copyFile(options.copyOf, tmp, constants.COPYFILE_EXCL);
    db = opened = openDatabase(tmp);
    // The rollback journal stays in memory: the temporary is thrown away on failure, so
    // no journal file is needed, and none may appear beside the published files. (OFF
    // would be cheaper but is refused in better-sqlite3's defensive mode: it silently
    // stays DELETE and leaves a -journal file during every write.)
    const mode: unknown = db.pragma("journal_mode = MEMORY", { simple: true });
    if (mode !== "memory") throw new Error(`journal_mode stayed ${String(mode)}`);
    db.pragma("synchronous = OFF");
    // A copy gets rows appended to one table (explain's outcomes): a reader's cache does.
    db.pragma(`cache_size = -${READ_CACHE_KIB}`);
    if (options.copyOf !== undefined) {
      const found = kindOf(db);
      if (found?.name !== kind.name || found.version !== kind.version) throw new Error(`${options.copyOf} is not a ${kind.name} store of format version ${kind.version}`);
    } else db.exec(`CREATE TABLE ${META} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    const put = db.prepare(`INSERT OR REPLACE INTO ${META} (key, value) VALUES (?, ?)`);
    for (const [key, value] of Object.entries({ ...meta, kind: kind.name, version: String(kind.version), createdAt: new Date().toISOString() })) {
      put.run(key, value);
    }
  } catch (cause) {
    if (opened?.open) opened.close();
    await rm(tmp, { force: true });
    if (isPharmafeedError(cause, "NATIVE_MODULE")) throw cause;
    throw new PharmafeedError("WRITE_FAILED", `cannot create ${tmp}: ${(cause as Error).message}`, { cause, context: { file: tmp } });
  }
  let done = false;
  if (options.copyOf === undefined) {
    building.add(db);
    shareBuildCache();
  }
  const closed = () => {
    if (building.delete(db)) shareBuildCache();
  };
  return {
    db,
    tmp,
    async commit() {
      if (done) return;
      done = true;
      try {
        closed();
        db.close();
        await renameIntoPlace(tmp, file);
      } catch (cause) {
        await rm(tmp, { force: true });
        throw new PharmafeedError("WRITE_FAILED", `cannot write ${file}: ${(cause as Error).message}`, { cause, context: { file } });
      }
    },
    async abort() {
      if (done) return;
      done = true;
      closed();
      try {
        if (db.open) db.close();
      } finally {
        await rm(tmp, { force: true });
      }
    },
  };
}

/** The meta values a store was built with (kind, version, createdAt and the builder's own). */
export function storeMeta(db: Db): Record<string, string> {
  const rows = db.prepare(`SELECT key, value FROM ${META}`).all() as { key: string; value: string }[];
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}
