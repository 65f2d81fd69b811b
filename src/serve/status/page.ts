/**
 * The status page at `/`, for a shop manager, in English, French or Dutch: the
 * run state, the offers file's health, a product search (the explain index), and
 * per channel the full feed URL to paste into the marketplace (with a copy
 * button), what is online, why products were left out (in words, code beside),
 * warnings and locale fallbacks, the reports to download, the last fetch per
 * marketplace and the item counts of the last runs. Every text from the
 * manifest, the config, the index or a User-Agent is escaped; the only script is
 * /status.js (copy buttons, self-refresh), allowed by CSP script-src 'self'.
 */
import { formatBytes } from "../../format.js";
import type { AccessConfig } from "../../config/schema.js";
import type { ChannelEntry, Manifest } from "../../publish/manifest.js";
import { warningsReportName } from "../../publish/exclusion-report.js";
import { MARKETPLACES } from "../bots.js";
import { itemsChart, type RunPoint } from "../chart.js";
import { escapeHtml as e } from "../html.js";
import { unverifiedKey, type Fetch } from "../state.js";
import { LANGUAGES, type Language, WORDS, type Words } from "./i18n.js";
import { reasonWords } from "./reason-words.js";
import { DEFAULT_MAX_FEED_AGE_HOURS } from "../../publish/run-state.js";
import { syncStatus } from "../../snapshot/describe.js";
import { runState } from "./run-state.js";
import { STYLE } from "./style.js";
import { destinationsHtml } from "../../destinations/status-html.js";

export interface StatusChannel {
  name: string;
  preset: string;
  access: AccessConfig["mode"];
}

export interface StatusInput {
  shopName: string;
  now: Date;
  /** serve.maxFeedAgeHours, for the header's state (as /healthz). */
  maxFeedAgeHours?: number;
  manifest: Manifest | undefined;
  /** Past runs, oldest first. */
  history: readonly Manifest[];
  /** The config's channels, in its order. */
  channels: readonly StatusChannel[];
  /** Channels whose live file is being served now. */
  served: ReadonlySet<string>;
  fetches: (channel: string) => Readonly<Record<string, Fetch>>;
  lang?: Language;
  /** output.publicBaseUrl: where the marketplaces reach `serve`. */
  publicBaseUrl?: string | undefined;
  /** The search box's query and its rendered answer (search.ts). */
  search?: { query: string; html: string };
}

const AGO: Record<Language, { now: string; min: string; h: string; d: string; wrap: (x: string) => string }> = {
  en: { now: "just now", min: "min", h: "h", d: "days", wrap: (x) => `${x} ago` },
  fr: { now: "à l'instant", min: "min", h: "h", d: "jours", wrap: (x) => `il y a ${x}` },
  nl: { now: "zojuist", min: "min", h: "u", d: "dagen", wrap: (x) => `${x} geleden` },
};

export function formatAge(from: string, now: Date, lang: Language = "en"): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(from)) / 1000));
  if (!Number.isFinite(seconds)) return "?";
  const w = AGO[lang];
  if (seconds < 90) return w.now;
  if (seconds < 90 * 60) return w.wrap(`${Math.round(seconds / 60)} ${w.min}`);
  if (seconds < 36 * 3600) return w.wrap(`${Math.round(seconds / 3600)} ${w.h}`);
  return w.wrap(`${Math.round(seconds / 86400)} ${w.d}`);
}

/** Relative time, with the absolute one beside it (UTC), both readable without hovering. */
function when(iso: string, now: Date, lang: Language): string {
  const abs = `${iso.slice(0, 16).replace("T", " ")} UTC`;
  return `<time datetime="${e(iso)}">${e(formatAge(iso, now, lang))}</time> <span class="abs">(${e(abs)})</span>`;
}

function countList(counts: Record<string, number>, label: (key: string) => string, w: Words): string {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return `<span class="muted">${e(w.none)}</span>`;
  return `<ul class="counts">${entries.map(([key, n]) => `<li>${label(key)} <span class="n">${n}</span></li>`).join("")}</ul>`;
}

function reasonLabel(code: string, lang: Language): string {
  return `${e(reasonWords(code, lang))} <code>${e(code)}</code>`;
}

function fallbackLabel(key: string, w: Words): string {
  const [field, locale] = key.split(":");
  return `${e(field ?? key)} ${e(w.fallbackFrom)} <code>${e(locale ?? "")}</code>`;
}

function feedUrl(input: StatusInput, channel: StatusChannel, file: string, w: Words): string {
  if (!input.publicBaseUrl) return `<code class="url">/feeds/${e(file)}</code><br><span class="muted">${e(w.noBaseUrl)}</span>`;
  const base = input.publicBaseUrl.replace(/\/+$/, "");
  const url = channel.access === "token" ? `${base}/feeds/<token>/${file}` : `${base}/feeds/${file}`;
  const id = `url-${channel.name}`;
  return (
    `<code class="url" id="${e(id)}">${e(url)}</code> <button type="button" class="copy" data-copy="${e(id)}">${e(w.copy)}</button>` +
    `<br><span class="muted">${e(channel.access === "token" ? w.tokenHelp : w.urlHelp)}</span>`
  );
}

function fetches(input: StatusInput, channel: string, lang: Language, w: Words): string {
  const seen = input.fetches(channel);
  // A fetch is credited to a marketplace only when its documented check passed (bot-verify.ts);
  // the others are listed apart, labelled unverified, so a stranger cannot hide the real fetcher.
  const rows = MARKETPLACES.flatMap((m) => [seen[m.id], seen[unverifiedKey(m.id)]].flatMap((f) => (f ? [[m, f] as const] : []))).map(([m, f]) => {
    const words = w.fetch[String(f.status)] ?? w.fetch["other"]!;
    const status = f.status < 300 || f.status === 304 ? `<span class="ok">${e(words)}</span>` : `<span class="bad">${e(words)}</span>`;
    const label = f.verified === true ? e(m.label) : `${e(m.label)} <span class="muted">(${e(w.unverified)})</span>`;
    return `<li title="${e(f.userAgent)}">${label}: ${when(f.at, input.now, lang)}, ${status} <span class="muted">(${f.status})</span></li>`;
  });
  return rows.length > 0 ? `<ul class="fetches">${rows.join("")}</ul>` : `<span class="muted">${e(w.noFetch)}</span>`;
}

function card(input: StatusInput, channel: StatusChannel, entry: ChannelEntry | undefined, lang: Language): string {
  const w = WORDS[lang];
  const head = `<h2>${e(channel.name)} <small>${e(channel.preset)} · ${e(w.access[channel.access])}</small></h2>`;
  if (!entry) return `<section class="card">${head}<p class="muted">${e(w.notRunYet)}</p></section>`;
  const live = entry.live;
  const online = live
    ? `${live.items} ${e(w.items)} · ${e(formatBytes(live.bytes))}${live.gzip ? ` (${e(formatBytes(live.gzip.bytes))} gzip)` : ""} · ${when(live.publishedAt, input.now, lang)}` +
      (input.served.has(channel.name) ? "" : ` <span class="bad">${e(w.notServed)}</span>`)
    : `<span class="bad">${e(w.nothingOnline)}</span>`;
  const gate = entry.published === true ? `<span class="ok">${e(w.published)}</span>` : `<span class="warn">${e(w.notPublished)}</span> <span class="reason">${e(entry.published)}</span>`;
  const excluded = Object.values(entry.excluded).reduce((a, b) => a + b, 0);
  const points: RunPoint[] = input.history.flatMap((m) => {
    const c = m.channels.find((x) => x.name === channel.name);
    return c ? [{ at: m.startedAt, items: c.items, published: c.published === true }] : [];
  });
  const reports =
    `<a href="/status/reports/${encodeURIComponent(`${channel.name}.csv`)}" download>${e(w.exclusions)}</a> · ` +
    `<a href="/status/reports/${encodeURIComponent(warningsReportName(channel.name))}" download>${e(w.warningsCsv)}</a>`;
  return (
    `<section class="card">${head}<dl>` +
    `<dt>${e(w.url)}</dt><dd>${feedUrl(input, channel, live?.file ?? entry.file, w)}</dd>` +
    `<dt>${e(w.online)}</dt><dd>${online}</dd>` +
    `<dt>${e(w.lastRun)}</dt><dd>${entry.items} ${e(w.items)} · ${gate}</dd>` +
    `<dt>${e(w.leftOut)}</dt><dd>${excluded} ${e(w.products)}${countList(entry.excluded, (code) => reasonLabel(code, lang), w)}</dd>` +
    `<dt>${e(w.warnings)}</dt><dd>${countList(entry.warnings, (code) => reasonLabel(code, lang), w)}</dd>` +
    `<dt>${e(w.fallbacks)}</dt><dd>${countList(entry.fallbacks, (key) => fallbackLabel(key, w), w)}</dd>` +
    `<dt>${e(w.reports)}</dt><dd>${reports}</dd>` +
    `<dt>${e(w.fetchedBy)}</dt><dd>${fetches(input, channel.name, lang, w)}</dd>` +
    destinationsHtml(entry.destinations) +
    `</dl>${itemsChart(points, `${channel.name}: ${w.items}`)}</section>`
  );
}

function syncHtml(line: { text: string; fallback?: string }): string {
  return e(line.text) + (line.fallback ? ` <span class="warn" title="${e(line.fallback)}">(fell back to a full read)</span>` : "");
}

function summary(input: StatusInput, lang: Language): string {
  const w = WORDS[lang];
  const m = input.manifest;
  const state = runState(m, input.now, input.maxFeedAgeHours);
  const cls = state.state === "ok" ? "ok" : state.state === "degraded" || state.state === "stale" ? "warn" : "bad";
  if (!m) return `<p><strong class="${cls}">${e(w.state.none)}</strong></p>`;
  const why = state.why.length > 0 ? `<ul class="why">${state.why.map((x) => `<li><strong>${e(x.channel)}</strong>: ${e(x.why)}</li>`).join("")}</ul>` : "";
  const offers = m.offers
    ? `${e(w.offers)}: ${m.offers.accepted} ${e(w.offersOk)}, <span class="${m.offers.refused > 0 ? "warn" : "ok"}">${m.offers.refused} ${e(w.offersRefused)}</span>` +
      (m.offers.refused > 0 ? ` · <a href="/status/reports/_offers.csv" download>${e(w.offersReport)}</a>` : "")
    : `${e(w.offers)}: <span class="muted">${e(w.noOffers)}</span>`;
  const words = w.state[state.state].replace("{hours}", String(input.maxFeedAgeHours ?? DEFAULT_MAX_FEED_AGE_HOURS));
  // A run that failed as a whole says why (code and message), even when the page says stale.
  const error = m.error ? `<p class="bad">${e(m.error.code)}: ${e(m.error.message)}</p>` : "";
  return (
    `<p>${e(w.lastRun)} ${when(m.startedAt, input.now, lang)}: <strong class="${cls}" data-state="${state.state}">${e(words)}</strong></p>${error}${why}` +
    `<p>${m.source.received} ${e(w.received)}, ${m.source.rejected} ${e(w.rejected)} · ${m.channels.filter((c) => c.published === true).length} ${e(w.of)} ${m.channels.length} ${e(w.feedsPublished)}` +
    // Which source the run read (generate --source) and how old the catalogue data is (English, as the CLI says it).
    `${m.sync ? ` · ${syncHtml(syncStatus(m.sync, input.now))}` : ""}</p>` +
    `<p>${offers}</p>`
  );
}

function languageSwitch(lang: Language, w: Words, query: string | undefined): string {
  const q = query ? `&amp;q=${e(encodeURIComponent(query))}` : "";
  return `<nav class="lang" aria-label="${e(w.language)}">${LANGUAGES.map((l) => `<a href="/?lang=${l}${q}" lang="${l}"${l === lang ? ` aria-current="true"` : ""}>${l.toUpperCase()}</a>`).join(" ")}</nav>`;
}

function searchForm(lang: Language, w: Words, query: string | undefined): string {
  return (
    `<form class="search" method="get" action="/" role="search"><label for="q">${e(w.search)}</label>` +
    `<div class="row"><input id="q" name="q" type="search" value="${e(query ?? "")}" placeholder="${e(w.searchHelp)}" autocomplete="off">` +
    `<input type="hidden" name="lang" value="${lang}"><button type="submit">${e(w.searchButton)}</button></div></form>`
  );
}

export function renderStatusPage(input: StatusInput): string {
  const lang = input.lang ?? "en";
  const w = WORDS[lang];
  const byName = new Map((input.manifest?.channels ?? []).map((c) => [c.name, c]));
  const query = input.search?.query;
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${e(input.shopName)}: ${e(w.feeds)}</title><style>${STYLE}</style><script src="/status.js" defer></script></head><body>` +
    `<header><div class="top"><h1>${e(input.shopName)}: ${e(w.feeds)}</h1>${languageSwitch(lang, w, query)}</div>${summary(input, lang)}` +
    `${searchForm(lang, w, query)}<p class="muted small" data-refresh="${query ? "off" : "60"}">${e(w.refresh)}</p></header>` +
    `<main>${input.search ? `<section class="card results" aria-live="polite">${input.search.html}</section>` : ""}` +
    `${input.channels.map((c) => card(input, c, byName.get(c.name), lang)).join("")}</main></body></html>`
  );
}
