/** The flags of `generate`, shared by its one-shop path (generate.ts) and its many-shops path (_generate-shops.ts). */
import type { LogFormat } from "../log.js";

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
  /** A config with shops: the shops of shard i of n. */
  shard?: string;
  /** A config with shops: read the catalogue into the shared snapshot, map no shop. */
  "catalogue-only"?: boolean;
}
