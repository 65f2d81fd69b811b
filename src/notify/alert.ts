/**
 * What an alert says, whatever carries it: what happened, which channels (and
 * why each), and what to do next. Built from the run's outcome (its error code,
 * the same that gives the exit code) or from the serve's stale check.
 */
import { hostname } from "node:os";
import type { Manifest } from "../publish/manifest.js";
import type { RunState } from "../publish/run-state.js";
import { unpublishedOf } from "../publish/run-state.js";
import { errorWords, fill, problemWords, unpublishedWords } from "../publish/run-words.js";
import { ALERT_WORDS, type AlertLanguage } from "./alert-words.js";
import { nextStep } from "./next-steps.js";
import { decimal } from "../core/numbers.js";
import type { AlertEvent } from "./settings.js";

export interface Alert {
  event: AlertEvent;
  /** One line: the e-mail subject, the chat message's first line. */
  title: string;
  /** What happened, in a sentence or two. */
  what: string;
  /** Each channel once: why, in words; `detail` is the run's own text (config keys, codes) for scripts. */
  channels: { name: string; reason: string; detail?: string }[];
  /** What to do next. */
  next: string;
  shop: string;
  host: string;
  at: string;
  exitCode?: number;
  errorCode?: string;
  statusUrl?: string;
  /** notify.language: the words of title, what, next and the text's labels. */
  language: AlertLanguage;
}

/** The run outcomes that alert, by the error code the run ends with (every other failure is run-failed). */
export function eventOf(errorCode: string): AlertEvent {
  switch (errorCode) {
    case "GATE_TRIPPED":
      return "gate-tripped";
    case "CHANNEL_FAILED":
      return "channel-failed";
    case "OFFERS_REFUSED":
      return "offers-refused";
    case "RUN_DEGRADED":
      return "run-degraded";
    default:
      return "run-failed";
  }
}

/** The fields every alert shares (exported for the alerts of src/merchant/). */
export function base(event: AlertEvent, shop: string, statusUrl: string | undefined, now: Date, language: AlertLanguage) {
  const w = ALERT_WORDS[language];
  return { event, title: `${shop}: ${w.title[event]}`, next: w.next[event], shop, host: hostname(), at: now.toISOString(), language, ...(statusUrl ? { statusUrl } : {}) };
}

/**
 * The alert for a run that ended with an error (undefined for a run that
 * published every channel). `manifest` is the run's, when it got that far.
 */
export function runAlert(input: {
  shop: string;
  statusUrl?: string;
  manifest?: Manifest;
  /** The channels of the run (for a run that failed before any manifest). */
  channels: readonly string[];
  error: { code: string; message: string };
  /** The config file the run was given (in the commands it suggests). */
  /** A shop of a config with shops: its key, named in every suggested command (docs/shops.md). */
  shopId?: string;
  configFile?: string;
  /** offers-refused: whether `--force` would publish what the shop means. */
  forceHelps?: boolean;
  /** A run that died without a word: its last heartbeat. */
  diedAt?: string;
  /** Unknown for a run that died without a word (found by the next run). */
  exitCode?: number;
  now?: Date;
  language?: AlertLanguage;
}): Alert {
  const event = eventOf(input.error.code);
  const language = input.language ?? "en";
  const w = ALERT_WORDS[language];
  const unpublished = input.manifest ? unpublishedOf(input.manifest.channels) : [];
  const channels = input.manifest
    ? [
        ...unpublished.map((u) => ({ name: u.channel, reason: unpublishedWords(u.reason, language), detail: u.reason })),
        // A problem's own text is words already (and says how to fix it), in English.
        ...(input.manifest.problems ?? []).map((p) => ({ name: p.channel ?? "run", reason: language === "en" ? p.reason : problemWords(p.kind, language), detail: `${p.code}: ${p.reason}` })),
      ]
    : input.channels.map((name) => ({ name, reason: w.notRun }));
  // Each reason is said once, in the channel list; the sentence above it says what that means.
  const what =
    input.manifest && (event === "gate-tripped" || event === "channel-failed")
      ? fill(w.notUpdated, { n: unpublished.length })
      : input.manifest && event === "run-degraded"
        ? w.degraded
        : `${errorWords(input.error.code, language, input.diedAt)}.\n${input.error.code}: ${input.error.message}`;
  return {
    ...base(event, input.shop, input.statusUrl, input.now ?? new Date(), language),
    next: nextStep({ event, language, manifest: input.manifest, error: input.error, configFile: input.configFile, forceHelps: input.forceHelps, shop: input.shopId }),
    what,
    channels,
    ...(input.exitCode === undefined ? {} : { exitCode: input.exitCode }),
    errorCode: input.error.code,
  };
}

/** The alert for feeds older than serve.maxFeedAgeHours, in the alert's language (times in UTC, as the page writes them). */
export function staleAlert(input: { shop: string; statusUrl?: string; state: RunState; manifest?: Manifest; now: Date; language?: AlertLanguage }): Alert {
  const language = input.language ?? "en";
  const w = ALERT_WORDS[language];
  const utc = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;
  const channels = (input.manifest?.channels ?? []).map((c) => ({
    name: c.name,
    reason: c.live ? fill(w.onlineSince, { at: utc(c.live.publishedAt) }) : w.nothingOnline,
  }));
  const age = input.state.newestFeedAgeHours;
  const what = age === undefined ? w.staleNone : fill(w.staleWhat, { age: decimal(age, language), max: input.state.maxFeedAgeHours });
  return { ...base("feeds-stale", input.shop, input.statusUrl, input.now, language), what, channels };
}

/** The alert as plain text (e-mail body, chat message). */
export function alertText(alert: Alert): string {
  const w = ALERT_WORDS[alert.language];
  const lines = [alert.what, ""];
  if (alert.channels.length > 0) {
    lines.push(`${w.channels}:`);
    for (const c of alert.channels) lines.push(`- ${c.name}: ${c.reason}`);
    lines.push("");
  }
  lines.push(`${w.whatToDo}: ${alert.next}`, "");
  if (alert.statusUrl) lines.push(`${w.statusPage}: ${alert.statusUrl}`);
  lines.push(fill(w.footer, { host: alert.host, at: alert.at, exit: alert.exitCode === undefined ? "" : `${w.exitCode}${alert.exitCode}` }));
  return lines.join("\n");
}
