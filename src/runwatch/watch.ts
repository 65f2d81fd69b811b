/**
 * The run wrapper's side of the run record (publish/failure-record.ts): `generate` starts a watch
 * before it reads its config, and the watch
 *   - reads the record the last run left: a started record whose run is gone is a run that died
 *     without a word (SIGKILL, out of memory, a native abort), said in this run's summary and alerted;
 *   - writes this run's started record and touches it (the heartbeat) while the run lives;
 *   - at the end removes it (the manifest says how the run went) or turns it into a failed record
 *     when no manifest of this run says it: a config the run could not load, a lock, a full disk.
 *
 *   begin ─> [previous died?] ─> started record ─ heartbeat ─> end(outcome) ─┬─ manifest of this run: removed
 *                                                                           └─ none: {state: failed}
 */
import { randomBytes } from "node:crypto";
import { readFile, rm, utimes } from "node:fs/promises";
import { hostname } from "node:os";
import { isPharmafeedError } from "../errors.js";
import type { Logger } from "../log.js";
import { DEFAULT_STALE_AFTER_MS } from "../publish/lock.js";
import { diedAt, diedMessage, RUN_DIED, readRunRecord, RunRecord, type StartedRecord, writeRunRecord } from "../publish/failure-record.js";
import { join } from "node:path";
import { MANIFEST_FILE } from "../core/layout.js";

export interface DiedRun {
  startedAt: string;
  diedAt: string;
  /** One line, for the summary, the log and the alert. */
  message: string;
}

export interface RunWatch {
  /** The last run, when it died without finishing (said once, by this run). */
  previousDied: DiedRun | undefined;
  /** The last run failed, died or left something out: a run that is ok now sends the all-clear. */
  lastRunBad: boolean;
  /** Called once the run is over; never throws. */
  end(outcome: unknown): Promise<void>;
}

export interface WatchOptions {
  outputDir: string;
  staleAfterMs?: number;
  logger: Logger;
  now?: Date;
}

/** The heartbeat's period: a tenth of the stale limit, at most 30 s (as the lock's). */
function beatEvery(staleAfterMs: number): number {
  return Math.min(30_000, Math.max(10, Math.floor(staleAfterMs / 10)));
}

export async function beginWatch(options: WatchOptions): Promise<RunWatch> {
  const { outputDir, logger } = options;
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const startedAt = options.now ?? new Date();
  const seen = await readRunRecord(outputDir).catch(() => undefined);
  const died = diedAt(seen, staleAfterMs, startedAt);
  const previousDied = died && seen?.record.state === "started" ? { startedAt: seen.record.startedAt, diedAt: died.toISOString(), message: diedMessage(seen.record, died) } : undefined;
  const last = await readFile(join(outputDir, MANIFEST_FILE), "utf8").then((t) => JSON.parse(t) as { status?: string }, () => undefined);
  const lastRunBad = previousDied !== undefined || seen?.record.state === "failed" || (last?.status !== undefined && last.status !== "ok");
  // A live run's record is its own: this run will meet its lock and say so; its record stays untouched.
  if (seen?.record.state === "started" && !died) return { previousDied, lastRunBad, end: async () => undefined };
  const record: StartedRecord = {
    state: "started",
    startedAt: startedAt.toISOString(),
    pid: process.pid,
    host: hostname(),
    token: randomBytes(12).toString("hex"),
    ...(seen?.record.state === "failed" ? { previous: { startedAt: seen.record.startedAt, endedAt: seen.record.endedAt, error: seen.record.error, unrecorded: seen.record.unrecorded } } : {}),
  };
  // Not created here: a refused config does no work in the output directory (the record then goes to $TMPDIR).
  const path = await writeRunRecord(outputDir, record);
  if (!path) logger.warn("the run record could not be written: a run that dies now is not seen by serve", { outputDir });
  const timer = setInterval(() => {
    const now = new Date();
    if (path) void utimes(path, now, now).catch(() => undefined);
  }, beatEvery(staleAfterMs));
  // The heartbeat never keeps a finished process alive.
  timer.unref();
  const ours = async () => {
    const text = path ? await readFile(path, "utf8").catch(() => undefined) : undefined;
    const now = text === undefined ? undefined : RunRecord.safeParse(JSON.parse(text)).data;
    return now?.state === "started" && now.token === record.token;
  };
  return {
    previousDied,
    lastRunBad,
    end: async (outcome) => {
      clearInterval(timer);
      try {
        if (!path || !(await ours())) return;
        // A manifest this run wrote says how it went (recordFailedRun included): the record has nothing to add.
        const manifest = await readFile(join(outputDir, MANIFEST_FILE), "utf8").then((t) => JSON.parse(t) as { endedAt?: string }, () => undefined);
        const recorded = manifest?.endedAt !== undefined && Date.parse(manifest.endedAt) >= startedAt.getTime();
        if (outcome === undefined || recorded) {
          await rm(path, { force: true });
          return;
        }
        // Another run holds the lock and speaks for itself: this one leaves the record as it found it.
        if (isPharmafeedError(outcome, "LOCK_HELD")) {
          if (record.previous) await writeRunRecord(outputDir, { ...record.previous, state: "failed" });
          else await rm(path, { force: true });
          return;
        }
        const code = isPharmafeedError(outcome) ? outcome.code : "UNEXPECTED";
        const message = outcome instanceof Error ? outcome.message.split("\n").slice(0, 6).join("\n") : String(outcome);
        await writeRunRecord(outputDir, { state: "failed", startedAt: record.startedAt, endedAt: new Date().toISOString(), error: { code, message }, unrecorded: "the run could not start" });
      } catch (error) {
        logger.warn("the run record could not be updated", { error: (error as Error).message });
      }
    },
  };
}

export { RUN_DIED };
