/**
 * The local publish: every channel's file checked (footer, sample read back, gate) and renamed into
 * place, each rename journaled first; the served channels the config no longer names held or
 * retired; then manifest.json (+ history), the one record of what marketplaces get now.
 */
import type { LoadedConfig } from "../config/types.js";
import { crashPoint } from "../core/crash-point.js";
import { withLastUploads } from "../destinations/after-publish.js";
import type { ImageStats } from "../images/pipeline.js";
import type { Logger } from "../log.js";
import { clearFailureRecord } from "../publish/failure-record.js";
import { type Held, heldFeeds } from "../publish/held-feeds.js";
import { removeRetiredReports } from "../publish/retired-reports.js";
import { fetchedChannels } from "../serve/fetched.js";
import { JournalWriter } from "../publish/journal.js";
import { type ChannelEntry, type Manifest, writeManifest } from "../publish/manifest.js";
import { writePreviewManifest } from "../publish/preview.js";
import { runStatusOf, unpublishedOf } from "../publish/run-state.js";
import type { ChannelRun, LiveComparison } from "./channel-run.js";
import type { FeedHistory } from "../history/sink.js";
import { changeCounts, diffSummary, money } from "../history/diff-words.js";
import type { SourceFigures } from "./run-products.js";

export interface PublishInput {
  config: LoadedConfig;
  logger: Logger;
  outputDir: string;
  /** A dry run's folder: the files stay there and its own manifest says what a real run would do. */
  previewDir: string | undefined;
  started: Date;
  force: boolean;
  retire: ReadonlySet<string>;
  previous: Manifest | undefined;
  runs: readonly ChannelRun[];
  figures: SourceFigures;
  offers: Manifest["offers"];
  images: ImageStats | undefined;
  /** Compares each channel's file with the live one before the gate (src/history/). */
  history?: FeedHistory | undefined;
}

/** Finishes every channel in the config's order; returns this run's entries. */
async function finishChannels(input: PublishInput, journal: JournalWriter | undefined): Promise<ChannelEntry[]> {
  const { logger, previous } = input;
  const publishedAt = new Date().toISOString();
  const previousEntries = new Map((previous?.channels ?? []).map((c) => [c.name, c]));
  const entries: ChannelEntry[] = [];
  // Every row written (image rows too) and every product heard: the item sheets are whole, then compared.
  await Promise.all(input.runs.map((run) => run.settleRows()));
  await input.history?.closeSheets();
  const comparing = { channels: 0, ms: 0 };
  for (const run of input.runs) {
    const name = run.channel.name;
    const live = previousEntries.get(name)?.live ?? null;
    const entry = await run.finish({
      ...(live && input.history ? { compare: (items: number) => timed(comparing, () => compareWithLive(input, run, live.sha256, items)) } : {}),
      live,
      force: input.force,
      dryRun: input.previewDir !== undefined,
      publishedAt,
      retire: input.retire.has(name),
      ...(journal ? { journal: (e: ChannelEntry) => journal.record(e) } : {}),
    });
    entries.push(withLastUploads(withLastChanges(entry, previousEntries.get(name)), previousEntries.get(name), run.channel.destinations));
    if (run.failed) logger.error("channel failed", { channel: name, error: run.failed.message });
    else if (entry.published !== true) logger.warn("channel not published", { channel: name, reason: entry.published });
  }
  // What comparing with the live feeds cost (the price gate, the status page's changes): a few percent of a run.
  if (comparing.channels > 0) logger.info("compared with the live feeds", { channels: comparing.channels, seconds: Number((comparing.ms / 1000).toFixed(2)) });
  return entries;
}

/**
 * A run that published the live file again compared it with itself (`+0 -0`): what changed "since
 * the previous version" is still what the last change changed, so the previous entry's figures
 * stay (none when it had none). A review found every card saying "no change" after a quiet night.
 */
function withLastChanges(entry: ChannelEntry, previous: ChannelEntry | undefined): ChannelEntry {
  if (entry.changes === undefined || entry.changes.since !== entry.sha256) return entry;
  const { changes: _itself, ...rest } = entry;
  return previous?.changes !== undefined && previous.changes.since !== entry.sha256 ? { ...rest, changes: previous.changes } : rest;
}

async function timed<T>(sum: { channels: number; ms: number }, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    sum.channels++;
    sum.ms += performance.now() - started;
  }
}

/** This run's file against the live one, for the gate; undefined (and why, in the log) when they cannot be compared. */
async function compareWithLive(input: PublishInput, run: ChannelRun, liveSha256: string, items: number): Promise<LiveComparison | undefined> {
  const gate = run.channel.gate;
  const compared = await input.history!.compare(input.outputDir, run.channel.name, items, liveSha256, gate.maxPriceChangePercent);
  if (!compared.ok) {
    input.logger.info("not compared with the live feed (no price gate)", { channel: run.channel.name, why: compared.why });
    return undefined;
  }
  const { diff } = compared;
  const largest = diff.prices.largestMove;
  return {
    prices: { compared: diff.to.items - diff.added.length, moved: diff.prices.movedBeyond, ...(largest ? { largest: { id: largest.id, from: money(largest.from, largest.currency), to: money(largest.to, largest.currency) } } : {}) },
    summary: diffSummary(diff),
    changes: { since: liveSha256, ...changeCounts(diff) },
  };
}

/** Served channels the config no longer names stay served until retired on purpose. */
async function served(input: PublishInput): Promise<Held> {
  const { previous, logger, retire } = input;
  // A held feed no marketplace ever fetched (serve's memory) is retired at once (held-feeds.ts).
  const fetched = input.previewDir ? undefined : await fetchedChannels(input.outputDir);
  const held = heldFeeds({ previous: previous?.channels ?? [], configured: input.config.channelNames, retire, force: input.force, fetched });
  for (const channel of held.retired) logger.warn("served channel retired: its file is no longer listed nor served", { channel });
  for (const r of held.unfetched) logger.warn("served channel retired: no marketplace ever fetched it", { channel: r.channel, file: r.file });
  for (const p of held.problems) logger.warn("served channel held", { channel: p.channel, reason: p.reason });
  for (const name of retire) {
    if (!previous?.channels.some((c) => c.name === name && c.live)) logger.warn("nothing to retire: no file of this channel is served", { channel: name });
  }
  return held;
}

/** Publishes locally and writes the manifest; returns it with this run's entries. */
export async function publishLocally(input: PublishInput): Promise<{ manifest: Manifest; entries: ChannelEntry[] }> {
  const journal = input.previewDir ? undefined : new JournalWriter(input.outputDir, input.started.toISOString());
  const entries = await finishChannels(input, journal);
  // Channels of the config not run this time (--channel) keep their entries: they are still served.
  const ran = new Set(entries.map((e) => e.name));
  const kept = (input.previous?.channels ?? []).filter((c) => !ran.has(c.name) && input.config.channelNames.includes(c.name));
  const held = await served(input);
  const problems = held.problems;
  const manifest: Manifest = {
    version: 1,
    startedAt: input.started.toISOString(),
    endedAt: new Date().toISOString(),
    status: runStatusOf(entries, problems),
    ...(problems.length > 0 ? { problems } : {}),
    unpublished: unpublishedOf(entries),
    ...input.figures,
    ...(input.offers ? { offers: input.offers } : {}),
    // Every row has drained by now, so the counts are final (only pruning comes after).
    ...(input.images ? { images: { ...input.images } } : {}),
    ...(held.unfetched.length > 0 ? { retired: held.unfetched } : {}),
    channels: [...entries, ...kept, ...held.held],
  };
  if (input.previewDir) {
    await writePreviewManifest(input.previewDir, manifest);
    return { manifest, entries };
  }
  await writeManifest(input.outputDir, manifest);
  await clearFailureRecord(input.outputDir);
  await removeRetiredReports(input.outputDir, [...held.retired, ...held.unfetched.map((r) => r.channel)], input.logger);
  crashPoint("manifest");
  await journal?.remove();
  return { manifest, entries };
}
