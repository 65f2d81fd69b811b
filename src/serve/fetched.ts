/**
 * Which channels a marketplace ever fetched from `serve`, as serve-state.json remembers (state.ts).
 * `generate` asks it before holding a feed the config no longer names (publish/held-feeds.ts): a feed
 * no marketplace ever fetched (a typo's file, published once) is retired at once; one that was
 * fetched is held. Undefined when serve keeps no state here: nothing is known, everything is held.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { SERVE_STATE_FILE } from "../core/layout.js";

const Fetches = z.object({ fetches: z.record(z.string(), z.record(z.string(), z.unknown())) });

export async function fetchedChannels(outputDir: string): Promise<ReadonlySet<string> | undefined> {
  const text = await readFile(join(outputDir, SERVE_STATE_FILE), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = Fetches.safeParse(json);
  if (!parsed.success) return undefined;
  return new Set(Object.entries(parsed.data.fetches).flatMap(([channel, by]) => (Object.keys(by).length > 0 ? [channel] : [])));
}
