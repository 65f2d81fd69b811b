/**
 * The feed history as a StateSink (publish/run-parts.ts): once the feeds are published, every
 * feed live now is kept as a version (history/store.ts; unchanged ones are already), then the
 * versions no longer named by the last `keepRuns` runs, or beyond `maxMb`, are removed. What it
 * cannot keep is a problem of the run (HISTORY_NOT_KEPT), never its failure: the feeds are out.
 */
import type { Logger } from "../log.js";
import type { Manifest, Problem } from "../publish/manifest.js";
import { readHistory } from "../publish/manifest.js";
import type { StateSink } from "../publish/run-parts.js";
import type { HistorySettings } from "./settings.js";
import { keepVersion, prune } from "./store.js";

/** The digests live after a run: what a marketplace could fetch then. */
function liveDigests(manifest: Manifest): string[] {
  return manifest.channels.flatMap((c) => (c.live ? [c.live.sha256] : []));
}

export function historySink(settings: HistorySettings, logger: Logger): StateSink {
  return {
    name: "feed history",
    abort: async () => undefined,
    async commit({ outputDir, manifest, dryRun }) {
      if (dryRun) return [];
      const started = performance.now();
      const problems: Problem[] = [];
      // All at once: the gzip runs in libuv's thread pool (4 threads), so the files compress in parallel.
      // Two channels publishing the same version wait for one write (keeping is by digest).
      const writes = new Map<string, Promise<"kept" | "already">>();
      await Promise.all(
        manifest.channels.map(async (channel) => {
          const live = channel.live;
          if (!live) return;
          try {
            let write = writes.get(live.sha256);
            if (write === undefined) writes.set(live.sha256, (write = keepVersion(outputDir, live.file, live.sha256)));
            await write;
          } catch (error) {
            problems.push({ kind: "state", code: "HISTORY_NOT_KEPT", channel: channel.name, reason: `this version of ${live.file} was not kept in history/feeds: ${(error as Error).message}` });
          }
        }),
      );
      try {
        // Newest first; this run's manifest is in history/ already (writeManifest), but may be the only one.
        const earlier = (await readHistory(outputDir)).filter((m) => m.startedAt !== manifest.startedAt).reverse();
        const runs = [manifest, ...earlier].slice(0, settings.keepRuns).map(liveDigests);
        const removed = await prune(outputDir, runs, settings.maxMb * 1024 * 1024);
        const kept = (await Promise.all([...writes.values()].map((w) => w.catch(() => "failed")))).filter((w) => w === "kept").length;
        logger.info("feed history", { kept, removed: removed.length, seconds: Number(((performance.now() - started) / 1000).toFixed(2)) });
      } catch (error) {
        problems.push({ kind: "state", code: "HISTORY_NOT_KEPT", reason: `history/feeds could not be pruned: ${(error as Error).message}` });
      }
      return problems;
    },
  };
}
