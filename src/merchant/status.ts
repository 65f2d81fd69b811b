/**
 * The status page's Google Merchant Center section (serve/status/handler.ts adds it):
 * per feed with an account, what Google approved, left pending and disapproved and why
 * (top issues, account issues), with the products that match the page's search. Always
 * "Google disapproved": pharmafeed's own exclusions are in each feed's card.
 * In the page's language; Google's issue texts stay in Google's words.
 */
import { escapeHtml as e } from "../core/html.js";
import type { Language } from "../serve/status/i18n.js";
import { MerchantStore, type FeedSummary, type GoogleVerdict } from "./store.js";

const SHOWN = 10;

const WORDS = {
  en: {
    approved: "Approved", pending: "Pending", disapproved: "Disapproved by Google", of: "of",
    failed: (at: string, error: string, read: string) => `The last read-back failed (${at}): ${error}. These are the statuses read ${read}.`,
    account: "Account issue", read: "read", unreadable: "Google's statuses cannot be read (output/state/merchant.sqlite).",
    title: "what Google did with the feeds", matching: "Google: products matching", none: "none", csv: "(every issue, in Google's words)",
  },
  fr: {
    approved: "Approuvés", pending: "En attente", disapproved: "Refusés par Google", of: "sur",
    failed: (at: string, error: string, read: string) => `La dernière lecture a échoué (${at}) : ${error}. Voici les statuts lus le ${read}.`,
    account: "Problème de compte", read: "lu le", unreadable: "Les statuts de Google ne peuvent pas être lus (output/state/merchant.sqlite).",
    title: "ce que Google a fait des flux", matching: "Google : produits correspondant à", none: "aucun", csv: "(tous les problèmes, dans les mots de Google)",
  },
  nl: {
    approved: "Goedgekeurd", pending: "In behandeling", disapproved: "Afgekeurd door Google", of: "van",
    failed: (at: string, error: string, read: string) => `De laatste uitlezing is mislukt (${at}): ${error}. Dit zijn de statussen gelezen op ${read}.`,
    account: "Accountprobleem", read: "gelezen op", unreadable: "De statussen van Google kunnen niet worden gelezen (output/state/merchant.sqlite).",
    title: "wat Google met de feeds deed", matching: "Google: producten die overeenkomen met", none: "geen", csv: "(alle problemen, in de woorden van Google)",
  },
} satisfies Record<Language, unknown>;

function link(url: string | undefined, text: string): string {
  return url && /^https:\/\//.test(url) ? `<a href="${e(url)}" rel="noreferrer">${e(text)}</a>` : e(text);
}

function feedHtml(f: FeedSummary, lang: Language): string {
  const w = WORDS[lang];
  const rows = [
    [w.approved, `<span class="ok">${f.approved}</span>`],
    [w.pending, String(f.pending)],
    [w.disapproved, `<span class="${f.disapproved > 0 ? "bad" : "ok"}">${f.disapproved}</span> ${e(w.of)} ${f.products}`],
  ];
  const stale = f.error ? `<p class="warn small">${e(w.failed(f.errorAt ?? "", f.error, f.syncedAt))}</p>` : "";
  const issues = f.topIssues.length === 0 ? "" : `<ul class="why small">${f.topIssues.slice(0, 5).map((i) => `<li><span class="n">${i.products}</span> · ${e(i.severity.toLowerCase())} <code>${e(i.code)}</code>${i.attribute ? ` (${e(i.attribute)})` : ""}: ${link(i.documentation, i.description ?? i.code)}</li>`).join("")}</ul>`;
  const account = f.accountIssues.map((a) => `<p class="bad small">${e(w.account)} (${e(a.severity.toLowerCase())}): ${link(a.documentationUri, a.title)}</p>`).join("");
  return (
    `<h3>${e(f.channel)} <small class="muted">Merchant Center ${e(f.accountId)} · ${e(w.read)} ${e(f.syncedAt)}</small></h3>${stale}${account}` +
    `<dl>${rows.map(([k, v]) => `<dt>${e(k!)}</dt><dd>${v!}</dd>`).join("")}</dl>${issues}`
  );
}

function verdictHtml(v: GoogleVerdict): string {
  const countries = v.countries.map((c) => `${e(c.country)} ${c.status === "disapproved" ? `<span class="bad">${c.status}</span>` : e(c.status)}`).join(", ");
  const issues = v.issues.map((i) => `<li>${e(i.severity.toLowerCase())} <code>${e(i.code)}</code>${i.attribute ? ` (${e(i.attribute)})` : ""}: ${link(i.documentation, i.description ?? i.code)}</li>`).join("");
  return `<li><strong>${e(v.offerId)}</strong> · ${e(v.channel)}: ${countries || e(v.state)}${issues ? `<ul>${issues}</ul>` : ""}</li>`;
}

/** The section's HTML, or "" when no read-back kept anything; `base`: the status page's path ("" at the root, "/<shop>" for a shop of many). */
export function googleSection(outputReal: string, query: string, lang: Language = "en", base = ""): string {
  const w = WORDS[lang];
  let store: MerchantStore | undefined;
  try {
    store = MerchantStore.open(outputReal);
  } catch {
    return `<section class="card"><h2>Google Merchant Center</h2><p class="warn">${e(w.unreadable)}</p></section>`;
  }
  if (!store) return "";
  try {
    const feeds = store.feeds();
    const found = query === "" ? [] : store.find({ words: query, limit: SHOWN });
    const search = query === "" ? "" : `<h3>${e(w.matching)} <q>${e(query)}</q></h3>${found.length === 0 ? `<p class="muted">${e(w.none)}</p>` : `<ul class="small">${found.map(verdictHtml).join("")}</ul>`}`;
    return (
      `<section class="card google"><h2>Google Merchant Center <small>${e(w.title)}</small></h2>${search}` +
      `${feeds.map((f) => feedHtml(f, lang)).join("")}<p class="small"><a href="${e(base)}/status/reports/google-issues.csv">google-issues.csv</a> ${e(w.csv)}</p></section>`
    );
  } finally {
    store.close();
  }
}
