import { PharmafeedError } from "../errors.js";

/**
 * Runs `run` with a signal that SIGINT and SIGTERM abort, so that the work removes its
 * temporaries and releases its locks; a run they stopped is INTERRUPTED, said with `words`
 * (what stays as it was).
 */
export async function withInterrupts<T>(run: (signal: AbortSignal) => Promise<T>, words = "interrupted: nothing of this run was published"): Promise<T> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    return await run(controller.signal);
  } catch (error) {
    if (controller.signal.aborted) throw new PharmafeedError("INTERRUPTED", words, { cause: error });
    throw error;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
