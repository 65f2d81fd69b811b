/**
 * What an alert says, whatever carries it: what happened, which channels (and
 * why each), and what to do next. Built from the run's outcome (its error code,
 * the same that gives the exit code) or from the serve's stale check.
 */
import { hostname } from "node:os";
import type { Manifest } from "../publish/manifest.js";
import type { RunState } from "../publish/run-state.js";
import { unpublishedOf } from "../publish/run-state.js";
import type { AlertEvent } from "./settings.js";

export interface Alert {
  event: AlertEvent;
  /** One line: the e-mail subject, the chat message's first line. */
  title: string;
  /** What happened, in a sentence or two. */
  what: string;
  channels: { name: string; reason: string }[];
  /** What to do next. */
  next: string;
  shop: string;
  host: string;
  at: string;
  exitCode?: number;
  errorCode?: string;
  statusUrl?: string;
}

/** The run outcomes that alert, by the error code the run ends with (every other failure is run-failed). */
function eventOf(errorCode: string): AlertEvent {
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

const NEXT: Record<AlertEvent, string> = {
  "gate-tripped":
    "The previous files stay online. Look at reports/<channel>.csv and the catalogue for why the feed shrank or why so many products were rejected; " +
    "if the new feed is right, publish it with `pharmafeed generate --force` (or `--channel <name> --force`).",
  "channel-failed":
    "The other channels were published; the failed ones keep their previous file. Read the error in the run's log (a template, a full disk), " +
    "fix it, then run `pharmafeed generate --channel <name>`.",
  "offers-refused":
    "Nothing was published; the previous feeds stay online with their old prices and stock. Fix the offers file at the lines the log and " +
    "reports/_offers.csv name (header, key column, format), then run `pharmafeed generate` again (`--force` publishes anyway).",
  "run-degraded":
    "The feeds were published. Read what failed below (kept state, a destination, a served feed the config no longer names) and the run's log; " +
    "the next run tries again.",
  "run-failed":
    "Nothing of this run was published; the previous feeds stay online. Read the error below and the run's log: for a source error check the " +
    "catalogue's base URL, credentials and service status. The next scheduled run tries again, or run `pharmafeed generate` by hand.",
  "merchant-disapprovals":
    "Google disapproved many more products since the last read-back. `pharmafeed explain <id>` shows Google's issue per product, " +
    "reports/google-issues.csv lists them all with Google's help links; fix the data (or the feed's mapping), Google re-checks at its next fetch.",
  "merchant-account-issue":
    "Google reports an issue with the whole Merchant Center account (it can suspend every product). Open Merchant Center, " +
    "read the issue and its help link, and act on it; pharmafeed cannot fix account issues.",
  "feeds-stale":
    "The marketplaces are fetching old prices and stock. Check that the nightly job runs (crontab or `systemctl list-timers pharmafeed.timer`), " +
    "read its last log, and run `pharmafeed generate` by hand.",
};

const TITLE: Record<AlertEvent, string> = {
  "gate-tripped": "publish gate tripped: feeds not updated",
  "channel-failed": "a channel failed: feed not updated",
  "offers-refused": "offers file refused: nothing published",
  "run-degraded": "feeds published, but something else failed",
  "run-failed": "the feed run failed: nothing published",
  "feeds-stale": "feeds are stale",
  "merchant-disapprovals": "Google disapproved many more products",
  "merchant-account-issue": "Google reports a Merchant Center account issue",
};

/** The fields every alert shares (exported for the alerts of src/merchant/). */
export function base(event: AlertEvent, shop: string, statusUrl: string | undefined, now: Date) {
  return { event, title: `${shop}: ${TITLE[event]}`, next: NEXT[event], shop, host: hostname(), at: now.toISOString(), ...(statusUrl ? { statusUrl } : {}) };
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
  exitCode: number;
  now?: Date;
}): Alert {
  const event = eventOf(input.error.code);
  const channels = input.manifest
    ? [
        ...unpublishedOf(input.manifest.channels).map((u) => ({ name: u.channel, reason: u.reason })),
        ...(input.manifest.problems ?? []).map((p) => ({ name: p.channel ?? "run", reason: p.reason })),
      ]
    : input.channels.map((name) => ({ name, reason: `not run: ${input.error.code}` }));
  return {
    ...base(event, input.shop, input.statusUrl, input.now ?? new Date()),
    what: `${input.error.code}: ${input.error.message}`,
    channels,
    exitCode: input.exitCode,
    errorCode: input.error.code,
  };
}

/** The alert for feeds older than serve.maxFeedAgeHours. */
export function staleAlert(input: { shop: string; statusUrl?: string; state: RunState; manifest?: Manifest; now: Date }): Alert {
  const channels = (input.manifest?.channels ?? []).map((c) => ({
    name: c.name,
    reason: c.live ? `online file published ${c.live.publishedAt}` : "nothing online",
  }));
  return { ...base("feeds-stale", input.shop, input.statusUrl, input.now), what: input.state.summary, channels };
}

/** The alert as plain text (e-mail body, chat message). */
export function alertText(alert: Alert): string {
  const lines = [alert.what, ""];
  if (alert.channels.length > 0) {
    lines.push("Channels:");
    for (const c of alert.channels) lines.push(`- ${c.name}: ${c.reason}`);
    lines.push("");
  }
  lines.push(`What to do: ${alert.next}`, "");
  if (alert.statusUrl) lines.push(`Status page: ${alert.statusUrl}`);
  lines.push(`Host ${alert.host}, ${alert.at}${alert.exitCode === undefined ? "" : `, exit code ${alert.exitCode}`}.`);
  return lines.join("\n");
}
