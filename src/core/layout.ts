/**
 * The output directory's layout: every name pharmafeed gives a file or folder in it, in one
 * place, so that any layer may find a file without importing the capability that writes it
 * (serve reads the manifest, run-output clears every kind of temporary, the status page links
 * the reports). Each file's format stays with its owner (named beside each).
 *
 *   output/
 *     <channel files>            feeds, from each channel's `file` (publish/)
 *     manifest.json              the last run (publish/manifest.ts)
 *     history/                   earlier manifests (publish/manifest.ts)
 *       feeds/<sha256>.gz        every published version of every feed, by digest (history/)
 *     reports/                   exclusion and offers reports (publish/exclusion-report.ts)
 *     preview/                   a dry run's feeds and reports (publish/preview.ts)
 *     images/                    the photo cache, served under /images (images/)
 *     run-failure.json           a run that failed or is running (publish/failure-record.ts)
 *     publish-journal.json       a publish in progress (publish/journal.ts)
 *     .pharmafeed.lock           one run per output directory (publish/lock.ts)
 *     .destinations-temporaries.json  temporaries started on servers (destinations/_ledger.ts)
 *     serve-state.json           last fetch per marketplace (serve/state.ts)
 *     state/                     kept state, checked before use:
 *       snapshot.pfs             the catalogue snapshot (snapshot/)
 *       rows.ndjson              the rows and state log (rowcache/file.ts)
 *       explain.sqlite           the explain index (explain/store.ts)
 *       merchant.sqlite          Google's read-back (merchant/store.ts)
 *       merchant-push.json       what was pushed to Google (merchant/push/state.ts)
 *
 * A channel may not use these names for its files (config/ checks it).
 */

export const MANIFEST_FILE = "manifest.json";
export const HISTORY_DIR = "history";
/** Kept versions of the published feeds, gzipped, named by the sha256 of the published file (history/store.ts). */
export const FEED_HISTORY_DIR = "history/feeds";
/** Folder of the reports, inside the output directory. */
export const REPORTS_DIR = "reports";
export const PREVIEW_DIR = "preview";
/** The folder inside the output directory, and the URL path `serve` answers it under. */
export const IMAGES_DIR = "images";
export const FAILURE_FILE = "run-failure.json";
export const JOURNAL_FILE = "publish-journal.json";
export const LOCK_FILE = ".pharmafeed.lock";
export const LEDGER_FILE = ".destinations-temporaries.json";
/** Where `serve` keeps the last fetch per marketplace across restarts (a name channels may not use). */
export const SERVE_STATE_FILE = "serve-state.json";

/** output/state/: kept state (the catalogue snapshot, the state log, the explain index). */
export const STATE_DIR = "state";
export const SNAPSHOT_FILE = "snapshot.pfs";
export const ROWS_FILE = "rows.ndjson";
export const EXPLAIN_FILE = "explain.sqlite";
export const MERCHANT_FILE = "merchant.sqlite";
export const PUSH_STATE_FILE = "merchant-push.json";

/** The names above at the top of the output directory: no channel's file may take one. */
export const RESERVED_OUTPUT_NAMES: ReadonlySet<string> = new Set([
  MANIFEST_FILE,
  HISTORY_DIR,
  REPORTS_DIR,
  PREVIEW_DIR,
  IMAGES_DIR,
  FAILURE_FILE,
  JOURNAL_FILE,
  LOCK_FILE,
  LEDGER_FILE,
  SERVE_STATE_FILE,
  STATE_DIR,
]);
