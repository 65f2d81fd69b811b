/**
 * The one error class of pharmafeed. Every failure that leaves a module carries a
 * stable `code` (never parse messages) and the context needed to act on it.
 * Only `cli.ts` turns codes into exit codes.
 */
export const ERROR_CODES = [
  "CONFIG_INVALID",
  "USAGE",
  "SOURCE_HTTP",
  "SOURCE_AUTH",
  "SOURCE_NETWORK",
  "SOURCE_TIMEOUT",
  "SOURCE_PARSE",
  "RATE_LIMITED",
  "QUERY_INVALID",
  "RESULT_WINDOW",
  "WRITE_FAILED",
  "GATE_TRIPPED",
  "LOCK_HELD",
  "CHANNEL_FAILED",
  "INTERRUPTED",
  "STORE_INVALID",
  "INTERNAL",
  /** explain: no run has written an explain index in the output directory yet. */
  "NO_INDEX",
  "OFFERS_REFUSED",
  "UNSAFE_PATH",
  /** Every channel was published, but the run could not do something else (manifest.problems). */
  "RUN_DEGRADED",
  /** Google Merchant API: the service account key, its token, or the account's developer registration. */
  "MERCHANT_AUTH",
  /** Google Merchant API: any other answer than the one asked for (after retries), or no answer. */
  "MERCHANT_HTTP",
  /** Google Merchant API: the account's daily quota is spent (it resets at 12:00 UTC). */
  "MERCHANT_QUOTA",
  /** A native module (better-sqlite3) built for another Node.js, or not built: `npm rebuild` (store/native.ts). */
  "NATIVE_MODULE",
  /** A run of many shops asked for the shared snapshot and it is missing or unusable: it never reads the catalogue itself (docs/shops.md). */
  "SNAPSHOT_MISSING",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorContext {
  file?: string;
  path?: string;
  channel?: string;
  productId?: string;
  line?: number;
  status?: number;
  apiCode?: string;
  [key: string]: unknown;
}

export class PharmafeedError extends Error {
  override readonly name = "PharmafeedError";
  readonly code: ErrorCode;
  readonly context: ErrorContext;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; context?: ErrorContext } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.context = options.context ?? {};
  }
}

export function isPharmafeedError(error: unknown, code?: ErrorCode): error is PharmafeedError {
  return error instanceof PharmafeedError && (code === undefined || error.code === code);
}

/** Exit codes of the CLI, documented in the README. */
export const EXIT = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  CONFIG: 3,
  SOURCE: 4,
  GATE: 5,
  LOCK: 6,
  /** The offers file was refused (unreadable header, too few rows accepted, far fewer than the last run). */
  OFFERS: 7,
  /** The feeds were published, but something beside them failed (kept state, a served feed dropped, a destination): manifest.problems. */
  DEGRADED: 8,
  /** 128 + SIGINT, as shells report a run stopped by Ctrl-C or SIGTERM. */
  INTERRUPTED: 130,
} as const;

export function exitCodeFor(error: unknown): number {
  if (!(error instanceof PharmafeedError)) return EXIT.FAILURE;
  switch (error.code) {
    case "USAGE":
      return EXIT.USAGE;
    case "CONFIG_INVALID":
      return EXIT.CONFIG;
    case "SOURCE_HTTP":
    case "SOURCE_AUTH":
    case "SOURCE_NETWORK":
    case "SOURCE_TIMEOUT":
    case "SOURCE_PARSE":
    case "RATE_LIMITED":
    case "QUERY_INVALID":
    case "RESULT_WINDOW":
    case "SNAPSHOT_MISSING":
      return EXIT.SOURCE;
    case "GATE_TRIPPED":
      return EXIT.GATE;
    case "LOCK_HELD":
      return EXIT.LOCK;
    case "OFFERS_REFUSED":
      return EXIT.OFFERS;
    case "RUN_DEGRADED":
      return EXIT.DEGRADED;
    case "INTERRUPTED":
      return EXIT.INTERRUPTED;
    default:
      return EXIT.FAILURE;
  }
}
