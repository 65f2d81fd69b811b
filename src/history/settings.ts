/** The `history` section of the main config: how many runs' published feeds are kept, within what size. */
import { z } from "zod";

export const HistorySettings = z
  .object({
    /** The feeds live after each of the last this many runs are kept (the ones live now always). */
    keepRuns: z.number().int().min(1).default(14),
    /** At most this many MB of kept (gzipped) versions: the oldest runs' go first, never the live ones. */
    maxMb: z.number().positive().default(1024),
  })
  .strict();
export type HistorySettings = z.infer<typeof HistorySettings>;
