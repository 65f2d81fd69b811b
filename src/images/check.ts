/**
 * The cross-field check of image processing: a channel that processes images
 * publishes `<output.publicBaseUrl>/images/<name>`, so the main file must say
 * where `serve` is reachable.
 */
import type { LoadedConfig } from "../config/types.js";
import { PharmafeedError } from "../errors.js";

/** The config problems of image processing, as `file: path: message` lines (none when fine). */
export function imageConfigProblems(config: Pick<LoadedConfig, "channels" | "publicBaseUrl">): string[] {
  if (config.publicBaseUrl !== undefined) return [];
  return config.channels
    .filter((channel) => channel.mapping.images.process !== undefined)
    .map((channel) => `${channel.configFile}: images.process: needs output.publicBaseUrl in the main file (the feed links to <publicBaseUrl>/images/<name>)`);
}

/** Throws CONFIG_INVALID listing every channel that processes images without a publicBaseUrl. */
export function checkImageConfig(config: Pick<LoadedConfig, "channels" | "publicBaseUrl">): void {
  const problems = imageConfigProblems(config);
  if (problems.length > 0) {
    throw new PharmafeedError("CONFIG_INVALID", `configuration refused (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n  ${problems.join("\n  ")}`, {
      context: { file: config.channels[0]?.configFile },
    });
  }
}
