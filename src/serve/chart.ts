/**
 * A small inline SVG chart of a channel's item counts over the last runs: a
 * line through the counts of runs that produced a file, a dot per run (hollow
 * and orange when that run's file was not published), a red cross on the
 * baseline for a run that failed (it produced nothing: drawn as failed, never
 * as 0 items, and left out of the lowest/highest). Pure; every text is escaped;
 * the words come from the caller (the page's language).
 */
import { escapeHtml } from "../core/html.js";

export interface RunPoint {
  /** ISO time of the run. */
  at: string;
  items: number;
  /** published: the file went online; gated: written, not published; failed: no file. */
  state: "published" | "gated" | "failed";
}

export interface ChartWords {
  /** With {n}, {now}, {min}, {max}; {now} is what is online now, not the last run's count. */
  caption: string;
  /** One run only (no line to draw): with {now}. */
  captionOne: string;
  /** The last run's count when it is not what is online (a gate hold): with {last}. */
  lastRun: string;
  notPublished: string;
  failed: string;
  legend: string;
  none: string;
  items: string;
}

const W = 280;
const H = 64;
const PAD = { left: 6, right: 6, top: 8, bottom: 8 };

function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, key: string) => (key in values ? String(values[key]) : m));
}

export interface ChartNumbers {
  /** Items of the file online now (the caption's "now"); undefined when nothing is online. */
  online: number | undefined;
  /** Counts in the page's language (1 011, 1.011). */
  format: (n: number) => string;
}

export function itemsChart(points: readonly RunPoint[], label: string, words: ChartWords, numbers: ChartNumbers = { online: undefined, format: String }): string {
  if (points.length === 0) return `<p class="muted">${escapeHtml(words.none)}</p>`;
  const f = numbers.format;
  const counted = points.filter((p) => p.state !== "failed");
  const lastPoint = points.at(-1)!;
  const now = numbers.online ?? counted.at(-1)?.items ?? 0;
  // After a gate hold the run's count is not what marketplaces get: both are said, each for what it is.
  const held = lastPoint.state === "gated" && lastPoint.items !== now ? `, ${fill(words.lastRun, { last: f(lastPoint.items) })}` : "";
  // One run is no curve: its figure in words, not a lone dot.
  if (points.length === 1) return `<p class="small muted chart-one">${escapeHtml(fill(words.captionOne, { now: f(now) }) + held)}</p>`;
  const max = counted.length > 0 ? Math.max(...counted.map((p) => p.items)) : 0;
  const min = counted.length > 0 ? Math.min(...counted.map((p) => p.items)) : 0;
  const span = max - min || 1;
  const step = points.length > 1 ? (W - PAD.left - PAD.right) / (points.length - 1) : 0;
  const x = (i: number) => (points.length > 1 ? PAD.left + i * step : W / 2);
  const y = (v: number) => (max === min ? H / 2 : PAD.top + (1 - (v - min) / span) * (H - PAD.top - PAD.bottom));
  const coords = points.flatMap((p, i) => (p.state === "failed" ? [] : [`${x(i).toFixed(1)},${y(p.items).toFixed(1)}`]));
  const dots = points
    .map((p, i) => {
      const when = `${p.at.slice(0, 16).replace("T", " ")} UTC`;
      const text = p.state === "failed" ? `${when}: ${words.failed}` : `${when}: ${p.items} ${words.items}${p.state === "gated" ? ` (${words.notPublished})` : ""}`;
      const title = `<title>${escapeHtml(text)}</title>`;
      const cx = x(i).toFixed(1);
      if (p.state === "failed") {
        const b = H - PAD.bottom;
        return `<g stroke="#b3261e" stroke-width="2">${title}<line x1="${x(i) - 3}" y1="${b - 3}" x2="${x(i) + 3}" y2="${b + 3}"/><line x1="${x(i) - 3}" y1="${b + 3}" x2="${x(i) + 3}" y2="${b - 3}"/></g>`;
      }
      return p.state === "published"
        ? `<circle cx="${cx}" cy="${y(p.items).toFixed(1)}" r="2.5" fill="#1f6feb">${title}</circle>`
        : `<circle cx="${cx}" cy="${y(p.items).toFixed(1)}" r="3.5" fill="#fff" stroke="#d4760b" stroke-width="2">${title}</circle>`;
    })
    .join("");
  return (
    `<figure class="chart"><svg role="img" aria-label="${escapeHtml(label)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
    `<polyline fill="none" stroke="#1f6feb" stroke-width="1.5" points="${coords.join(" ")}"/>${dots}</svg>` +
    `<figcaption>${escapeHtml(fill(words.caption, { n: points.length, now: f(now), min: f(min), max: f(max) }) + held)}` +
    `${points.some((p) => p.state !== "published") ? ` · ${escapeHtml(words.legend)}` : ""}</figcaption></figure>`
  );
}
