/**
 * The status page's Google Merchant Center section (serve/status/handler.ts adds it):
 * per feed with an account, what Google approved, left pending and disapproved and why
 * (top issues, account issues), with the products that match the page's search. Always
 * "Google disapproved": pharmafeed's own exclusions are in each feed's card.
 * In English only for now (the page's words live in serve/status/i18n.ts).
 */
import { escapeHtml as e } from "../serve/html.js";
import { MerchantStore, type FeedSummary, type GoogleVerdict } from "./store.js";

const SHOWN = 10;

function link(url: string | undefined, text: string): string {
  return url && /^https:\/\//.test(url) ? `<a href="${e(url)}" rel="noreferrer">${e(text)}</a>` : e(text);
}

function feedHtml(f: FeedSummary): string {
  const rows = [
    ["Approved", `<span class="ok">${f.approved}</span>`],
    ["Pending", String(f.pending)],
    ["Disapproved by Google", `<span class="${f.disapproved > 0 ? "bad" : "ok"}">${f.disapproved}</span> of ${f.products}`],
  ];
  const stale = f.error ? `<p class="warn small">The last read-back failed (${e(f.errorAt ?? "")}): ${e(f.error)}. These are the statuses read ${e(f.syncedAt)}.</p>` : "";
  const issues = f.topIssues.length === 0 ? "" : `<ul class="why small">${f.topIssues.slice(0, 5).map((i) => `<li><span class="n">${i.products}</span> · ${e(i.severity.toLowerCase())} <code>${e(i.code)}</code>${i.attribute ? ` (${e(i.attribute)})` : ""}: ${link(i.documentation, i.description ?? i.code)}</li>`).join("")}</ul>`;
  const account = f.accountIssues.map((a) => `<p class="bad small">Account issue (${e(a.severity.toLowerCase())}): ${link(a.documentationUri, a.title)}</p>`).join("");
  return (
    `<h3>${e(f.channel)} <small class="muted">Merchant Center ${e(f.accountId)} · read ${e(f.syncedAt)}</small></h3>${stale}${account}` +
    `<dl>${rows.map(([k, v]) => `<dt>${e(k!)}</dt><dd>${v!}</dd>`).join("")}</dl>${issues}`
  );
}

function verdictHtml(v: GoogleVerdict): string {
  const countries = v.countries.map((c) => `${e(c.country)} ${c.status === "disapproved" ? `<span class="bad">${c.status}</span>` : e(c.status)}`).join(", ");
  const issues = v.issues.map((i) => `<li>${e(i.severity.toLowerCase())} <code>${e(i.code)}</code>${i.attribute ? ` (${e(i.attribute)})` : ""}: ${link(i.documentation, i.description ?? i.code)}</li>`).join("");
  return `<li><strong>${e(v.offerId)}</strong> · ${e(v.channel)}: ${countries || e(v.state)}${issues ? `<ul>${issues}</ul>` : ""}</li>`;
}

/** The section's HTML, or "" when no read-back kept anything. */
export function googleSection(outputReal: string, query: string): string {
  let store: MerchantStore | undefined;
  try {
    store = MerchantStore.open(outputReal);
  } catch {
    return `<section class="card"><h2>Google Merchant Center</h2><p class="warn">Google's statuses cannot be read (output/state/merchant.sqlite).</p></section>`;
  }
  if (!store) return "";
  try {
    const feeds = store.feeds();
    const found = query === "" ? [] : store.find({ words: query, limit: SHOWN });
    const search = query === "" ? "" : `<h3>Google: products matching <q>${e(query)}</q></h3>${found.length === 0 ? `<p class="muted">none</p>` : `<ul class="small">${found.map(verdictHtml).join("")}</ul>`}`;
    return (
      `<section class="card google"><h2>Google Merchant Center <small>what Google did with the feeds</small></h2>${search}` +
      `${feeds.map(feedHtml).join("")}<p class="small"><a href="/status/reports/google-issues.csv">google-issues.csv</a> (every issue, in Google's words)</p></section>`
    );
  } finally {
    store.close();
  }
}
