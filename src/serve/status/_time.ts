/** Relative times in the page's language, with the absolute time (UTC) beside them. */
import { escapeHtml as e } from "../../core/html.js";
import type { Language } from "./i18n.js";

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
export function when(iso: string, now: Date, lang: Language): string {
  const abs = `${iso.slice(0, 16).replace("T", " ")} UTC`;
  return `<time datetime="${e(iso)}">${e(formatAge(iso, now, lang))}</time> <span class="abs">(${e(abs)})</span>`;
}

/** Technical text (a code, a config key, a path, a parser's message) one click away. */
export function details(summary: string, text: string): string {
  return `<details class="tech"><summary>${e(summary)}</summary><code>${e(text)}</code></details>`;
}
