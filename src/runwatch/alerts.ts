/**
 * The alerts of runs that never reached `endRun` with a loaded config: a run that could not
 * start (its notify section read leniently, fallback.ts) and a run that died without a word
 * (found by the next run, watch.ts). Both are `run-failed`, like any run that failed as a whole.
 */
import { exitCodeFor } from "../errors.js";
import type { Logger } from "../log.js";
import { notify, runAlert, type Alert } from "../notify/index.js";
import { base } from "../notify/alert.js";
import { ALERT_WORDS } from "../notify/alert-words.js";
import type { NotifySettings } from "../notify/settings.js";
import { RUN_DIED } from "../publish/failure-record.js";
import type { DiedRun } from "./watch.js";

interface Where {
  shop: string;
  /** The config file given to the run (in the commands the alert suggests). */
  configFile?: string | undefined;
  notify: NotifySettings | undefined;
  /** The config has a notify section that cannot be used (fallback.ts): said in the log. Without one, nobody asked for alerts. */
  notifyUnreadable?: boolean;
  logger: Logger;
}

function send(where: Where, error: { code: string; message: string }, exitCode: number | undefined, diedAt?: string): Promise<number> {
  const alert = runAlert({
    shop: where.shop,
    ...(where.notify?.statusUrl ? { statusUrl: where.notify.statusUrl } : {}),
    channels: [],
    error,
    ...(where.configFile ? { configFile: where.configFile } : {}),
    ...(diedAt ? { diedAt } : {}),
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(where.notify ? { language: where.notify.language } : {}),
  });
  return notify(where.notify, alert, where.logger);
}

/** A run that could not start: the error it ends with, as cli.ts will report it. */
export async function alertCannotStart(where: Where, error: unknown): Promise<void> {
  if (!where.notify) {
    if (where.notifyUnreadable !== false) where.logger.warn("no alert sent: the notify section of the config cannot be read", {});
    return;
  }
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  await send(where, { code: typeof code === "string" ? code : "UNEXPECTED", message }, exitCodeFor(error));
}

/** The last run died without finishing: said by this run, once. */
export async function alertDied(where: Where, died: DiedRun): Promise<void> {
  where.logger.error("the last run died without finishing", { startedAt: died.startedAt, diedAt: died.diedAt });
  await send(where, { code: RUN_DIED, message: died.message }, undefined, died.diedAt);
}

/** A run that published everything after one that failed, died or left feeds out: the all-clear. */
export async function alertRecovered(where: Where): Promise<void> {
  const language = where.notify?.language ?? "en";
  const w = ALERT_WORDS[language];
  const alert: Alert = {
    ...base("run-recovered", where.shop, where.notify?.statusUrl, new Date(), language),
    what: w.title["run-recovered"],
    channels: [],
    exitCode: 0,
  };
  await notify(where.notify, alert, where.logger);
}
