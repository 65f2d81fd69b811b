/**
 * The Merchant Center alerts, from one read-back against the one before: disapprovals
 * that jumped by more than the feed's threshold (percentage points of its products), and
 * account-level issues that were not there before (of the configured severities). A
 * first read-back has no baseline for a jump: it only sets one.
 */
import type { AlertLanguage } from "../notify/alert-words.js";
import { base, type Alert } from "../notify/alert.js";
import type { MerchantChannel } from "./settings.js";
import type { FeedSummary } from "./store.js";

export interface AlertContext {
  shop: string;
  statusUrl?: string;
  now: Date;
  /** notify.language: the title and what to do in it (the details are Google's own words). */
  language?: AlertLanguage;
}

const share = (f: FeedSummary): number => (f.products === 0 ? 0 : (f.disapproved / f.products) * 100);
const round = (n: number): number => Math.round(n * 10) / 10;

export function merchantAlerts(feeds: readonly FeedSummary[], previous: ReadonlyMap<string, FeedSummary>, channels: readonly MerchantChannel[], ctx: AlertContext): Alert[] {
  const settings = new Map(channels.map((c) => [c.channel, c.settings.alerts]));
  const jumps: Alert["channels"] = [];
  const issues: Alert["channels"] = [];
  const seenAccounts = new Set<string>();
  for (const feed of feeds) {
    const alerts = settings.get(feed.channel);
    if (!alerts || feed.error) continue;
    const last = previous.get(feed.channel);
    // Rounded: 7 % - 2 % is 5.000000000000001 in floating point, which is not "more than 5".
    const rise = last ? Math.round((share(feed) - share(last)) * 1e6) / 1e6 : 0;
    if (last && rise > alerts.disapprovalJumpPercent) {
      const top = feed.topIssues.filter((i) => i.severity === "DISAPPROVED").slice(0, 3).map((i) => `${i.code} (${i.products})`).join(", ");
      jumps.push({
        name: feed.channel,
        reason: `${last.disapproved} -> ${feed.disapproved} of ${feed.products} products disapproved (${round(share(last))} % -> ${round(share(feed))} %, threshold +${alerts.disapprovalJumpPercent} points)${top ? `; most: ${top}` : ""}`,
      });
    }
    // Account issues are the account's: said once even when several feeds share it.
    if (seenAccounts.has(feed.accountId)) continue;
    seenAccounts.add(feed.accountId);
    const known = new Set((last?.accountIssues ?? []).map((i) => `${i.name}|${i.title}`));
    for (const issue of feed.accountIssues) {
      if (known.has(`${issue.name}|${issue.title}`) || !(alerts.accountIssueSeverities as string[]).includes(issue.severity)) continue;
      issues.push({ name: `account ${feed.accountId}`, reason: `${issue.severity.toLowerCase()}: ${issue.title}${issue.detail ? ` - ${issue.detail}` : ""}${issue.documentationUri ? ` (${issue.documentationUri})` : ""}` });
    }
  }
  const out: Alert[] = [];
  const common = (event: Alert["event"]) => base(event, ctx.shop, ctx.statusUrl, ctx.now, ctx.language ?? "en");
  if (jumps.length > 0) out.push({ ...common("merchant-disapprovals"), what: `Google disapproved many more products of ${jumps.map((j) => j.name).join(", ")} than at the last read-back.`, channels: jumps });
  if (issues.length > 0) out.push({ ...common("merchant-account-issue"), what: `Google reports ${issues.length === 1 ? "a new issue" : `${issues.length} new issues`} with the Merchant Center account.`, channels: issues });
  return out;
}
