/**
 * The page's "What to do": the same next step as the alert of the same run (notify/next-steps.ts),
 * in the page's language, each command in <code> to copy. A run that published everything but has
 * a held feed says how to retire it; a gate hold how to publish anyway; a failed run what to look at.
 */
import { eventOf } from "../../notify/alert.js";
import { nextStep } from "../../notify/next-steps.js";
import type { AlertEvent } from "../../notify/settings.js";
import type { Manifest } from "../../publish/manifest.js";
import { unpublishedOf } from "../../publish/run-state.js";
import { escapeHtml as e } from "../../core/html.js";
import type { Language } from "./i18n.js";
import { RUN_WORDS } from "../../publish/run-words.js";

function eventOfManifest(m: Manifest): AlertEvent | undefined {
  if (m.error) return eventOf(m.error.code);
  const unpublished = m.unpublished ?? unpublishedOf(m.channels);
  if (unpublished.some((u) => u.kind === "failed")) return "channel-failed";
  if (unpublished.length > 0) return "gate-tripped";
  if ((m.problems ?? []).length > 0) return "run-degraded";
  return undefined;
}

/** `text` escaped, its `commands` as <code>. */
function withCode(text: string): string {
  return text
    .split("`")
    .map((part, i) => (i % 2 === 1 ? `<code>${e(part)}</code>` : e(part)))
    .join("");
}

export function pageNextStep(m: Manifest, lang: Language, configFile: string | undefined, shop?: string): string {
  const event = eventOfManifest(m);
  if (!event) return "";
  // A refused offers file: --force is advised only when every row was read (offers-file.ts forceHelps).
  const forceHelps = m.offersRefused ? m.offersRefused.refused === 0 : undefined;
  const text = nextStep({ event, language: lang, manifest: m, error: m.error, configFile, forceHelps, shop });
  return `<h3>${e(RUN_WORDS[lang].whatToDo)}</h3><p class="next">${withCode(text)}</p>`;
}
