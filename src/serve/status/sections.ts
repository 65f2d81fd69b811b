/**
 * The status page's sections above the channel cards, in the order a shop manager needs them:
 * what marketplaces get now (every served feed: since when, items, size, who fetched it), then
 * what the last run did and, when it was not published, why (in words, the technical text one
 * click away), each figure from the run it belongs to.
 */
import type { ChannelEntry, Manifest } from "../../publish/manifest.js";
import { DEFAULT_MAX_FEED_AGE_HOURS, unpublishedOf } from "../../publish/run-state.js";
import { MARKETPLACES } from "../bots.js";
import { escapeHtml as e } from "../../core/html.js";
import { unverifiedKey } from "../state.js";
import { WORDS, type Language } from "./i18n.js";
import type { StatusInput } from "./page.js";
import { runState } from "./run-state.js";
import { errorWords, fill, problemWords, RUN_WORDS, unpublishedWords } from "../../publish/run-words.js";
import { details, formatAge, when } from "./_time.js";
import { bytes, count, plural } from "../../core/numbers.js";
import { pageNextStep } from "./next-step.js";

/** "1 011 articles", "1 article": the count in the language's digits, the word in its plural form. */
export function itemsText(n: number, lang: Language): string {
  const w = WORDS[lang];
  return `${count(n, lang)} ${plural(n, { one: w.item, other: w.items }, lang)}`;
}

/** The entries a marketplace can fetch: the config's channels in its order, then feeds held since the config dropped them. */
function onlineEntries(input: StatusInput): { entry: ChannelEntry; held: boolean }[] {
  const byName = new Map((input.manifest?.channels ?? []).map((c) => [c.name, c]));
  const named = input.channels.flatMap((c) => {
    const entry = byName.get(c.name);
    return entry ? [{ entry, held: false }] : [];
  });
  const held = (input.manifest?.channels ?? []).filter((c) => c.live && !input.channels.some((x) => x.name === c.name)).map((entry) => ({ entry, held: true }));
  return [...named, ...held];
}

/** The newest fetch of a marketplace whose check passed, in a few words. */
function lastFetch(input: StatusInput, channel: string, lang: Language): string {
  const seen = input.fetches(channel);
  const r = RUN_WORDS[lang];
  const newest = MARKETPLACES.flatMap((m) => [seen[m.id], seen[unverifiedKey(m.id)]].flatMap((f) => (f ? [{ m, f }] : []))).sort((a, b) => Date.parse(b.f.at) - Date.parse(a.f.at))[0];
  if (!newest) return `<span class="muted">${e(r.notFetched)}</span>`;
  const who = newest.f.verified === true ? newest.m.label : `${newest.m.label} (${WORDS[lang].unverified})`;
  return `${e(r.fetched)} ${e(who)} <time datetime="${e(newest.f.at)}">${e(formatAge(newest.f.at, input.now, lang))}</time>`;
}

export function onlineSection(input: StatusInput, lang: Language): string {
  const r = RUN_WORDS[lang];
  if (!input.manifest) return "";
  const all = onlineEntries(input);
  const rows = all.flatMap(({ entry, held }) => {
    const live = entry.live;
    if (!live || !input.served.has(entry.name)) return [];
    return [
      `<li><strong>${e(entry.name)}</strong> <code>${e(live.file)}</code>: ${e(itemsText(live.items, lang))} · ${e(bytes(live.bytes, lang))} · ` +
        `${e(r.onlineSince)} ${when(live.publishedAt, input.now, lang)} · ${lastFetch(input, entry.name, lang)}` +
        (held ? `<br><span class="warn">${e(r.held)}</span>` : "") +
        `</li>`,
    ];
  });
  const count = fill(r.onlineCount, { n: rows.length, total: all.length });
  const body = rows.length > 0 ? `<p><strong class="${rows.length === all.length ? "ok" : "warn"}">${e(count)}</strong></p><ul class="online">${rows.join("")}</ul>` : `<p class="bad">${e(r.noneOnline)}</p>`;
  return `<section class="band" aria-labelledby="online-h"><h2 id="online-h">${e(r.onlineNow)}</h2>${body}</section>`;
}

function syncLine(sync: NonNullable<Manifest["sync"]>, now: Date, lang: Language): string {
  const c = RUN_WORDS[lang].catalogue;
  const used = c[sync.used];
  const age = fill(c.age, { age: formatAge(sync.syncedAt, now, lang) });
  return `${e(used)}, ${e(age)}${sync.fallback ? ` <span class="warn">(${e(c.fellBack)})</span>${details(RUN_WORDS[lang].detail, sync.fallback)}` : ""}`;
}

/** An offers file's figures, each saying what it counts: its rows (accepted, refused) and, apart, its problems. */
function offersFigures(o: { accepted: number; refused: number; rows?: number | undefined; rowsAccepted?: number | undefined }, lang: Language): string {
  const w = WORDS[lang];
  const problems = o.refused > 0 ? ` · <span class="warn">${e(fill(plural(o.refused, w.offersProblems, lang), { n: count(o.refused, lang) }))}</span>` : "";
  if (o.rows === undefined || o.rowsAccepted === undefined) {
    // A manifest from before rows were counted: offers accepted, problems.
    return `${count(o.accepted, lang)} ${e(w.offersOk)}${problems}`;
  }
  const refused = o.rows - o.rowsAccepted;
  const text = fill(w.offersRows, { rows: count(o.rows, lang), accepted: count(o.rowsAccepted, lang), refused: count(refused, lang) });
  return `<span class="${refused > 0 ? "warn" : "ok"}">${e(text)}</span>${problems}`;
}

function offersLine(m: Manifest, lang: Language, base: string): string {
  const w = WORDS[lang];
  const r = RUN_WORDS[lang];
  const link = `<a href="${e(base)}/status/reports/_offers.csv" download>${e(w.offersReport)}</a>`;
  if (m.offersRefused) {
    const o = m.offersRefused;
    return (
      `<p>${e(r.offersRun)}: <span class="bad">${e(r.offersRefusedRun)}</span> · ${offersFigures(o, lang)} · ${link}${details(r.detail, o.reasons.join("\n"))}</p>` +
      (m.offers ? `<p>${e(r.offersOnline)}: ${offersFigures(m.offers, lang)}</p>` : "")
    );
  }
  if (!m.offers) return `<p>${e(w.offers)}: <span class="muted">${e(w.noOffers)}</span></p>`;
  // A failed run keeps the offers figures of the feeds online (failed-run.ts): said so.
  const label = m.error ? r.offersOnline : r.offersRun;
  return `<p>${e(label)}: ${offersFigures(m.offers, lang)}${m.offers.refused > 0 ? ` · ${link}` : ""}</p>`;
}

export function runSection(input: StatusInput, lang: Language): string {
  const w = WORDS[lang];
  const r = RUN_WORDS[lang];
  const m = input.manifest;
  const state = runState(m, input.now, input.maxFeedAgeHours);
  const cls = state.state === "ok" ? "ok" : state.state === "degraded" || state.state === "stale" ? "warn" : "bad";
  if (!m) return `<section class="band"><p><strong class="${cls}" data-state="none">${e(w.state.none)}</strong></p></section>`;
  const unpublished = m.unpublished ?? unpublishedOf(m.channels);
  // Degraded with every feed published (a held feed, kept state, a destination): said so, not "some feeds were not published".
  const onlyProblems = state.state === "degraded" && !m.error && unpublished.length === 0;
  const words = (onlyProblems ? w.state.attention : w.state[state.state]).replace("{hours}", String(input.maxFeedAgeHours ?? DEFAULT_MAX_FEED_AGE_HOURS));
  const anyOnline = m.channels.some((c) => c.live && input.served.has(c.name));
  const stays = state.state !== "ok" && anyOnline ? ` <span class="muted">(${e(r.runOnline)})</span>` : "";
  // A run that failed as a whole says so once, not once per channel.
  const why = [
    ...(m.error ? [`<li><strong>${e(errorWords(m.error.code, lang, m.endedAt))}</strong>${details(r.detail, `${m.error.code}: ${m.error.message}`)}</li>`] : []),
    ...(m.error ? [] : unpublished.map((u) => `<li><strong>${e(u.channel)}</strong>: ${e(unpublishedWords(u.reason, lang))}${details(r.detail, u.reason)}</li>`)),
    ...(m.problems ?? []).map((p) => `<li><strong>${e(p.channel ?? "")}</strong>: ${e(problemWords(p.kind, lang))}${details(r.detail, `${p.code}: ${p.reason}`)}</li>`),
  ];
  const heading = m.error ? r.whyNot : unpublished.length > 0 ? r.whySome : r.attention;
  const whyList = why.length > 0 ? `<h3>${e(heading)}</h3><ul class="why">${why.join("")}</ul>` : "";
  // What to do, where the manager looks, in the page's language (the alert says the same).
  const next = state.state === "ok" || state.state === "none" ? "" : pageNextStep(m, lang, input.configFile, input.shop);
  // Feeds held since the config dropped them were not published by this run: not counted.
  const ran = m.channels.filter((c) => input.channels.some((x) => x.name === c.name));
  const counts = m.error
    ? ""
    : `<p>${count(m.source.received, lang)} ${e(w.received)}, ${count(m.source.rejected, lang)} ${e(w.rejected)} · ${count(ran.filter((c) => c.published === true).length, lang)} ${e(w.of)} ${count(ran.length, lang)} ${e(w.feedsPublished)}` +
      `${m.sync ? ` · ${syncLine(m.sync, input.now, lang)}` : ""}</p>`;
  return (
    `<section class="band" aria-labelledby="run-h"><h2 id="run-h">${e(r.runTitle)}: ${when(m.startedAt, input.now, lang)}</h2>` +
    `<p><strong class="${cls}" data-state="${state.state}">${e(words)}</strong>${stays}</p>${whyList}${next}${counts}${offersLine(m, lang, input.base ?? "")}</section>`
  );
}

/** A warning when health policy rows are past their re-check date: the rules may have changed since. */
export function policyDueSection(input: StatusInput, lang: Language): string {
  const due = input.policyDue ?? [];
  const oldest = due[0];
  if (oldest === undefined) return "";
  const cmd = `pharmafeed policy --check${input.shop ? ` --shop ${input.shop}` : ""}${input.configFile ? ` --config ${input.configFile}` : ""}`;
  const text = fill(WORDS[lang].health.overdue, { n: String(due.length), key: `${oldest.channel} ${oldest.country} ${oldest.class}`, date: oldest.recheck ?? "", cmd });
  return `<section class="band"><p class="warn">${e(text)}</p></section>`;
}
