/**
 * The read-back: for every feed with a Merchant Center account, every product's status
 * and item issues (products.list, pages of 1000) and the account's own issues, into
 * output/state/merchant.sqlite, then reports/google-issues.csv.
 *
 *   accounts (one read per account, whichever feeds share it)
 *     └─ products ─> the feed whose feed label and language they carry ─> store + tally
 *   a failed account ─> its feeds keep the previous rows, and a Problem (kind "merchant")
 *
 * Never throws for Google's answers: whatever fails becomes a Problem, so a run that
 * published its feeds stays a run that published its feeds (degraded, not failed). Bounded
 * (limits.ts): past its deadline the accounts not read keep their previous rows; the
 * run's signal (SIGTERM) stops it, the temporary store removed, and is thrown.
 */
import { join } from "node:path";
import type { Logger } from "../log.js";
import { ensureRealDir } from "../core/safe-path.js";
import type { Problem } from "../publish/manifest.js";
import { isPharmafeedError } from "../errors.js";
import { MerchantClient, type MerchantClientOptions } from "./client.js";
import { oneLine } from "./http.js";
import { abortedBy, deadline, limitsOf } from "./limits.js";
import { writeIssuesReport } from "./report.js";
import type { MerchantChannel } from "./settings.js";
import { FeedTally, type FeedSummary, MerchantStoreWriter } from "./store.js";
import { REPORTS_DIR, STATE_DIR } from "../core/layout.js";

export interface SyncOptions {
  outputDir: string;
  channels: readonly MerchantChannel[];
  logger: Logger;
  now?: Date;
  signal?: AbortSignal;
  /** Tests: retry timing. */
  client?: Partial<MerchantClientOptions>;
}

export interface SyncResult {
  feeds: FeedSummary[];
  /** The previous read-back's summaries (the alerts compare with them). */
  previous: Map<string, FeedSummary>;
  problems: Problem[];
  /** API requests sent, all accounts together. */
  requests: number;
}

const keyOf = (language: string, label: string): string => `${language.toLowerCase()}~${label.toUpperCase()}`;

async function readAccount(
  store: MerchantStoreWriter,
  channels: readonly MerchantChannel[],
  client: MerchantClient,
  syncedAt: string,
  logger: Logger,
): Promise<FeedSummary[]> {
  const first = channels[0]!;
  const tallies = new Map(channels.map((c) => [keyOf(c.contentLanguage, c.feedLabel), { channel: c, tally: new FeedTally(c.channel, first.settings.accountId, syncedAt) }]));
  let other = 0;
  for await (const page of client.products()) {
    store.batch(() => {
      for (const product of page.products) {
        const feed = tallies.get(keyOf(product.contentLanguage, product.feedLabel));
        if (!feed) {
          other++;
          continue;
        }
        const { state, issues } = store.put(feed.channel.channel, product);
        feed.tally.count(state, issues);
      }
    });
    for (const u of page.unreadable) logger.warn("merchant: product not readable", { account: first.settings.accountId, name: u.name, fields: u.why });
    if (page.unreadable.length > 0) for (const t of tallies.values()) t.tally.summary.unreadable += page.unreadable.length;
  }
  if (other > 0) logger.info("merchant: products of other feeds in the account left aside", { account: first.settings.accountId, products: other });
  const accountIssues = await client.accountIssues();
  return [...tallies.values()].map(({ tally }) => ({ ...tally.summary, accountIssues, topIssues: tally.top() }));
}

/** Groups feeds by account (and key and API): one read serves them all. */
function byAccount(channels: readonly MerchantChannel[]): MerchantChannel[][] {
  const groups = new Map<string, MerchantChannel[]>();
  for (const c of channels) {
    const key = `${c.settings.accountId}|${c.keyFile}|${c.settings.apiUrl}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.values()];
}

export async function syncMerchant(options: SyncOptions): Promise<SyncResult> {
  const limit = deadline({ ...limitsOf(options.channels[0]?.settings), ...options.client?.limits }.totalMs, "the read-back of Google's statuses", options.signal);
  try {
    return await syncWithin(options, limit.signal);
  } finally {
    limit.clear();
  }
}

async function syncWithin(options: SyncOptions, signal: AbortSignal): Promise<SyncResult> {
  const { logger } = options;
  const syncedAt = (options.now ?? new Date()).toISOString();
  const result: SyncResult = { feeds: [], previous: new Map(), problems: [], requests: 0 };
  let store: MerchantStoreWriter;
  try {
    await ensureRealDir(join(options.outputDir, STATE_DIR));
    store = await MerchantStoreWriter.open(options.outputDir);
  } catch (error) {
    result.problems.push({ kind: "merchant", code: "MERCHANT_STORE", reason: `Google's statuses could not be kept: ${(error as Error).message}` });
    return result;
  }
  try {
    for (const group of byAccount(options.channels)) {
      for (const c of group) {
        const last = store.previousSummary(c.channel);
        if (last) result.previous.set(c.channel, last);
      }
      const first = group[0]!;
      let client: MerchantClient | undefined;
      try {
        signal.throwIfAborted();
        if (first.keyFile === "") throw new Error("no service account key: merchant.credentials is empty (is GOOGLE_APPLICATION_CREDENTIALS set?)");
        client = await MerchantClient.open({
          accountId: first.settings.accountId,
          keyFile: first.keyFile,
          apiUrl: first.settings.apiUrl,
          onRetry: (e) => logger.warn("merchant: retry", { path: e.path, attempt: e.attempt, delayMs: e.delayMs, reason: e.reason }),
          ...options.client,
          limits: { ...limitsOf(first.settings), ...options.client?.limits },
          signal,
        });
        const feeds = await readAccount(store, group, client, syncedAt, logger);
        for (const feed of feeds) store.finishFeed(feed);
        result.feeds.push(...feeds);
        logger.info("merchant: statuses read", { account: first.settings.accountId, requests: client.requests, ...Object.fromEntries(feeds.map((f) => [f.channel, `${f.approved} approved, ${f.pending} pending, ${f.disapproved} disapproved`])) });
      } catch (caught) {
        if (options.signal?.aborted) throw caught;
        const error = abortedBy(signal, caught);
        const code = isPharmafeedError(error) ? error.code : "MERCHANT_HTTP";
        // One line, whatever the cause said (a proxy's page, a library's multi-line message).
        const reason = `Google's statuses for account ${first.settings.accountId} were not read: ${oneLine((error as Error).message, 2000)}`;
        logger.warn("merchant: read-back failed", { account: first.settings.accountId, code, reason });
        for (const c of group) {
          result.problems.push({ kind: "merchant", code, channel: c.channel, reason });
          const kept = store.keep(c.channel, reason, syncedAt);
          if (kept) result.feeds.push(kept);
        }
      } finally {
        result.requests += client?.requests ?? 0;
        await client?.close();
      }
    }
    await store.commit();
  } catch (error) {
    await store.abort();
    if (options.signal?.aborted) throw error;
    result.problems.push({ kind: "merchant", code: "MERCHANT_STORE", reason: `Google's statuses could not be kept: ${(error as Error).message}` });
    return result;
  }
  try {
    await ensureRealDir(join(options.outputDir, REPORTS_DIR));
    await writeIssuesReport(options.outputDir);
  } catch (error) {
    result.problems.push({ kind: "merchant", code: "MERCHANT_REPORT", reason: `reports/google-issues.csv not written: ${(error as Error).message}` });
  }
  return result;
}
