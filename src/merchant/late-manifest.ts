/**
 * A hook that runs after the run released its output lock (Google's push and read-back:
 * they hold their own, lock.ts). Its outcome is applied to the manifest by the run's one
 * rule (publish/run-state.ts applyOutcome), and manifest.json is written again only under
 * the output lock, taken for this write alone, and only while it is still this run's: a
 * later run that already started (or published) speaks for itself, and this run's
 * problems stay in its log, its exit code and its alert.
 *
 * Generic in shape (any AfterPublishHook); it lives here because only Google needs it now.
 */
import type { Logger } from "../log.js";
import { isPharmafeedError } from "../errors.js";
import { acquireLock } from "../publish/lock.js";
import { type Manifest, readManifest, writeManifest } from "../publish/manifest.js";
import type { AfterPublishHook, PartOutcome, PublishedRun } from "../publish/run-parts.js";
import { applyOutcome } from "../publish/run-state.js";

export async function writeManifestIfStillOurs(outputDir: string, manifest: Manifest, logger: Logger, staleAfterMs?: number): Promise<void> {
  let lock;
  try {
    lock = await acquireLock(outputDir, staleAfterMs === undefined ? {} : { staleAfterMs });
  } catch (error) {
    const why = isPharmafeedError(error, "LOCK_HELD") ? "a later run holds the output lock" : (error as Error).message;
    logger.warn("manifest.json not updated with Google's problems", { why });
    return;
  }
  try {
    const current = await readManifest(outputDir);
    if (current?.startedAt !== manifest.startedAt) {
      logger.warn("manifest.json not updated with Google's problems", { why: "a later run has written its own" });
      return;
    }
    await writeManifest(outputDir, manifest);
  } finally {
    await lock.release();
  }
}

/** Runs `hook` on the published run; returns the manifest with its outcome (written when it says anything and is still ours). */
export async function settleUnlocked(run: PublishedRun, hook: AfterPublishHook, logger: Logger, staleAfterMs?: number): Promise<Manifest> {
  const outcome: PartOutcome = await hook.run(run).catch((error: unknown) => ({
    problems: [{ kind: "merchant" as const, code: "INTERNAL", reason: `${hook.name} failed: ${(error as Error).message}` }],
  }));
  if (outcome.problems.length === 0 && !outcome.channels) return run.manifest;
  const manifest = { ...applyOutcome(run.manifest, outcome), endedAt: new Date().toISOString() };
  await writeManifestIfStillOurs(run.outputDir, manifest, logger, staleAfterMs);
  return manifest;
}
