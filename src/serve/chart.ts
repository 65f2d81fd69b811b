/**
 * A small inline SVG chart of a channel's item counts over the last runs: a
 * line through the counts, a dot per run (hollow and orange when that run was
 * not published), min and max labels. Pure; every text is escaped.
 */
import { escapeHtml } from "./html.js";

export interface RunPoint {
  /** ISO time of the run. */
  at: string;
  items: number;
  published: boolean;
}

const W = 280;
const H = 64;
const PAD = { left: 6, right: 6, top: 8, bottom: 8 };

export function itemsChart(points: readonly RunPoint[], label: string): string {
  if (points.length === 0) return `<p class="muted">No runs recorded yet.</p>`;
  const max = Math.max(...points.map((p) => p.items));
  const min = Math.min(...points.map((p) => p.items));
  const span = max - min || 1;
  const step = points.length > 1 ? (W - PAD.left - PAD.right) / (points.length - 1) : 0;
  const x = (i: number) => (points.length > 1 ? PAD.left + i * step : W / 2);
  const y = (v: number) => (max === min ? H / 2 : PAD.top + (1 - (v - min) / span) * (H - PAD.top - PAD.bottom));
  const coords = points.map((p, i) => `${x(i).toFixed(1)},${y(p.items).toFixed(1)}`);
  const dots = points
    .map((p, i) => {
      const title = `<title>${escapeHtml(`${p.at.slice(0, 16).replace("T", " ")} UTC: ${p.items} items${p.published ? "" : " (not published)"}`)}</title>`;
      return p.published
        ? `<circle cx="${x(i).toFixed(1)}" cy="${y(p.items).toFixed(1)}" r="2.5" fill="#1f6feb">${title}</circle>`
        : `<circle cx="${x(i).toFixed(1)}" cy="${y(p.items).toFixed(1)}" r="3.5" fill="#fff" stroke="#d4760b" stroke-width="2">${title}</circle>`;
    })
    .join("");
  return (
    `<figure class="chart"><svg role="img" aria-label="${escapeHtml(label)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
    `<polyline fill="none" stroke="#1f6feb" stroke-width="1.5" points="${coords.join(" ")}"/>${dots}</svg>` +
    `<figcaption>Items in the last ${points.length} run${points.length === 1 ? "" : "s"}: now ${points.at(-1)!.items}, min ${min}, max ${max}` +
    `${points.some((p) => !p.published) ? " · orange ring: not published" : ""}</figcaption></figure>`
  );
}
