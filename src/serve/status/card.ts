/**
 * One channel's card: the URL to paste into the marketplace, what is online now (the served
 * file's figures), then what the last run did with it, labelled so (its items, left out,
 * warnings, fallbacks; "not published" and why in words when its file did not go online), the
 * reports, the last fetch per marketplace and the items of the last runs.
 */
import { destinationsHtml } from "../../destinations/status-html.js";
import type { ChannelEntry } from "../../publish/manifest.js";
import { warningsReportName } from "../../publish/exclusion-report.js";
import { MARKETPLACES } from "../bots.js";
import { itemsChart, type RunPoint } from "../chart.js";
import { escapeHtml as e } from "../../core/html.js";
import { unverifiedKey } from "../state.js";
import { WORDS, type Language, type Words } from "./i18n.js";
import { reasonWords } from "./reason-words.js";
import { fill, RUN_WORDS, unpublishedWords } from "../../publish/run-words.js";
import { details, when } from "./_time.js";
import { bytes, count } from "../../core/numbers.js";
import { itemsText } from "./sections.js";
import type { StatusChannel, StatusInput } from "./page.js";

function countList(counts: Record<string, number>, label: (key: string) => string, w: Words, lang: Language): string {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return `<span class="muted">${e(w.none)}</span>`;
  return `<ul class="counts">${entries.map(([key, n]) => `<li>${label(key)} <span class="n">${count(n, lang)}</span></li>`).join("")}</ul>`;
}

function reasonLabel(code: string, lang: Language): string {
  return `${e(reasonWords(code, lang))} <code>${e(code)}</code>`;
}

function fallbackLabel(key: string, w: Words): string {
  const [field, locale] = key.split(":");
  return `${e(field ?? key)} ${e(w.fallbackFrom)} <code>${e(locale ?? "")}</code>`;
}

function feedUrl(input: StatusInput, channel: StatusChannel, file: string, w: Words): string {
  if (!input.publicBaseUrl) return `<code class="url">${e(input.base ?? "")}/feeds/${e(file)}</code><br><span class="muted">${e(w.noBaseUrl)}</span>`;
  const base = input.publicBaseUrl.replace(/\/+$/, "");
  const url = channel.access === "token" ? `${base}/feeds/<token>/${file}` : `${base}/feeds/${file}`;
  const id = `url-${channel.name}`;
  return (
    `<code class="url" id="${e(id)}">${e(url)}</code> <button type="button" class="copy" data-copy="${e(id)}">${e(w.copy)}</button>` +
    `<br><span class="muted">${e(channel.access === "token" ? w.tokenHelp : w.urlHelp)}</span>`
  );
}

/** The last fetch per marketplace (verified ones credited, the others labelled unverified). */
export function fetches(input: StatusInput, channel: string, lang: Language): string {
  const w = WORDS[lang];
  const seen = input.fetches(channel);
  const rows = MARKETPLACES.flatMap((m) => [seen[m.id], seen[unverifiedKey(m.id)]].flatMap((f) => (f ? [[m, f] as const] : []))).map(([m, f]) => {
    const words = w.fetch[String(f.status)] ?? w.fetch["other"]!;
    const status = f.status < 300 || f.status === 304 ? `<span class="ok">${e(words)}</span>` : `<span class="bad">${e(words)}</span>`;
    const label = f.verified === true ? e(m.label) : `${e(m.label)} <span class="muted">(${e(w.unverified)})</span>`;
    return `<li title="${e(f.userAgent)}">${label}: ${when(f.at, input.now, lang)}, ${status} <span class="muted">(${f.status})</span></li>`;
  });
  return rows.length > 0 ? `<ul class="fetches">${rows.join("")}</ul>` : `<span class="muted">${e(w.noFetch)}</span>`;
}

function pointOf(c: ChannelEntry): RunPoint {
  const state = c.published === true ? "published" : c.published.startsWith("failed") && c.bytes === 0 ? "failed" : "gated";
  return { at: "", items: c.items, state };
}

/**
 * "since the previous version: +12 −3, 41 price changes", the details one click away (handler.ts
 * statusChanges). Said of the file online: only when this run published it and it is still the one
 * online (a held run's figures say what it would have changed, in the reason).
 */
function changesLine(channel: string, entry: ChannelEntry, lang: Language, base: string): string {
  const c = entry.changes;
  // The entry's file must be the one online (a rollback since put another back).
  if (!c || entry.published !== true || entry.live?.sha256 !== entry.sha256 || entry.live.pinned) return "";
  const words = RUN_WORDS[lang].changes;
  const n = (x: number) => count(x, lang);
  const any = c.added + c.removed + c.prices + c.availability + c.titles + c.links + c.images > 0;
  const more = c.availability + c.titles + c.links + c.images > 0 ? ` · ${fill(words.more, { availability: n(c.availability), titles: n(c.titles), links: n(c.links), images: n(c.images) })}` : "";
  const text = any ? fill(words.line, { added: n(c.added), removed: n(c.removed), prices: n(c.prices) }) + more : words.none;
  return `<dt></dt><dd class="changes">${e(text)} <a href="${e(base)}/status/changes/${encodeURIComponent(channel)}">${e(RUN_WORDS[lang].detail)}</a></dd>`;
}

/** The rows that left products out of this run's file, each with its source, the date it was verified and the count. */
function healthLine(input: StatusInput, channel: string, entry: ChannelEntry, lang: Language): string {
  const counts = Object.entries(entry.policy ?? {}).sort((a, b) => b[1] - a[1]);
  if (counts.length === 0) return "";
  const w = WORDS[lang].health;
  const rows = input.policy?.get(channel);
  const today = input.now.toISOString().slice(0, 10);
  const items = counts.map(([key, n]) => {
    const r = rows?.get(key);
    const cited = r
      ? ` ${e(r.verdict)} · ${/^https?:/.test(r.source) ? `<a href="${e(r.source)}" rel="noreferrer">${e(w.source)}</a>` : e(r.source)}` +
        (r.verified ? `, ${e(w.verified)} ${e(r.verified)}` : "") +
        (r.recheck !== undefined && r.recheck < today ? ` <span class="warn">${e(fill(w.due, { date: r.recheck }))}</span>` : "")
      : "";
    return `<li><code>${e(key)}</code>${cited} <span class="n">${count(n, lang)}</span></li>`;
  });
  return `<dt>${e(w.title)}</dt><dd><ul class="counts">${items.join("")}</ul></dd>`;
}

export function card(input: StatusInput, channel: StatusChannel, entry: ChannelEntry | undefined, lang: Language): string {
  const w = WORDS[lang];
  const r = RUN_WORDS[lang];
  const head = `<h2>${e(channel.name)} <small>${e(channel.preset)} · ${e(w.access[channel.access])}</small></h2>`;
  if (!entry) return `<section class="card">${head}<p class="muted">${e(w.notRunYet)}</p></section>`;
  const live = entry.live;
  const online = live
    ? `${e(itemsText(live.items, lang))} · ${e(bytes(live.bytes, lang))}${live.gzip ? ` (${e(bytes(live.gzip.bytes, lang))} gzip)` : ""} · ${e(r.onlineSince)} ${when(live.publishedAt, input.now, lang)}` +
      (input.served.has(channel.name) ? "" : ` <span class="bad">${e(w.notServed)}</span>`)
    : `<span class="bad">${e(w.nothingOnline)}</span>`;
  const published = entry.published === true;
  const pinned = live?.pinned;
  const pin = pinned ? ` <span class="warn">${e(fill(r.gate.pinned, { at: `${pinned.at.slice(0, 16).replace("T", " ")} UTC`, cmd: pinned.command }))}</span>` : "";
  const gate = published
    ? `<span class="ok">${e(w.published)}</span>`
    : `<span class="warn">${e(w.notPublished)}</span> <span class="reason">${e(unpublishedWords(entry.published as string, lang))}</span>${details(r.detail, entry.published as string)}`;
  // A run that failed wrote nothing: no counts of its own to show.
  const failedRun = !published && String(entry.published).startsWith("failed") && entry.bytes === 0;
  const excluded = Object.values(entry.excluded).reduce((a, b) => a + b, 0);
  const runLabel = (label: string) => (published ? e(label) : `${e(label)} <span class="muted">(${e(r.notPublishedShort)})</span>`);
  const points = input.history.flatMap((m) => {
    const c = m.channels.find((x) => x.name === channel.name);
    return c ? [{ ...pointOf(c), at: m.startedAt }] : [];
  });
  const reports =
    `<a href="${e(input.base ?? "")}/status/reports/${encodeURIComponent(`${channel.name}.csv`)}" download>${e(w.exclusions)}</a> · ` +
    `<a href="${e(input.base ?? "")}/status/reports/${encodeURIComponent(warningsReportName(channel.name))}" download>${e(w.warningsCsv)}</a>`;
  const runFigures = failedRun
    ? ""
    : `<dt>${runLabel(r.leftOutByRun)}</dt><dd>${excluded === 0 ? `<span class="muted">${e(w.none)}</span>` : `${count(excluded, lang)} ${e(w.products)}${countList(entry.excluded, (code) => reasonLabel(code, lang), w, lang)}`}</dd>` +
      `<dt>${runLabel(w.warnings)}</dt><dd>${countList(entry.warnings, (code) => reasonLabel(code, lang), w, lang)}</dd>` +
      `<dt>${runLabel(w.fallbacks)}</dt><dd>${countList(entry.fallbacks, (key) => fallbackLabel(key, w), w, lang)}</dd>`;
  return (
    `<section class="card">${head}<dl>` +
    `<dt>${e(w.url)}</dt><dd>${feedUrl(input, channel, live?.file ?? entry.file, w)}</dd>` +
    `<dt>${e(r.onlineFile)}</dt><dd>${online}${pin}</dd>` +
    changesLine(channel.name, entry, lang, input.base ?? "") +
    `<dt>${e(w.lastRun)}</dt><dd>${failedRun ? "" : `${e(itemsText(entry.items, lang))} · `}${gate}</dd>` +
    runFigures +
    (failedRun ? "" : healthLine(input, channel.name, entry, lang)) +
    `<dt>${e(w.reports)}</dt><dd>${reports}</dd>` +
    `<dt>${e(w.fetchedBy)}</dt><dd>${fetches(input, channel.name, lang)}</dd>` +
    destinationsHtml(entry.destinations) +
    `</dl>${itemsChart(points, `${channel.name}: ${w.items}`, { ...r.chart, items: w.items }, { online: live?.items, format: (n) => count(n, lang) })}</section>`
  );
}
