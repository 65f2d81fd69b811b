/**
 * The two shapes in which a capability joins a generate run (pipeline/run.ts), so that adding
 * one means adding a part in its own folder, not editing the run:
 *
 *   feeds published locally ─> manifest.json ─> sinks: commit (kept state) ─> hooks: run (in order)
 *                                                   │                              │
 *                                                   └──── Problem[] ───────────────┴─> applyOutcome: one status
 *
 * - A StateSink keeps something beside the feeds (the state log and explain index, the image
 *   cache, the feed history): it hears the run as it goes, is committed once the feeds
 *   are published, or aborted when the run fails. What it cannot write is a problem of the run,
 *   never its failure, and never a reason to publish something else.
 * - An AfterPublishHook acts once the feeds are published (destinations, Google's read-back and
 *   push): it may update the channels' entries (e.g. upload records) and returns its problems.
 *   It never throws for a failure of its own: the local publish stands.
 *
 * The run's status comes from one rule (run-state.ts): runStatusOf when the run publishes, and
 * applyOutcome, which keeps that rule, whenever a part adds problems after it.
 */
import type { ChannelEntry, Manifest, Problem } from "./manifest.js";

/** What the parts are told once the feeds are published. */
export interface PublishedRun {
  outputDir: string;
  /** manifest.json as written (a part's outcome is applied to it before the next part runs). */
  manifest: Manifest;
  /** This run's channel entries, in the config's order (channels kept from an earlier run are not among them). */
  entries: readonly ChannelEntry[];
  dryRun: boolean;
}

export interface PartOutcome {
  problems: Problem[];
  /** Channel entries this part updated, by name. */
  channels?: ReadonlyMap<string, ChannelEntry>;
  /** Problems already in the manifest that this outcome supersedes (e.g. a channel's destination problems, now that it was pushed again). */
  supersedes?: (problem: Problem) => boolean;
}

export interface StateSink {
  readonly name: string;
  commit(run: PublishedRun): Promise<Problem[]>;
  abort(): Promise<void>;
}

export interface AfterPublishHook {
  readonly name: string;
  run(run: PublishedRun): Promise<PartOutcome>;
}
