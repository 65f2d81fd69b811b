/**
 * The intraday push: after a run, a channel with `merchant.push.enabled` sends the
 * products whose price, sale price or availability differ from what Google has to a
 * supplemental API data source (productInputs.insert with only those attributes), within
 * the quota the account reports and Google's advice (each product at most twice a day).
 * Deletes the inputs of products that left the feed. What fails is a Problem.
 */
import { join } from "node:path";
import pLimit from "p-limit";
import { isPharmafeedError } from "../../errors.js";
import type { Logger } from "../../log.js";
import type { Problem } from "../../publish/manifest.js";
import { MerchantClient, type MerchantClientOptions } from "../client.js";
import { oneLine } from "../http.js";
import { abortedBy, deadline, limitsOf } from "../limits.js";
import type { DataSource } from "../schemas.js";
import type { MerchantChannel } from "../settings.js";
import { ensureLinked } from "./link.js";
import { planPush, type OfferState } from "./plan.js";
import { readPushState, writePushState, type ChannelPushState } from "./state.js";
import { attributesOf, readFeedValues, type PUSHABLE_LAYOUTS } from "./values.js";

export interface PushChannel {
  merchant: MerchantChannel;
  /** The published feed file, relative to the output directory, and its layout. */
  file: string;
  layout: (typeof PUSHABLE_LAYOUTS)[number];
}

export interface PushFigures {
  channel: string;
  pushed: number;
  removed: number;
  waiting: number;
  failed: number;
  requests: number;
  /** Why the pushed values change nothing Google shows (the supplemental source is not linked), when so. */
  unlinked?: string;
}

export interface PushOptions {
  outputDir: string;
  channels: readonly PushChannel[];
  /** A run that read the catalogue (full or delta): its file becomes what Google is taken to have. */
  fullRun: boolean;
  now: Date;
  logger: Logger;
  client?: Partial<MerchantClientOptions>;
  /** The run's signal (SIGTERM); the push also stops at its own deadline (limits.ts). */
  signal?: AbortSignal;
}

const INPUT_LIFETIME_MS = 30 * 86_400_000;

async function dataSourceOf(client: MerchantClient, sources: DataSource[], m: MerchantChannel, known: string | undefined): Promise<string> {
  const named = m.settings.push.dataSource;
  if (named) return /^\d+$/.test(named) ? `accounts/${m.settings.accountId}/dataSources/${named}` : named;
  if (known) return known;
  const displayName = `pharmafeed intraday ${m.channel}`;
  const found = sources.find((d) => d.displayName === displayName);
  if (found) return found.name;
  const created = await client.createSupplementalDataSource(displayName);
  sources.push(created);
  return created.name;
}

async function budgetOf(client: MerchantClient, share: number): Promise<number> {
  const group = (await client.quotas()).find((q) => q.methodDetails.some((d) => /productinputs\.insert/i.test(d.method)));
  return group ? Math.max(0, Math.floor((group.quotaLimit - group.quotaUsage) * share)) : Number.MAX_SAFE_INTEGER;
}

async function pushOne(options: PushOptions, channel: PushChannel, cs: ChannelPushState, signal: AbortSignal): Promise<PushFigures> {
  const m = channel.merchant;
  const figures: PushFigures = { channel: m.channel, pushed: 0, removed: 0, waiting: 0, failed: 0, requests: 0 };
  const current = await readFeedValues(join(options.outputDir, channel.file), channel.layout);
  const offers = new Map<string, OfferState>(Object.entries(cs.offers));
  if (m.keyFile === "") throw new Error("no service account key: merchant.credentials is empty (is GOOGLE_APPLICATION_CREDENTIALS set?)");
  const client = await MerchantClient.open({ accountId: m.settings.accountId, keyFile: m.keyFile, apiUrl: m.settings.apiUrl, ...options.client, limits: { ...limitsOf(m.settings), ...options.client?.limits }, signal });
  try {
    const limits = { maxPerProductPerDay: m.settings.push.maxPerProductPerDay, repushAfterDays: m.settings.push.repushAfterDays };
    const plan = planPush(current, offers, { ...limits, budget: Number.MAX_SAFE_INTEGER }, options.now);
    if (plan.push.length + plan.remove.length > 0) {
      // One list serves both: finding (or creating) the supplemental source, and checking it is linked.
      const sources = await client.dataSources();
      cs.dataSource = await dataSourceOf(client, sources, m, cs.dataSource);
      const unlinked = await ensureLinked(client, sources, m, cs.dataSource, options.logger);
      if (unlinked) figures.unlinked = unlinked;
      const budget = await budgetOf(client, m.settings.push.maxQuotaShare);
      const bounded = planPush(current, offers, { ...limits, budget }, options.now);
      figures.waiting = bounded.waiting;
      const key = (offerId: string) => ({ offerId, contentLanguage: m.contentLanguage, feedLabel: m.feedLabel });
      const limit = pLimit(4);
      let stopped: unknown;
      const guard = async (work: () => Promise<void>) => {
        if (stopped) return void figures.waiting++;
        try {
          await work();
        } catch (error) {
          if (signal.aborted) throw error;
          figures.failed++;
          // A daily limit or a refused key stops the pass; one bad product does not.
          if (isPharmafeedError(error) && error.code !== "MERCHANT_HTTP") stopped ??= error;
          options.logger.warn("merchant: push failed", { channel: m.channel, error: oneLine((error as Error).message) });
        }
      };
      await Promise.all([
        ...bounded.remove.map((id) => limit(() => guard(async () => {
          await client.deleteProductInput(cs.dataSource!, key(id)).catch((e: unknown) => {
            if (!(isPharmafeedError(e) && e.context.status === 404)) throw e;
          });
          const baseline = offers.get(id)?.baseline;
          offers.set(id, baseline ? { baseline } : {});
          figures.removed++;
        }))),
        ...bounded.push.map((p) => limit(() => guard(async () => {
          const attributes = attributesOf(p.values);
          if (!attributes) throw new Error(`${p.id}: price "${p.values.price}" cannot be sent`);
          await client.insertProductInput(cs.dataSource!, key(p.id), attributes);
          const day = options.now.toISOString().slice(0, 10);
          const before = offers.get(p.id)?.input;
          offers.set(p.id, { ...offers.get(p.id), input: { values: p.values, day, today: (before?.day === day ? before.today : 0) + 1, at: options.now.toISOString() } });
          figures.pushed++;
        }))),
      ]);
      if (stopped) throw stopped;
    } else figures.waiting = plan.waiting;
  } finally {
    figures.requests = client.requests;
    await client.close();
    // What Google is taken to have: the file of a run that read the catalogue; inputs past their 30 days are gone.
    for (const [id, state] of offers) {
      const expired = state.input && options.now.getTime() - Date.parse(state.input.at) > INPUT_LIFETIME_MS;
      const next: OfferState = { ...(options.fullRun ? (current.has(id) ? { baseline: current.get(id)! } : {}) : state.baseline ? { baseline: state.baseline } : {}), ...(state.input && !expired ? { input: state.input } : {}) };
      if (next.baseline || next.input) offers.set(id, next);
      else offers.delete(id);
    }
    if (options.fullRun) for (const [id, values] of current) if (!offers.has(id)) offers.set(id, { baseline: values });
    cs.offers = Object.fromEntries(offers);
  }
  return figures;
}

export async function pushMerchant(options: PushOptions): Promise<{ figures: PushFigures[]; problems: Problem[] }> {
  const out = { figures: [] as PushFigures[], problems: [] as Problem[] };
  if (options.channels.length === 0) return out;
  const { state, unreadable } = await readPushState(options.outputDir);
  if (unreadable) options.logger.warn("merchant: push state unreadable, starting afresh", { why: unreadable });
  const limit = deadline({ ...limitsOf(options.channels[0]?.merchant.settings), ...options.client?.limits }.totalMs, "the intraday push", options.signal);
  try {
    for (const channel of options.channels) {
      const cs = (state.channels[channel.merchant.channel] ??= { offers: {} });
      try {
        limit.signal.throwIfAborted();
        const figures = await pushOne(options, channel, cs, limit.signal);
        out.figures.push(figures);
        options.logger.info("merchant: intraday push", { ...figures });
        if (figures.unlinked) out.problems.push({ kind: "merchant", code: "MERCHANT_PUSH_UNLINKED", channel: channel.merchant.channel, reason: figures.unlinked });
      } catch (error) {
        // SIGTERM: nothing more is sent; what was sent is still recorded below.
        if (options.signal?.aborted) break;
        const cause = abortedBy(limit.signal, error);
        const code = isPharmafeedError(cause) ? cause.code : "MERCHANT_PUSH";
        out.problems.push({ kind: "merchant", code, channel: channel.merchant.channel, reason: `prices and stock not pushed to Google: ${oneLine((cause as Error).message, 2000)}` });
      }
    }
  } finally {
    limit.clear();
  }
  try {
    await writePushState(options.outputDir, state);
  } catch (error) {
    out.problems.push({ kind: "merchant", code: "MERCHANT_PUSH_STATE", reason: `${(error as Error).message}: the next push may send products again` });
  }
  return out;
}
