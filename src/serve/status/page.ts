/**
 * The status page at `/`, for a shop manager, in English, French or Dutch. It leads with what
 * marketplaces get now, then what the last run did and why it was not published, then a product
 * search (the explain index) and a card per channel (card.ts). The page is a list of sections
 * (SECTIONS): one more section is one line. Every text from the manifest, the config, the index
 * or a User-Agent is escaped; the only script is /status.js (copy buttons, self-refresh),
 * allowed by CSP script-src 'self'.
 */
import type { AccessConfig } from "../../config/schema.js";
import type { Manifest } from "../../publish/manifest.js";
import type { PolicyRule } from "../../policy/index.js";
import { escapeHtml as e } from "../../core/html.js";
import type { Fetch } from "../state.js";
import { card } from "./card.js";
import { LANGUAGES, type Language, WORDS, type Words } from "./i18n.js";
import { onlineSection, policyDueSection, runSection } from "./sections.js";
import { STYLE } from "./style.js";

export { formatAge } from "./_time.js";

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
  /** The config file serve was given: part of the commands the page suggests. */
  configFile?: string | undefined;
  /** A shop of a config with shops: its key, named in the suggested commands. */
  shop?: string | undefined;
  /** output.publicBaseUrl: where the marketplaces reach `serve`. */
  publicBaseUrl?: string | undefined;
  /** The search box's query and its rendered answer (search.ts). */
  search?: { query: string; html: string };
  /** The Google Merchant Center section (src/merchant/status.ts), when a read-back kept statuses. */
  google?: string;
  /** Each channel's health policy rows in effect, by key (the card cites the rows that left products out). */
  policy?: ReadonlyMap<string, ReadonlyMap<string, PolicyRule>>;
  /** Rows past their re-check date (`pharmafeed policy --check`), oldest first. */
  policyDue?: readonly PolicyRule[];
  /** The path the page is served under: "" at the root, "/<shop>" for a shop of many (every link starts with it). */
  base?: string;
}

/** A part of the page: the HTML of one section (or "" to leave it out). */
export type Section = (input: StatusInput, lang: Language) => string;

function searchForm(input: StatusInput, lang: Language): string {
  const w = WORDS[lang];
  const query = input.search?.query;
  return (
    `<form class="search band" method="get" action="${e(input.base ?? "")}/" role="search"><label for="q">${e(w.search)}</label>` +
    `<div class="row"><input id="q" name="q" type="search" value="${e(query ?? "")}" placeholder="${e(w.searchHelp)}" autocomplete="off">` +
    `<input type="hidden" name="lang" value="${lang}"><button type="submit">${e(w.searchButton)}</button></div>` +
    `<p class="muted small" data-refresh="${query ? "off" : "60"}">${e(w.refresh)}</p></form>`
  );
}

function searchResults(input: StatusInput): string {
  return input.search ? `<section class="card results" aria-live="polite">${input.search.html}</section>` : "";
}

function cards(input: StatusInput, lang: Language): string {
  const byName = new Map((input.manifest?.channels ?? []).map((c) => [c.name, c]));
  return `<div class="cards">${input.channels.map((c) => card(input, c, byName.get(c.name), lang)).join("")}</div>`;
}

/** The page, top to bottom. Other parts of pharmafeed add theirs here (destinations, a marketplace's verdicts, ...). */
/** Google's verdicts per feed (src/merchant/status.ts), when a channel reads them back. */
const google: Section = (input) => input.google ?? "";

export const SECTIONS: Section[] = [onlineSection, runSection, policyDueSection, searchForm, searchResults, cards, google];

function languageSwitch(lang: Language, w: Words, query: string | undefined, base: string): string {
  const q = query ? `&amp;q=${e(encodeURIComponent(query))}` : "";
  return `<nav class="lang" aria-label="${e(w.language)}">${LANGUAGES.map((l) => `<a href="${e(base)}/?lang=${l}${q}" lang="${l}"${l === lang ? ` aria-current="true"` : ""}>${l.toUpperCase()}</a>`).join(" ")}</nav>`;
}

export function renderStatusPage(input: StatusInput): string {
  const lang = input.lang ?? "en";
  const w = WORDS[lang];
  const base = input.base ?? "";
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${e(input.shopName)}: ${e(w.feeds)}</title><style>${STYLE}</style><script src="${e(base)}/status.js" defer></script></head><body>` +
    `<header><div class="top"><h1>${e(input.shopName)}: ${e(w.feeds)}</h1>${languageSwitch(lang, w, input.search?.query, base)}</div></header>` +
    `<main>${SECTIONS.map((section) => section(input, lang)).join("")}</main></body></html>`
  );
}
