/**
 * A run that failed and could not say so in manifest.json (a full disk refused the lock file or
 * the manifest itself) still reaches /healthz, /monitor and the status page: it leaves this small
 * record, in the output directory when it can, else in the system's temporary directory (another
 * file system as a rule: /tmp, or $TMPDIR), named after the output directory. `serve` reads both
 * and, when the record is newer than the manifest, every surface says the last run failed. A run
 * that writes its manifest removes them.
 *
 *   run fails ─> manifest.json (failed run) ─┬─ ok: records removed
 *                                            └─ refused ─> run-failure.json ─> or $TMPDIR/pharmafeed-run-failure-<hash>.json
 */
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import type { Manifest } from "./manifest.js";
import { unpublishedOf } from "./run-state.js";

export const FAILURE_FILE = "run-failure.json";

export const FailureRecord = z.object({
  startedAt: z.string(),
  endedAt: z.string(),
  error: z.object({ code: z.string(), message: z.string() }),
  /** Why manifest.json does not say it (the write error). */
  unrecorded: z.string(),
});
export type FailureRecord = z.infer<typeof FailureRecord>;

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

/** Writes the record where it can (whole or not at all: temporary name, then rename); false when nowhere. */
export async function writeFailureRecord(outputDir: string, record: FailureRecord): Promise<boolean> {
  const text = JSON.stringify(record);
  for (const path of failureRecordPaths(outputDir)) {
    const draft = `${path}.tmp-${process.pid}`;
    try {
      await writeFile(draft, text);
      await rename(draft, path);
      return true;
    } catch {
      await rm(draft, { force: true }).catch(() => undefined);
    }
  }
  return false;
}

/** The newest readable record, if any. */
export async function readFailureRecord(outputDir: string): Promise<FailureRecord | undefined> {
  let newest: FailureRecord | undefined;
  for (const path of failureRecordPaths(outputDir)) {
    const record = await readFile(path, "utf8").then(
      (text) => FailureRecord.safeParse(JSON.parse(text)).data,
      () => undefined,
    );
    if (record && (!newest || Date.parse(record.endedAt) > Date.parse(newest.endedAt))) newest = record;
  }
  return newest;
}

/** After a manifest was written: it says the truth again. */
export async function clearFailureRecord(outputDir: string): Promise<void> {
  await Promise.all(failureRecordPaths(outputDir).map((path) => rm(path, { force: true }).catch(() => undefined)));
}

/**
 * The manifest every surface reads: the last one, or, when a failure record is newer, the same
 * served files under a failed run with the record's error (so healthz, monitor and the page agree).
 */
export function withFailure(manifest: Manifest | undefined, record: FailureRecord | undefined): Manifest | undefined {
  if (!record || (manifest && Date.parse(record.endedAt) <= Date.parse(manifest.endedAt))) return manifest;
  const channels = (manifest?.channels ?? []).map((c) => ({ ...c, published: `failed: the run failed (${record.error.code}); previous file kept` }));
  return {
    version: 1,
    startedAt: record.startedAt,
    endedAt: record.endedAt,
    status: "failed",
    unpublished: unpublishedOf(channels),
    error: { code: record.error.code, message: `${record.error.message} (not recorded in manifest.json: ${record.unrecorded})` },
    source: { total: null, received: 0, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 },
    channels,
    ...(manifest?.offers ? { offers: manifest.offers } : {}),
  };
}
