/**
 * The output directory before a run touches it: locked (one run at a time), its own folders real,
 * what dead runs left (temporaries, a publish journal) cleared or rolled forward, and the last
 * run's manifest read for the gate and the channels not run.
 */
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { LoadedConfig } from "../config/types.js";
import { ensureRealDir } from "../core/safe-path.js";
import { isPharmafeedError } from "../errors.js";
import type { Logger } from "../log.js";
import { rollForward } from "../publish/journal.js";
import { acquireLock, isAlive, type Lock } from "../publish/lock.js";
import { type Manifest, readPreviousManifest } from "../publish/manifest.js";
import { recordFailedRun } from "./failed-run.js";
import { HISTORY_DIR, IMAGES_DIR, LOCK_FILE, MANIFEST_FILE, REPORTS_DIR, STATE_DIR } from "../core/layout.js";

/** Temporary files of runs that died (kill -9, power cut): hidden names ending in .tmp-<pid>. */
async function removeDeadTemporaries(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(
    names
      // A live pid's are spared: the last run's push and read-back go on outside the output lock (merchant/lock.ts).
      .filter((name) => /^\..+\.tmp-\d+$/.test(name) && Number(name.split("-").at(-1)) !== process.pid && !isAlive(Number(name.split("-").at(-1))))
      .map((name) => rm(join(dir, name), { force: true })),
  );
}

/**
 * The run's lock. Another run holding it speaks for itself; anything else (a full disk, a folder
 * that cannot be written) is a run that could not start: recorded where monitoring sees it.
 */
export async function lockOutput(input: { outputDir: string; config: LoadedConfig; startedAt: Date; dryRun: boolean; logger: Logger }): Promise<Lock> {
  const { outputDir, config, logger } = input;
  try {
    await mkdir(outputDir, { recursive: true });
    const lock = await acquireLock(outputDir, {
      ...(config.lock ? { staleAfterMs: config.lock.staleAfterMs } : {}),
      onLost: (holder) => logger.error("the run lock was taken over by another run while this one was alive", { file: join(outputDir, LOCK_FILE), holder }),
    });
    if (lock.tookOver) logger.warn("took over the stale lock of a run that is gone", { file: lock.file, previous: lock.previous });
    return lock;
  } catch (error) {
    if (!isPharmafeedError(error, "LOCK_HELD") && !input.dryRun) await recordFailedRun({ outputDir, config, startedAt: input.startedAt, error, interrupted: false, logger });
    throw error;
  }
}

/** Clears what dead runs left and returns the last run's manifest (undefined on a first run). */
export async function prepareOutput(outputDir: string, logger: Logger): Promise<Manifest | undefined> {
  // Its folders are never links (core/safe-path.ts): a linked reports/ was written through.
  await Promise.all([REPORTS_DIR, HISTORY_DIR].map((dir) => ensureRealDir(join(outputDir, dir))));
  await Promise.all([outputDir, join(outputDir, REPORTS_DIR), join(outputDir, HISTORY_DIR), join(outputDir, IMAGES_DIR), join(outputDir, STATE_DIR)].map(removeDeadTemporaries));
  // A run killed between its renames and manifest.json left a journal: its renamed files go into the manifest first.
  const rolled = await rollForward(outputDir);
  if (rolled.length > 0) logger.warn("a killed run's published files were added to manifest.json from its journal", { channels: rolled.join(", ") });
  const last = await readPreviousManifest(outputDir);
  if (last && last.from !== MANIFEST_FILE) {
    logger.warn("manifest.json is missing or unreadable; the publish gate compares with the last run's copy", { from: last.from });
  }
  return last?.manifest;
}
