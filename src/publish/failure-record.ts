/**
 * The run record: one small file that says "a run started" (with a heartbeat), "a run failed" or,
 * read by someone else once the heartbeat is stale, "a run died without finishing". The run wrapper
 * (src/runwatch/) writes it; `serve` (/healthz, /monitor, the status page), the next run's summary
 * and the alerts read it, so a run that cannot start (a config typo) or dies silently (SIGKILL, a
 * native abort) is seen as surely as one that failed and wrote its manifest.
 *
 * It lives in the output directory when it can, else in the system's temporary directory (another
 * file system as a rule: /tmp, or $TMPDIR), named after the output directory. When a failed record
 * is newer than manifest.json, every surface says the last run failed; a started record whose
 * process is gone (same host) or whose heartbeat (the file's mtime) is older than the lock's
 * `staleAfterMs` says the run died at its last heartbeat.
 *
 *   run starts ─> run-failure.json {state: started} ─ heartbeat (mtime) ─┬─ ends: removed, or {state: failed}
 *                                                                        └─ killed: stays; stale ─> "died at <heartbeat>"
 */
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { readFile, rm, stat } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import { replaceFile } from "../core/atomic-file.js";
import type { Manifest } from "./manifest.js";
import { unpublishedOf } from "./run-state.js";
import { FAILURE_FILE } from "../core/layout.js";


/** The error code every surface shows for a run that died without a word. */
export const RUN_DIED = "RUN_DIED";

const Failed = z.object({
  startedAt: z.string(),
  endedAt: z.string(),
  error: z.object({ code: z.string(), message: z.string() }),
  /** Why manifest.json does not say it (the write error, or "the run could not start"). */
  unrecorded: z.string(),
});

export const FailureRecord = Failed.extend({ state: z.literal("failed").default("failed") });
export type FailureRecord = z.input<typeof FailureRecord>;

export const StartedRecord = z.object({
  state: z.literal("started"),
  startedAt: z.string(),
  pid: z.number().int(),
  host: z.string(),
  token: z.string(),
  /** The failed record this run replaced: still the news until this run writes a manifest. */
  previous: Failed.optional(),
});
export type StartedRecord = z.infer<typeof StartedRecord>;

export const RunRecord = z.union([StartedRecord, FailureRecord]);
export type RunRecord = z.output<typeof RunRecord>;

/** A record as read: the heartbeat is the file's mtime. */
export interface SeenRecord {
  record: RunRecord;
  heartbeatAt: Date;
  path: string;
}

/** The record's places: in the output directory, then outside it. */
export function failureRecordPaths(outputDir: string): string[] {
  let real: string;
  try {
    real = realpathSync(outputDir);
  } catch {
    real = resolve(outputDir);
  }
  const key = createHash("sha256").update(real).digest("hex").slice(0, 16);
  return [join(outputDir, FAILURE_FILE), join(tmpdir(), `pharmafeed-run-failure-${key}.json`)];
}

/** Writes the record where it can (whole or not at all: core/atomic-file.ts replaceFile); the path, or undefined when nowhere. */
export async function writeRunRecord(outputDir: string, record: RunRecord | FailureRecord): Promise<string | undefined> {
  const text = JSON.stringify({ state: "failed", ...record });
  for (const path of failureRecordPaths(outputDir)) {
    try {
      // Created exclusively, never through a link (the second place is in the shared tmpdir), and synced.
      await replaceFile(path, text);
      // One record: the other place must not keep an older one that would be read as news.
      await Promise.all(failureRecordPaths(outputDir).filter((p) => p !== path).map((p) => rm(p, { force: true }).catch(() => undefined)));
      return path;
    } catch {
      // Not writable here (replaceFile removed its temporary): the next place.
    }
  }
  return undefined;
}

/** A failed run's record (see recordFailedRun); false when it could be written nowhere. */
export async function writeFailureRecord(outputDir: string, record: FailureRecord): Promise<boolean> {
  return (await writeRunRecord(outputDir, { ...record, state: "failed" })) !== undefined;
}

/** The newest readable record, if any, with its heartbeat. */
export async function readRunRecord(outputDir: string): Promise<SeenRecord | undefined> {
  let newest: SeenRecord | undefined;
  for (const path of failureRecordPaths(outputDir)) {
    const seen = await Promise.all([readFile(path, "utf8"), stat(path)]).then(
      ([text, info]) => {
        let record: RunRecord | undefined;
      try {
        record = RunRecord.safeParse(JSON.parse(text)).data;
      } catch {
        // Not JSON (a torn or foreign file): nothing of ours to keep; removed below.
      }
        return record ? { record, heartbeatAt: info.mtime, path } : undefined;
      },
      () => undefined,
    );
    if (seen && (!newest || seen.heartbeatAt > newest.heartbeatAt)) newest = seen;
  }
  return newest;
}

/** The newest failed record (a started one's `previous` included). */
export async function readFailureRecord(outputDir: string): Promise<FailureRecord | undefined> {
  const seen = await readRunRecord(outputDir);
  if (!seen) return undefined;
  return seen.record.state === "failed" ? seen.record : seen.record.previous && { ...seen.record.previous, state: "failed" };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** When a started record's run died (its last heartbeat), or undefined while it may be alive. */
export function diedAt(seen: SeenRecord | undefined, staleAfterMs: number, now = new Date()): Date | undefined {
  if (!seen || seen.record.state !== "started") return undefined;
  const { pid, host } = seen.record;
  if (host === hostname() && pid === process.pid) return undefined;
  const gone = host === hostname() && !isAlive(pid);
  return gone || now.getTime() - seen.heartbeatAt.getTime() > staleAfterMs ? seen.heartbeatAt : undefined;
}

/** The failure a record stands for now: a failed record, a died run, or a running run's previous failure. */
export function failureOf(seen: SeenRecord | undefined, staleAfterMs: number, now = new Date()): FailureRecord | undefined {
  if (!seen) return undefined;
  const { record } = seen;
  if (record.state === "failed") return record;
  const died = diedAt(seen, staleAfterMs, now);
  if (died) {
    return {
      state: "failed",
      startedAt: record.startedAt,
      endedAt: died.toISOString(),
      error: { code: RUN_DIED, message: diedMessage(record, died) },
      unrecorded: "the run died without finishing",
    };
  }
  return record.previous && { ...record.previous, state: "failed" };
}

export function diedMessage(record: StartedRecord, died: Date): string {
  return `the last run died at ${died.toISOString()} without finishing (pid ${record.pid} on ${record.host}, started ${record.startedAt}; killed, out of memory, or a native crash)`;
}

/** After a manifest was written: a failed record says nothing new any more (a running run's own started record stays). */
export async function clearFailureRecord(outputDir: string): Promise<void> {
  await Promise.all(
    failureRecordPaths(outputDir).map(async (path) => {
      const text = await readFile(path, "utf8").catch(() => undefined);
      if (text === undefined) return;
      let record: RunRecord | undefined;
      try {
        record = RunRecord.safeParse(JSON.parse(text)).data;
      } catch {
        // Not JSON (a torn or foreign file): nothing of ours to keep; removed below.
      }
      if (record?.state === "started" && record.pid === process.pid && record.host === hostname()) {
        // Ours: it stays as the heartbeat, without the failure the manifest now supersedes.
        if (record.previous) await replaceFile(path, JSON.stringify({ ...record, previous: undefined })).catch(() => undefined);
        return;
      }
      await rm(path, { force: true }).catch(() => undefined);
    }),
  );
}

/**
 * The manifest every surface reads: the last one, or, when a failure is newer, the same
 * served files under a failed run with the failure's error (so healthz, monitor and the page agree).
 */
export function withFailure(manifest: Manifest | undefined, record: FailureRecord | undefined): Manifest | undefined {
  const died = record?.error.code === RUN_DIED;
  if (!record || (manifest && Date.parse(record.endedAt) <= Date.parse(manifest.endedAt) && !died)) return manifest;
  // A run that died after writing its manifest (while pushing, say) did publish what that manifest says.
  const ownManifest = died && manifest !== undefined && Date.parse(manifest.startedAt) >= Date.parse(record.startedAt);
  const channels = ownManifest ? manifest.channels : (manifest?.channels ?? []).map((c) => ({ ...c, published: `failed: the run failed (${record.error.code}); previous file kept` }));
  const message = died ? record.error.message : `${record.error.message} (not recorded in manifest.json: ${record.unrecorded})`;
  return {
    version: 1,
    startedAt: record.startedAt,
    endedAt: record.endedAt,
    status: "failed",
    unpublished: unpublishedOf(channels),
    error: { code: record.error.code, message },
    source: { total: null, received: 0, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 },
    channels,
    ...(manifest?.offers ? { offers: manifest.offers } : {}),
  };
}
