/** The flags of `generate`, shared by its one-shop path (generate.ts) and its many-shops path (_generate-shops.ts). */
import type { LogFormat, Logger } from "../log.js";

export interface GenerateArgs {
  config: string;
  channel?: string[];
  output?: string;
  "dry-run": boolean;
  force: boolean;
  retire?: string[];
  workers?: number;
  source?: "full" | "delta" | "snapshot";
  reuse: boolean;
  "log-format": LogFormat;
  /** A config with shops: only these (names or globs). */
  shops?: string[];
  /** A config with shops: the shops of shard i of n (parsed as yargs reads the flag: config/shops.ts parseShard). */
  shard?: { index: number; count: number };
  /** A config with shops: read the catalogue into the shared snapshot, map no shop. */
  "catalogue-only"?: boolean;
}

/** What a run takes from the flags, whether of one shop or many. */
export function runFlags(args: GenerateArgs, logger: Logger, signal: AbortSignal) {
  return {
    dryRun: args["dry-run"],
    force: args.force,
    ...(args.retire ? { retire: args.retire } : {}),
    ...(args.workers === undefined ? {} : { workers: args.workers }),
    ...(args.source === undefined ? {} : { source: args.source }),
    reuse: args.reuse,
    logger,
    tty: process.stderr.isTTY === true && args["log-format"] === "plain",
    signal,
  };
}
