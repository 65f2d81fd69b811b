/**
 * What every destination kind implements (one file each: s3.ts, sftp.ts,
 * ftp.ts), unstorage-style: a factory from its settings to a Driver. The
 * conformance suite (test/destinations/conformance.test.ts) runs every kind
 * against a real local server.
 */
import type { Ledger } from "./_ledger.js";

/** One file to push. */
export interface UploadItem {
  /** Absolute path of the published local file. */
  local: string;
  /** Its name at the destination (inside the prefix or directory). */
  name: string;
  bytes: number;
  sha256: string;
  contentType: string;
  /** "gzip" for a feed's .gz twin: served as the feed's bytes, compressed. */
  contentEncoding?: "gzip";
}

/** What the destination holds after a put, as read back from it. */
export interface Stored {
  bytes: number;
  /** How the content was checked beyond its size, when the protocol allows: "md5" (S3 ETag). */
  hash?: string;
}

export interface Driver {
  /** Where files go, without credentials: "s3://bucket/prefix/", "sftp://user@host:port/dir". */
  readonly target: string;
  /**
   * Puts the whole file under its name: either the previous complete file or
   * the new one is there at any moment, never a partial one. Resolves once the
   * stored size (and hash where the protocol gives one) matches; throws otherwise.
   */
  put(item: UploadItem): Promise<Stored>;
  /** Closes connections; never throws. */
  close(): Promise<void>;
}

/** What every driver gets beside its settings. */
export interface DriverContext {
  /** Temporaries started on servers (output/.destinations-temporaries.json): removed on the next connection. */
  ledger: Ledger;
  /** The names of the files this push may send there (S3 aborts stale multipart uploads of these only). */
  names: ReadonlySet<string>;
  /** Says something once about the destination (a missing hostKey), in the run's log. */
  warn(message: string): void;
}

/** A failed attempt, with a stable code for the manifest and alerts. */
export type FailureCode = "auth" | "timeout" | "network" | "refused" | "verify" | "local" | "interrupted";

/** A failure said on one line, in words: whatever a server or library put in it (an HTML page, a stack) is folded. */
export class DestinationFailure extends Error {
  override readonly name = "DestinationFailure";
  constructor(
    readonly code: FailureCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(oneLine(message), options);
  }
}

/**
 * Whitespace runs (newlines of an HTML error page, an SDK's multi-line message) become one space.
 * Not shortened: a secret cut in half would no longer be found by push.ts's redaction.
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** `dir` and `name` as a message shows them: "sftp://u@h:22/feeds/google-fr.xml". */
export function where(target: string, name: string): string {
  return target.endsWith("/") ? `${target}${name}` : `${target}/${name}`;
}

/**
 * The temporary name an upload is written under, beside its target (hidden, recognisable, unique per run);
 * "previous" names the old file moved aside while the new one takes its place (SFTP without posix-rename).
 */
export function temporaryName(name: string, role: "upload" | "previous" = "upload"): string {
  return `.${name}.${role}-${process.pid}-${Date.now().toString(36)}`;
}
