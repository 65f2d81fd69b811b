/**
 * Kept state (the explain index, the rows file for the next refresh) that a run
 * could not write: a `Problem` of kind "state" each (publish/manifest.ts), so the
 * run is degraded, exits 8 and alerts, while its feeds are published anyway and
 * the previous file stays as it was. The snapshot's own problems come from
 * snapshot/run-source.ts.
 *
 * The explain index and the rows file are committed after manifest.json (so that
 * they can name what was published): a failure there is added by addLate(), and
 * the manifest written again.
 */
import type { ChannelEntry, Manifest, Problem } from "../publish/manifest.js";
import { runStatusOf } from "../publish/run-state.js";

export class StateProblems {
  readonly problems: Problem[] = [];

  private add(code: string, reason: string): void {
    if (!this.problems.some((p) => p.code === code)) this.problems.push({ kind: "state", code, reason });
  }

  explainNotWritten(error: Error): void {
    this.add(
      "EXPLAIN_INDEX_NOT_WRITTEN",
      `the explain index was not written (${error.message}): explain and the status page answer from the last index written, older than these feeds, until a run writes one`,
    );
  }

  rowsNotWritten(error: Error): void {
    this.add("ROWS_NOT_WRITTEN", `the rows file for the next refresh was not written (${error.message}): the next refresh maps every product`);
  }

  /** Adds the problems the manifest does not list yet (this object's and `others` found after it was written), with the status they give; true when there were any. */
  addLate(manifest: Manifest, entries: readonly ChannelEntry[], others: readonly Problem[] = []): boolean {
    const listed = new Set((manifest.problems ?? []).map((p) => `${p.code}|${p.channel ?? ""}`));
    const late = [...this.problems, ...others].filter((p) => !listed.has(`${p.code}|${p.channel ?? ""}`));
    if (late.length === 0) return false;
    manifest.problems = [...(manifest.problems ?? []), ...late];
    manifest.status = runStatusOf(entries, manifest.problems);
    return true;
  }
}
