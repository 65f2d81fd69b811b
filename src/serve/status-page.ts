/**
 * The status page at `/`, for a shop manager: per channel what is online (items,
 * size, when), how the last run went (published, or why not, with the top
 * reasons products were left out), when each marketplace last fetched it, and
 * the item counts of the last runs. Pure HTML and CSS, no script; every text
 * from the manifest, the config or a User-Agent is escaped.
 */
import { formatBytes } from "../format.js";
import type { AccessConfig } from "../config/schema.js";
import type { ChannelEntry, Manifest } from "../publish/manifest.js";
import { MARKETPLACES } from "./bots.js";
import { itemsChart, type RunPoint } from "./chart.js";
import { escapeHtml as e } from "./html.js";
import { unverifiedKey, type Fetch } from "./state.js";

export interface StatusChannel {
  name: string;
  preset: string;
  access: AccessConfig["mode"];
}

export interface StatusInput {
  shopName: string;
  now: Date;
  manifest: Manifest | undefined;
  /** Past runs, oldest first. */
  history: readonly Manifest[];
  /** The config's channels, in its order. */
  channels: readonly StatusChannel[];
  /** Channels whose live file is being served now. */
  served: ReadonlySet<string>;
  fetches: (channel: string) => Readonly<Record<string, Fetch>>;
}

/** What a fetch's HTTP status means to a shop manager. */
const STATUS_WORDS: Record<number, string> = {
  200: "downloaded",
  206: "downloaded in parts",
  304: "unchanged, not downloaded",
  401: "refused: wrong or missing password",
  404: "refused: wrong link",
};

const ACCESS_LABEL: Record<AccessConfig["mode"], string> = { open: "open link", basic: "user and password", token: "secret link" };

export function formatAge(from: string, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(from)) / 1000));
  if (!Number.isFinite(seconds)) return "unknown";
  if (seconds < 90) return "just now";
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} days ago`;
}

function when(iso: string, now: Date): string {
  return `<time datetime="${e(iso)}" title="${e(iso)}">${e(formatAge(iso, now))}</time>`;
}

function gate(entry: ChannelEntry): string {
  if (entry.published === true) return `<span class="ok">Published</span>`;
  return `<span class="warn">Not published</span> <span class="reason">${e(entry.published)}</span>`;
}

function topReasons(entry: ChannelEntry): string {
  const reasons = Object.entries(entry.excluded).sort((a, b) => b[1] - a[1]);
  if (reasons.length === 0) return "none";
  const total = reasons.reduce((sum, [, n]) => sum + n, 0);
  const top = reasons.slice(0, 3).map(([code, n]) => `<code>${e(code)}</code> ${n}`);
  return `${total} product${total === 1 ? "" : "s"} <span class="muted">(${top.join(", ")}${reasons.length > 3 ? ", …" : ""})</span>`;
}

function fetches(input: StatusInput, channel: string): string {
  const seen = input.fetches(channel);
  // A fetch is credited to a marketplace only when its documented check passed (bot-verify.ts).
  const rows = MARKETPLACES.flatMap((m) => [seen[m.id], seen[unverifiedKey(m.id)]].filter((f) => f !== undefined).map((f) => [m, f] as const)).map(([m, f]) => {
    const words = STATUS_WORDS[f.status] ?? "error";
    const status = f.status < 300 || f.status === 304 ? `<span class="ok">${words}</span>` : `<span class="bad">${words}</span>`;
    const label = f.verified === true ? e(m.label) : `${e(m.label)} <span class="muted">(unverified)</span>`;
    return `<li title="${e(f.userAgent)}">${label}: ${when(f.at, input.now)}, ${status} <span class="muted">(${f.status})</span></li>`;
  });
  return rows.length > 0 ? `<ul class="fetches">${rows.join("")}</ul>` : `<span class="muted">no marketplace fetch yet</span>`;
}

function card(input: StatusInput, channel: StatusChannel, entry: ChannelEntry | undefined): string {
  const head = `<h2>${e(channel.name)} <small>${e(channel.preset)} · ${e(ACCESS_LABEL[channel.access])}</small></h2>`;
  if (!entry) return `<section class="card">${head}<p class="muted">Not run yet.</p></section>`;
  const live = entry.live;
  const path = live ? (channel.access === "token" ? `/feeds/&lt;token&gt;/${e(live.file)}` : `/feeds/${e(live.file)}`) : "";
  const online = live
    ? `${live.items} items · ${e(formatBytes(live.bytes))}${live.gzip ? ` (${e(formatBytes(live.gzip.bytes))} gzip)` : ""} · published ${when(live.publishedAt, input.now)}` +
      (input.served.has(channel.name) ? "" : ` <span class="bad">not served: file missing or changed</span>`)
    : `<span class="bad">nothing online</span>`;
  const points: RunPoint[] = input.history.flatMap((m) => {
    const c = m.channels.find((x) => x.name === channel.name);
    return c ? [{ at: m.startedAt, items: c.items, published: c.published === true }] : [];
  });
  return (
    `<section class="card">${head}<dl>` +
    `<dt>Online</dt><dd>${online}${path ? `<br><code class="path">${path}</code>` : ""}</dd>` +
    `<dt>Last run</dt><dd>${entry.items} items · ${gate(entry)}</dd>` +
    `<dt>Left out</dt><dd>${topReasons(entry)}</dd>` +
    `<dt>Fetched by</dt><dd>${fetches(input, channel.name)}</dd>` +
    `</dl>${itemsChart(points, `items of ${channel.name} over the last runs`)}</section>`
  );
}

const STYLE = `body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f5f6f8;color:#1d2330}
header{background:#fff;border-bottom:1px solid #dde1e6;padding:14px 24px}h1{font-size:20px;margin:0 0 4px}
main{display:grid;grid-template-columns:repeat(auto-fill,minmax(420px,1fr));gap:16px;padding:16px 24px}
.card{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:12px 16px}h2{font-size:17px;margin:0 0 8px}
h2 small{font-weight:400;color:#5b6472;font-size:13px}dl{display:grid;grid-template-columns:96px 1fr;gap:4px 10px;margin:0 0 8px}
dt{color:#5b6472}dd{margin:0}.ok{color:#137333;font-weight:600}.warn{color:#b06000;font-weight:600}.bad{color:#c5221f;font-weight:600}
.muted,.reason{color:#5b6472}.fetches{margin:0;padding:0;list-style:none}code{font-size:13px}.path{color:#5b6472}
figure{margin:0}figcaption{font-size:12px;color:#5b6472}`;

export function renderStatusPage(input: StatusInput): string {
  const m = input.manifest;
  const byName = new Map((m?.channels ?? []).map((c) => [c.name, c]));
  const summary = m
    ? `Last run ${when(m.startedAt, input.now)}: <strong class="${m.status === "ok" ? "ok" : "bad"}">${e(m.status)}</strong> · ` +
      `${m.source.received} products received, ${m.source.rejected} rejected · ${m.channels.filter((c) => c.published === true).length} of ${m.channels.length} feeds published`
    : `<span class="bad">No run yet: run <code>pharmafeed generate</code>.</span>`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${e(input.shopName)}: feeds</title><style>${STYLE}</style></head><body>` +
    `<header><h1>${e(input.shopName)}: product feeds</h1><div>${summary}</div></header>` +
    `<main>${input.channels.map((c) => card(input, c, byName.get(c.name))).join("")}</main></body></html>`
  );
}
