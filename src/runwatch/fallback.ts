/**
 * What a run that cannot start still needs from a config that `loadConfig` refused: the output
 * directory (where `serve` looks for the run record) and the `notify` section (where the alert
 * goes). Read leniently, each part on its own: a typo in a channel path or a preset name leaves
 * both readable, so the failure is recorded and alerted. A main file that is not JSON (a trailing
 * comma, a comment: the commonest slip of a hand edit) is read as jsonc-parser recovers it, so its
 * intact notify section still alerts; only a notify section that is itself broken leaves the
 * alert unsent (the exit code, the record and the log say it).
 */
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parse as parseLeniently, type ParseError } from "jsonc-parser";
import { substituteEnv } from "../config/env.js";
import { stripBom } from "../core/json-file.js";
import { NotifySettings } from "../notify/settings.js";

export interface Fallback {
  /** The config file, absolute. */
  configFile: string;
  outputDir: string;
  shop: string;
  notify: NotifySettings | undefined;
  /** The file has a notify section that cannot be used (its alert cannot go: the log says so); false when it has none. */
  notifyUnreadable: boolean;
  /** lock.staleAfterMs when written as a number (else the default applies). */
  lockStaleAfterMs: number | undefined;
  /** The main file names `shops` (docs/shops.md): generate runs them all. */
  many: boolean;
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const child = (value as Record<string, unknown>)[key];
  return child !== null && typeof child === "object" && !Array.isArray(child) ? (child as Record<string, unknown>) : undefined;
}

/** Never throws: whatever cannot be read falls back to the defaults loadConfig would use. */
export async function readFallback(configFile: string, outputOverride: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<Fallback> {
  const file = resolve(configFile);
  let raw: unknown;
  try {
    const text = stripBom(await readFile(file, "utf8"));
    try {
      raw = JSON.parse(text);
    } catch {
      // What the parser makes of the rest: loadConfig has refused the file with its line and column already.
      const errors: ParseError[] = [];
      raw = parseLeniently(text, errors, { allowTrailingComma: true, disallowComments: false });
    }
  } catch {
    raw = undefined;
  }
  const output = objectAt(raw, "output");
  const dir = substituteEnv(output?.["dir"], env).value;
  const outputDir = outputOverride ?? resolve(dirname(file), typeof dir === "string" && dir !== "" ? dir : "output");
  const shopName = objectAt(raw, "shop")?.["name"];
  // Only a notify section without any problem: a half-resolved webhook URL would post nowhere useful.
  const substituted = substituteEnv(objectAt(raw, "notify"), env);
  const notify = substituted.problems.length === 0 ? NotifySettings.safeParse(substituted.value).data : undefined;
  const stale = objectAt(raw, "lock")?.["staleAfterMs"];
  return {
    configFile: file,
    outputDir,
    shop: typeof shopName === "string" && shopName !== "" ? shopName : "pharmafeed",
    notify: objectAt(raw, "notify") ? notify : undefined,
    notifyUnreadable: objectAt(raw, "notify") !== undefined && notify === undefined,
    lockStaleAfterMs: typeof stale === "number" ? stale : undefined,
    many: raw !== null && typeof raw === "object" && "shops" in raw,
  };
}
