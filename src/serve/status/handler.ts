/**
 * The status page's routes, all behind its own credentials (serve.status):
 * `/` (the page; `?q=` searches the explain index, `?lang=` picks the language),
 * `/status.js` (its script) and `/status/reports/<name>.csv` (a channel's
 * exclusion or warnings report, or the offers file's refused rows, as downloads) and
 * `/status/changes/<channel>` (what changed since the previous version, from the feed history).
 */
import { overdueRules, type PolicyRule, ruleKey, rulesInEffect } from "../../policy/index.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import type { ChannelMapping } from "../../mapping/settings.js";
import { readHistory } from "../../publish/manifest.js";
import { warningsReportName } from "../../publish/exclusion-report.js";
import { checkBasic } from "../access.js";
import type { FetchState } from "../state.js";
import type { LiveFeeds } from "../live-feeds.js";
import { openInside, realFolder } from "../safe-open.js";
import { pickLanguage } from "./i18n.js";
import { renderStatusPage, type StatusChannel } from "./page.js";
import { STATUS_SCRIPT } from "./script.js";
import { searchIndex } from "./search.js";
import { googleSection } from "../../merchant/status.js";
import { ISSUES_REPORT } from "../../merchant/report.js";
import { REPORTS_DIR } from "../../core/layout.js";
import { diffChannels } from "../../history/diff-run.js";

export interface StatusContext {
  outputReal: string;
  live: LiveFeeds;
  state: FetchState;
  channels: readonly StatusChannel[];
  /** Channel settings by name, for the reasons in words of a search. */
  mappings: ReadonlyMap<string, ChannelMapping>;
  status: { user: string; password: string } | undefined;
  shopName: string;
  /** The config file serve was given (in the commands the page suggests). */
  configFile?: string | undefined;
  publicBaseUrl: string | undefined;
  now: () => Date;
  /** serve.maxFeedAgeHours: older than this, the feeds are stale (as /healthz says). */
  maxFeedAgeHours: number;
  /** The path the page is served under: "" at the root, "/<shop>" for a shop of many. */
  base?: string;
  /** Many shops: the operator's credentials (the main file's serve.status), let in beside the shop's own. */
  operator?: { user: string; password: string } | undefined;
}

type Text = (res: ServerResponse, status: number, body: string, headers?: Record<string, string>) => void;

/** Whether the request may see the status page; answers 404/401 itself when not. */
function allowed(req: IncomingMessage, res: ServerResponse, ctx: StatusContext, text: Text): boolean {
  if (!ctx.status && !ctx.operator) {
    text(res, 404, "not found (the status page needs serve.status credentials in the config)");
    return false;
  }
  // Both compared whenever both exist, so that the time taken does not tell whose credentials were sent.
  const shop = ctx.status !== undefined && checkBasic(req.headers, ctx.status.user, ctx.status.password);
  const operator = ctx.operator !== undefined && checkBasic(req.headers, ctx.operator.user, ctx.operator.password);
  if (!shop && !operator) {
    // A realm per shop: a browser does not offer one shop's saved password on another's page.
    const realm = ctx.base ? `status ${ctx.base.slice(1)}` : "status";
    text(res, 401, "authentication required", { "WWW-Authenticate": `Basic realm="${realm}", charset="UTF-8"` });
    return false;
  }
  return true;
}

const HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };

/** Each channel's rows by key, and the rows of any channel past their re-check date (each once, oldest first). */
function policyOf(ctx: StatusContext, now: Date): { policy: Map<string, Map<string, PolicyRule>>; policyDue: PolicyRule[] } {
  const policy = new Map<string, Map<string, PolicyRule>>();
  const due = new Map<string, PolicyRule>();
  const today = now.toISOString().slice(0, 10);
  for (const [name, mapping] of ctx.mappings) {
    // The rows the run used: the channel's, and those of its eligibility.allow* switches (src/policy/legacy.ts).
    const rows = rulesInEffect(mapping.policy.rows, mapping.eligibility, mapping.policy.channel, mapping.country);
    policy.set(name, new Map(rows.map((r) => [ruleKey(r), r])));
    for (const r of overdueRules(rows, today)) due.set(`${ruleKey(r)} ${r.from}`, r);
  }
  return { policy, policyDue: [...due.values()].sort((a, b) => (a.recheck ?? "").localeCompare(b.recheck ?? "")) };
}

export async function statusPage(req: IncomingMessage, res: ServerResponse, ctx: StatusContext, text: Text): Promise<void> {
  if (!allowed(req, res, ctx, text)) return;
  const params = new URL(req.url ?? "/", "http://status").searchParams;
  const lang = pickLanguage(params.get("lang"), req.headers["accept-language"]);
  // Not cut: a query over explain's limit is said so (search.ts), as explain says it.
  const query = (params.get("q") ?? "").trim();
  const channels = ctx.channels.flatMap((c) => {
    const mapping = ctx.mappings.get(c.name);
    return mapping ? [{ name: c.name, mapping }] : [];
  });
  const { manifest, feeds } = await ctx.live.current();
  const online = new Map((manifest?.channels ?? []).flatMap((c) => (c.live ? [[c.name, c.live.publishedAt] as const] : [])));
  const found = query === "" ? undefined : await searchIndex(ctx.outputReal, channels, query, lang, online);
  const html = renderStatusPage({
    shopName: ctx.shopName,
    now: ctx.now(),
    maxFeedAgeHours: ctx.maxFeedAgeHours,
    manifest,
    history: await readHistory(ctx.outputReal).catch(() => []),
    channels: ctx.channels,
    ...policyOf(ctx, ctx.now()),
    served: new Set(feeds.map((f) => f.channel)),
    fetches: (channel) => ctx.state.lastFetches(channel),
    lang,
    publicBaseUrl: ctx.publicBaseUrl,
    configFile: ctx.configFile,
    // Served under /<shop>: the suggested commands name that shop.
    ...(ctx.base ? { shop: ctx.base.slice(1) } : {}),
    ...(query === "" ? {} : { search: { query, html: found ?? "<p>—</p>" } }),
    google: googleSection(ctx.outputReal, query, lang, ctx.base ?? ""),
    ...(ctx.base ? { base: ctx.base } : {}),
  });
  res.writeHead(200, {
    ...HEADERS,
    "Content-Type": "text/html; charset=utf-8",
    "Content-Language": lang,
    Vary: "Accept-Language",
    // Defence in depth behind the escaping: no inline script, nothing remote; the one script is /status.js.
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  });
  res.end(req.method === "HEAD" ? undefined : html);
}

export function statusScript(req: IncomingMessage, res: ServerResponse, ctx: StatusContext, text: Text): void {
  if (!allowed(req, res, ctx, text)) return;
  res.writeHead(200, { ...HEADERS, "Content-Type": "text/javascript; charset=utf-8" });
  res.end(req.method === "HEAD" ? undefined : STATUS_SCRIPT);
}

/** Only the reports of the config's channels and the offers file's, opened inside output/reports (no symlink out). */
export async function statusReport(req: IncomingMessage, res: ServerResponse, name: string, ctx: StatusContext, text: Text): Promise<void> {
  if (!allowed(req, res, ctx, text)) return;
  const known = name === "_offers.csv" || name === ISSUES_REPORT || ctx.channels.some((c) => name === `${c.name}.csv` || name === warningsReportName(c.name));
  const folder = known ? await realFolder(ctx.outputReal, REPORTS_DIR) : undefined;
  const opened = folder ? await openInside(ctx.outputReal, folder, name) : undefined;
  if (!opened) return text(res, 404, "not found");
  res.writeHead(200, {
    ...HEADERS,
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Length": String(opened.stat.size),
    "Content-Disposition": `attachment; filename="${name}"`,
  });
  if (req.method === "HEAD") {
    await opened.handle.close();
    res.end();
    return;
  }
  await pipeline(opened.handle.createReadStream(), res);
}

/**
 * A channel's live version against the one it replaced (the manifest entry's `changes.since`), as
 * `pharmafeed diff` prints it: read from the kept item sheets, never the catalogue. Plain text.
 */
export async function statusChanges(req: IncomingMessage, res: ServerResponse, channel: string, ctx: StatusContext, text: Text): Promise<void> {
  if (!allowed(req, res, ctx, text)) return;
  if (!ctx.channels.some((c) => c.name === channel)) return text(res, 404, "not found");
  const { manifest } = await ctx.live.current();
  const entry = manifest?.channels.find((c) => c.name === channel);
  const since = entry?.changes?.since ?? "previous";
  // A diff of a million items takes seconds and a few hundred MB: computed once per pair of versions.
  const key = `${ctx.outputReal} ${channel} ${since} ${entry?.live?.sha256 ?? ""}`;
  let report = changeReports.get(key);
  if (report === undefined) {
    report = diffChannels(ctx.outputReal, [channel], since, "live").then((r) => `${r.text(200)}\n`);
    changeReports.set(key, report);
    if (changeReports.size > 64) changeReports.delete(changeReports.keys().next().value!);
    report.catch(() => changeReports.delete(key));
  }
  const body = await report;
  res.writeHead(200, { ...HEADERS, "Content-Type": "text/plain; charset=utf-8" });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** Reports by channel and pair of versions (a kept version never changes), the oldest dropped past 64. */
const changeReports = new Map<string, Promise<string>>();
