/** The table printed at the end of a run: what each channel published and why products were left out. */
import { formatBytes } from "../format.js";
import type { LogFields } from "../log.js";
import type { Manifest } from "../publish/manifest.js";
import { unpublishedOf } from "../publish/run-state.js";
import { describeSync } from "../snapshot/describe.js";
import { destinationLines } from "../publish/destination-record.js";

export function topReasons(excluded: Record<string, number>, count = 3): string {
  const total = Object.values(excluded).reduce((a, b) => a + b, 0);
  if (total === 0) return "0";
  const top = Object.entries(excluded)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, count)
    .map(([code, n]) => `${code} ${n}`);
  return `${total} (${top.join(", ")}${Object.keys(excluded).length > count ? ", ..." : ""})`;
}

/** "yes", "no: <why>", or in a dry run what the real run would do ("would publish"); a file `rollback` pinned says so. */
function publishedCell(entry: Manifest["channels"][number]): string {
  const published = entry.published;
  if (published === true) return entry.live?.pinned ? `yes, pinned since ${entry.live.pinned.at} by \`${entry.live.pinned.command}\`` : "yes";
  return published.startsWith(DRY_RUN) ? published.slice(DRY_RUN.length) : `no: ${published}`;
}

const DRY_RUN = "dry run: ";

export function formatSummary(manifest: Manifest): string {
  const rows = [["channel", "items", "excluded (top reasons)", "size", "published"]];
  for (const c of manifest.channels) {
    rows.push([c.name, c.items.toLocaleString("en"), topReasons(c.excluded), formatBytes(c.bytes), publishedCell(c)]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const numeric = new Set([1, 3]);
  const last = rows[0]!.length - 1;
  const lines = rows.map((r) => r.map((cell, i) => (i === last ? cell : numeric.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join("  "));
  // A column blank in every row is almost always a template naming a field no product has.
  for (const c of manifest.channels) {
    const empty = c.emptyColumns ?? [];
    if (empty.length > 0) lines.push(`warning: ${c.name}: column${empty.length > 1 ? "s" : ""} empty in every row: ${empty.join(", ")}`);
  }
  const s = manifest.source;
  const seconds = (Date.parse(manifest.endedAt) - Date.parse(manifest.startedAt)) / 1000;
  lines.push(
    "",
    // A refresh or a delta maps the snapshot's products: they were not all received now (the catalogue line says what was).
    `source: ${s.received.toLocaleString("en")} products ${manifest.sync && manifest.sync.used !== "full" ? "from the snapshot" : "received"}${s.total !== null ? ` of ${s.total.toLocaleString("en")}` : ""}, ` +
      `${s.rejected} rejected${s.readAt ? ` (counts of the catalogue read at ${s.readAt})` : ""}, ${s.retries} retries, ${s.resumes} resumes, ${seconds.toFixed(1)} s` +
      (seconds > 0 ? ` (${Math.round(s.received / seconds).toLocaleString("en")} products/s)` : ""),
  );
  if (manifest.sync) lines.push(`catalogue: ${describeSync(manifest.sync)}`);
  // A dry run pushes nothing: the records its entries carry are the last real run's (push --dry-run says what would go).
  const dry = manifest.channels.some((c) => typeof c.published === "string" && c.published.startsWith(DRY_RUN));
  if (!dry) lines.push(...destinationLines(manifest.channels));
  // Said once, by the run that did it (publish/held-feeds.ts).
  for (const r of manifest.retired ?? []) lines.push(`retired: ${r.channel}: ${r.reason}`);
  lines.push(runLine(manifest));
  return lines.join("\n");
}

/** The run's status as the manifest, /healthz and the status page say it, with the channels left unpublished. */
export function runLine(manifest: Manifest): string {
  const unpublished = manifest.unpublished ?? unpublishedOf(manifest.channels);
  const dry = manifest.channels.some((c) => typeof c.published === "string" && c.published.startsWith(DRY_RUN));
  const run = dry ? "dry run, nothing published; the real run would be" : "run:";
  if (manifest.status === "ok") return `${run} ok (every channel ${dry ? "would be " : ""}published)`;
  const ran = manifest.channels.length;
  // What went wrong beside the channels (a served feed the config no longer names, ...): said after them.
  const problems = (manifest.problems ?? []).map((p) => (p.channel ? `${p.channel}: ${p.reason}` : p.reason)).join("; ");
  if (unpublished.length === 0) return `${run} ${manifest.status} (every channel ${dry ? "would be " : ""}published, but: ${problems})`;
  const which = unpublished.map((u) => `${u.channel}: ${u.reason}`).join("; ");
  return `${run} ${manifest.status} (${unpublished.length} of ${ran} channel${ran === 1 ? "" : "s"} ${dry ? "would not be" : "not"} published: ${which}${problems ? `; and ${problems}` : ""})`;
}

/**
 * The run's last log line with `--log-format json` (instead of the table): per
 * channel items, excluded and published, the status and the exit code. A run
 * that failed as a whole has no manifest: its channels are listed unpublished.
 */
export function summaryEvent(input: { manifest?: Manifest; channels: readonly string[]; exitCode: number; error?: { code: string; message: string } }): LogFields {
  const { manifest } = input;
  const channels = manifest
    ? manifest.channels.map((c) => ({
        name: c.name,
        items: c.items,
        excluded: Object.values(c.excluded).reduce((a, b) => a + b, 0),
        excludedByReason: c.excluded,
        published: c.published === true,
        ...(c.published === true ? {} : { reason: c.published }),
        file: c.file,
      }))
    : input.channels.map((name) => ({ name, items: 0, excluded: 0, published: false, reason: `failed: the run failed (${input.error?.code ?? "UNEXPECTED"})` }));
  return {
    event: "run-summary",
    status: manifest?.status ?? "failed",
    exitCode: input.exitCode,
    ...(input.error ? { error: input.error } : {}),
    ...(manifest
      ? {
          source: { received: manifest.source.received, total: manifest.source.total, rejected: manifest.source.rejected, retries: manifest.source.retries, resumes: manifest.source.resumes },
          seconds: Math.round((Date.parse(manifest.endedAt) - Date.parse(manifest.startedAt)) / 100) / 10,
        }
      : {}),
    channels,
  };
}
