/**
 * The status page's line for a channel's destinations (one <dt>/<dd> pair in
 * its card): where each push went and how the last one ended. English only,
 * like the CLI; the page's other words are translated in serve/status/i18n.ts.
 */
import { formatBytes } from "../format.js";
import { escapeHtml as e } from "../core/html.js";
import type { DestinationRecord } from "../publish/destination-record.js";

export function destinationsHtml(records: readonly DestinationRecord[] | undefined): string {
  if (!records || records.length === 0) return "";
  const items = records.map((r) => {
    const at = `<time datetime="${e(r.at)}">${e(`${r.at.slice(0, 16).replace("T", " ")} UTC`)}</time>`;
    const state = r.ok
      ? `<span class="ok">${r.uploaded === 0 ? "ok, unchanged" : `ok, ${r.uploaded} file${r.uploaded === 1 ? "" : "s"} (${e(formatBytes(r.uploadedBytes))})`}</span>`
      : `<span class="bad">failed</span> <span class="reason">${e(r.reason ?? r.code ?? "")}</span>`;
    return `<li><strong>${e(r.name)}</strong> <span class="muted">${e(r.target)}</span>: ${state}, ${at}</li>`;
  });
  return `<dt>Uploads</dt><dd><ul class="destinations">${items.join("")}</ul></dd>`;
}
