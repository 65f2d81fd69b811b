/** The `history` section of the main config: how many runs' published feeds are kept, within what size. */
import { z } from "zod";
import { HISTORY_KEEP } from "../publish/manifest.js";

export const HistorySettings = z
  .object({
    /**
     * The feeds live after each of the last this many runs are kept (the ones live now always). At
     * most the manifests history/ keeps: a version is found through the manifest that published it.
     */
    keepRuns: z.number().int().min(1).max(HISTORY_KEEP).default(14),
    /** At most this many MB of kept (gzipped) versions: the oldest runs' go first, never the live ones. */
    maxMb: z.number().positive().default(1024),
  })
  .strict();
export type HistorySettings = z.infer<typeof HistorySettings>;
