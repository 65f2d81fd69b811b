/** The status page's search box, answered from the explain index (no catalogue request: serve has no credentials). */
import type { ChannelMapping } from "../../mapping/settings.js";
import { explain, type ChannelAnswer, type ExplainAnswer } from "../../explain/explain.js";
import { MAX_QUERY_CHARS, queryLength } from "../../explain/query.js";
import { ExplainIndex, explainFile } from "../../explain/store.js";
import { escapeHtml as e } from "../../core/html.js";
import { count, plural } from "../../core/numbers.js";
import { isPharmafeedError } from "../../errors.js";
import { details } from "./_time.js";
import { WORDS, type Language } from "./i18n.js";
import { reasonWords } from "./reason-words.js";
import { fill, RUN_WORDS } from "../../publish/run-words.js";

/**
 * A reason's detail (the channel's settings in a sentence, reason-details.ts) is English: read on an
 * English page, one click away as technical text on a French or Dutch one, after the words and code.
 */
function said(detail: string, lang: Language): string {
  return lang === "en" ? `: ${e(detail)}` : details(RUN_WORDS[lang].detail, detail);
}

const SHOWN = 10;

/** When each channel's online file was published: an answer from a run whose file is not the one online says so. */
export type OnlineSince = ReadonlyMap<string, string>;

function channel(c: ChannelAnswer, lang: Language, stale: boolean): string {
  const w = WORDS[lang];
  const name = `<strong>${e(c.channel)}</strong>${stale ? ` <span class="warn">(${e(w.notOnline)})</span>` : ""}`;
  switch (c.outcome) {
    case "not_run":
      return `<li>${name}: <span class="muted">${e(w.notRun)}</span></li>`;
    case "channel_failed":
      return `<li>${name}: <span class="bad">${e(w.failedChannel)}</span></li>`;
    case "left_out":
      return (
        `<li>${name}: <span class="bad">${e(w.leftOutOf)}</span><ul>` +
        (c.reasons ?? []).map((r) => `<li>${e(reasonWords(r.code, lang))} <code>${e(r.code)}</code>${said(r.detail, lang)}</li>`).join("") +
        `</ul></li>`
      );
    case "in_feed": {
      const notes = [...(c.warnings ?? []).map((x) => `${e(reasonWords(x.code, lang))} <code>${e(x.code)}</code>`), ...(c.fallbacks ?? []).map((f) => (lang === "en" ? e(f.detail) : details(RUN_WORDS[lang].detail, f.detail)))];
      return (
        `<li>${name}: <span class="ok">${e(w.inFeed)}</span>${notes.length > 0 ? ` · ${notes.join(" · ")}` : ""}` +
        (c.row !== undefined ? `<pre class="row" tabindex="0">${e(c.row.trim())}</pre>` : "") +
        `</li>`
      );
    }
  }
}

export function renderAnswer(answer: ExplainAnswer, lang: Language, online: OnlineSince = new Map()): string {
  const w = WORDS[lang];
  // Channels whose served file is not the one the index describes (explain/freshness.ts), or whose run's file a gate kept back.
  const notServed = new Set(answer.staleChannels ?? []);
  const stale = (name: string) => {
    if (notServed.has(name)) return true;
    const since = online.get(name);
    return answer.runStartedAt !== "" && (since === undefined || Date.parse(since) < Date.parse(answer.runStartedAt));
  };
  const banner = notServed.size > 0 ? `<p class="bad">${e(w.staleIndex)} ${[...notServed].map((c) => e(c)).join(", ")}</p>` : "";
  const from = (answer.runStartedAt ? `<p class="muted small">${e(w.answerFrom)} ${e(answer.runStartedAt.slice(0, 16).replace("T", " "))} UTC</p>` : "") + banner;
  if (answer.products.length === 0) {
    const what = answer.matchedBy === "none" && /^\S+$/.test(answer.query) && /\d/.test(answer.query) ? w.notReceived : w.noMatch;
    return `<p>${e(what)}: <strong>${e(answer.query)}</strong></p>${from}`;
  }
  return (
    `<p>${e(fill(plural(answer.total, w.matchForms, lang), { n: count(answer.total, lang) }))} <strong>${e(answer.query)}</strong></p>${from}` +
    answer.products
      .map((p) => `<article><h3>${e(p.id)}${p.name ? ` · ${e(p.name)}` : ""}</h3><p class="muted small">${[p.gtin ? `GTIN ${e(p.gtin)}` : "", p.brand ? e(p.brand) : ""].filter(Boolean).join(" · ")}</p><ul>${p.channels.map((c) => channel(c, lang, c.outcome !== "not_run" && stale(c.channel))).join("")}</ul></article>`)
      .join("")
  );
}

/** undefined when no run wrote an index yet. */
export async function searchIndex(
  outputReal: string,
  channels: readonly { name: string; mapping: ChannelMapping }[],
  query: string,
  lang: Language,
  online: OnlineSince = new Map(),
): Promise<string | undefined> {
  const n = queryLength(query);
  if (n > MAX_QUERY_CHARS) return `<p>${e(fill(WORDS[lang].queryTooLong, { max: String(MAX_QUERY_CHARS), n: String(n) }))}</p>`;
  let index: ExplainIndex | undefined;
  try {
    index = ExplainIndex.open(explainFile(outputReal));
    if (!index) return undefined;
    const answer = await explain({ index, outputDir: outputReal, channels, query, limit: SHOWN, sourceFilter: {} });
    return renderAnswer(answer, lang, online);
  } catch (error) {
    // An index whose state log is not its own (or damaged) answers nothing rather than another product's outcomes;
    // so does one that SQLite cannot open on this Node.js (NATIVE_MODULE: the details say `npm rebuild`).
    if (!isPharmafeedError(error, "STORE_INVALID") && !isPharmafeedError(error, "NATIVE_MODULE")) throw error;
    return `<p>${e(WORDS[lang].indexUnusable)}</p>${details(error.code, error.message)}`;
  } finally {
    index?.close();
  }
}
