/** The table printed at the end of a run: what each channel published and why products were left out. */
import { formatBytes } from "../format.js";
import type { Manifest } from "../publish/manifest.js";
import { describeSync } from "../snapshot/describe.js";

export function topReasons(excluded: Record<string, number>, count = 3): string {
  const total = Object.values(excluded).reduce((a, b) => a + b, 0);
  if (total === 0) return "0";
  const top = Object.entries(excluded)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, count)
    .map(([code, n]) => `${code} ${n}`);
  return `${total} (${top.join(", ")}${Object.keys(excluded).length > count ? ", ..." : ""})`;
}

export function formatSummary(manifest: Manifest): string {
  const rows = [["channel", "items", "excluded (top reasons)", "size", "published"]];
  for (const c of manifest.channels) {
    rows.push([c.name, c.items.toLocaleString("en"), topReasons(c.excluded), formatBytes(c.bytes), c.published === true ? "yes" : `no: ${c.published}`]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const numeric = new Set([1, 3]);
  const last = rows[0]!.length - 1;
  const lines = rows.map((r) => r.map((cell, i) => (i === last ? cell : numeric.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join("  "));
  const s = manifest.source;
  const seconds = (Date.parse(manifest.endedAt) - Date.parse(manifest.startedAt)) / 1000;
  lines.push(
    "",
    `source: ${s.received.toLocaleString("en")} products received${s.total !== null ? ` of ${s.total.toLocaleString("en")}` : ""}, ` +
      `${s.rejected} rejected, ${s.retries} retries, ${s.resumes} resumes, ${seconds.toFixed(1)} s` +
      (seconds > 0 ? ` (${Math.round(s.received / seconds).toLocaleString("en")} products/s)` : ""),
  );
  if (manifest.sync) lines.push(`catalogue: ${describeSync(manifest.sync)}`);
  return lines.join("\n");
}
