/**
 * Google's work (the intraday push and the read-back, after a run or by `merchant sync`)
 * runs under a lock of its own, output/state/.merchant.lock, never under the run's
 * output lock: however long Google takes, the next `generate` is not refused.
 *
 * Its temporary files (`.merchant.sqlite.tmp-<pid>`, `.merchant-push.json.tmp-<pid>`,
 * `.google-issues.csv.tmp-<pid>`) are removed on every way out of the process's own work
 * (store abort, AtomicOutput abort); what a killed process left (kill -9) is removed by
 * the next holder of this lock, and by generate's clean-up, which spares a live pid.
 */
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { ensureRealDir } from "../core/safe-path.js";
import { isPharmafeedError } from "../errors.js";
import { acquireLock, isAlive, type Lock } from "../publish/lock.js";
import { REPORTS_DIR, STATE_DIR } from "../core/layout.js";

export const MERCHANT_LOCK = ".merchant.lock";

/** Names of the temporaries of Google's work, of any pid. */
const TEMPORARY = /^\.(merchant\.sqlite|merchant-push\.json|google-issues\.csv)\.tmp-(\d+)$/;

async function removeDeadTemporaries(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.flatMap((name) => {
      const pid = Number(TEMPORARY.exec(name)?.[2] ?? Number.NaN);
      return Number.isNaN(pid) || (pid !== process.pid && isAlive(pid)) ? [] : [rm(join(dir, name), { force: true })];
    }),
  );
}

/** The lock, or undefined when another process holds it (that process speaks for itself). */
export async function takeMerchantLock(outputDir: string): Promise<Lock | undefined> {
  const state = join(outputDir, STATE_DIR);
  await ensureRealDir(state);
  try {
    const lock = await acquireLock(state, { name: MERCHANT_LOCK });
    await Promise.all([state, join(outputDir, REPORTS_DIR)].map(removeDeadTemporaries));
    return lock;
  } catch (error) {
    if (isPharmafeedError(error, "LOCK_HELD")) return undefined;
    throw error;
  }
}
