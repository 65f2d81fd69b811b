/**
 * The overview at `/` of a server of many shops, for the operator (the main file's serve.status):
 * one row per shop, those that need someone first: the shop and its key (a link to its own page),
 * the feeds marketplaces get now, the last run and what needs attention. English; the status
 * page's styles. Every text from a manifest or a config is escaped.
 */
import { escapeHtml as e } from "../../core/html.js";
import { STYLE } from "../status/style.js";
import { when } from "../status/_time.js";
import { byNeed, type Attention, type ShopView } from "./view.js";

const TABLE_STYLE = `.wide{overflow-x:auto}table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;vertical-align:top;padding:8px 10px;border-bottom:1px solid #dde1e6}
th{font-size:13px;color:#4b5462;font-weight:600}td ul{margin:0;padding-left:18px}td small{color:#4b5462}`;

function lastRun(view: ShopView, now: Date): string {
  const m = view.health.manifest;
  if (!m) return `<span class="muted">no run yet</span>`;
  const cls = m.status === "ok" ? "ok" : m.status === "degraded" ? "warn" : "bad";
  return `${when(m.endedAt, now, "en")} · <strong class="${cls}" data-run="${e(m.status)}">${e(m.status)}</strong>`;
}

function attentionCell(attention: readonly Attention[]): string {
  if (attention.length === 0) return `<span class="ok">nothing</span>`;
  return `<ul>${attention.map((a) => `<li class="${a.severity}">${e(a.text)}</li>`).join("")}</ul>`;
}

function row(view: ShopView, attention: readonly Attention[], now: Date): string {
  const n = view.health.feedsServed;
  const feeds = view.refused !== undefined ? `<span class="bad">none (config refused)</span>` : `<span class="${n > 0 ? "" : "bad"}">${n} feed${n === 1 ? "" : "s"}</span>`;
  return (
    `<tr data-shop="${e(view.id)}" data-attention="${attention.length > 0 ? "yes" : "no"}">` +
    // A refused shop's page answers 503: no link to it.
    `<td>${view.refused !== undefined ? e(view.name) : `<a href="/${e(view.id)}/">${e(view.name)}</a>`}<br><small><code>${e(view.id)}</code></small></td>` +
    `<td>${feeds}</td><td>${lastRun(view, now)}</td><td>${attentionCell(attention)}</td></tr>`
  );
}

export function renderOverview(views: readonly ShopView[], now: Date): string {
  const lines = byNeed(views);
  const need = lines.filter((l) => l.attention.length > 0).length;
  const headline =
    need === 0
      ? `<strong class="ok">All ${views.length} shops are fine.</strong>`
      : `<strong class="bad">${need} of ${views.length} shop${views.length === 1 ? "" : "s"} need${need === 1 ? "s" : ""} attention</strong> (listed first).`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>pharmafeed: shops</title><style>${STYLE}\n${TABLE_STYLE}</style></head><body>` +
    `<header><div class="top"><h1>pharmafeed: ${views.length} shop${views.length === 1 ? "" : "s"}</h1></div></header>` +
    `<main><section class="band"><p>${headline}</p><p class="muted small">Each shop's name opens its own status page.</p></section>` +
    `<div class="wide"><table><thead><tr><th scope="col">Shop</th><th scope="col">Online now</th><th scope="col">Last run</th><th scope="col">Needs attention</th></tr></thead>` +
    `<tbody>${lines.map((l) => row(l.view, l.attention, now)).join("")}</tbody></table></div></main></body></html>`
  );
}
