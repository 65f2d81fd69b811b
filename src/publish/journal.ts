/**
 * output/publish-journal.json: the manifest entries a run is about to publish, written
 * before each channel's rename (issue 15, item 2). generate renames every channel's file
 * into place and writes manifest.json last; a kill in between left new files that the old
 * manifest did not describe, and a restarted serve refused them. With the journal:
 * - serve, for a channel whose file does not match manifest.json, serves it when it matches
 *   the journal's entry (live-feeds.ts);
 * - the next generate rolls the journal forward before anything else: each entry whose file
 *   on disk matches it (size and sha256) replaces the manifest's, then the journal goes.
 * A complete run removes the journal after manifest.json is written.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { crashPoint } from "../core/crash-point.js";
import { ChannelEntry, type LiveFile, type Manifest, readPreviousManifest } from "./manifest.js";
import { replaceFile } from "../core/atomic-file.js";
import { JOURNAL_FILE, MANIFEST_FILE } from "../core/layout.js";


export const PublishJournal = z.object({
  version: z.literal(1),
  startedAt: z.string(),
  /** Entries as the run's manifest will list them, each written before its channel's rename. */
  channels: z.array(ChannelEntry),
});
export type PublishJournal = z.infer<typeof PublishJournal>;

export async function readJournal(outputDir: string): Promise<PublishJournal | undefined> {
  try {
    return PublishJournal.safeParse(JSON.parse(await readFile(join(outputDir, JOURNAL_FILE), "utf8"))).data;
  } catch {
    return undefined;
  }
}

/** The journal of one run, rewritten (by rename) with every entry about to be published. */
export class JournalWriter {
  private readonly entries = new Map<string, ChannelEntry>();

  constructor(
    private readonly outputDir: string,
    private readonly startedAt: string,
  ) {}

  async record(entry: ChannelEntry): Promise<void> {
    this.entries.set(entry.name, entry);
    const journal: PublishJournal = { version: 1, startedAt: this.startedAt, channels: [...this.entries.values()] };
    await replaceFile(join(this.outputDir, JOURNAL_FILE), `${JSON.stringify(journal, null, 2)}\n`);
    crashPoint("journal");
  }

  /** After manifest.json describes every rename. */
  async remove(): Promise<void> {
    await rm(join(this.outputDir, JOURNAL_FILE), { force: true });
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The file on disk is the one `live` describes (size, then sha256). */
export async function matchesLive(outputDir: string, live: LiveFile): Promise<boolean> {
  try {
    const file = join(outputDir, live.file);
    return (await stat(file)).size === live.bytes && (await sha256Of(file)) === live.sha256;
  } catch {
    return false;
  }
}

/**
 * A journal left by a run that died between its renames and manifest.json: the entries whose
 * files were renamed into place go into manifest.json, then the journal is removed. Called
 * by generate under its lock. Returns the channels rolled forward.
 */
export async function rollForward(outputDir: string, now = new Date()): Promise<string[]> {
  const journal = await readJournal(outputDir);
  if (!journal) {
    await rm(join(outputDir, JOURNAL_FILE), { force: true });
    return [];
  }
  const previous = (await readPreviousManifest(outputDir))?.manifest;
  const adopted: ChannelEntry[] = [];
  for (const entry of journal.channels) if (entry.live && (await matchesLive(outputDir, entry.live))) adopted.push(entry);
  if (adopted.length > 0) {
    const names = new Set(adopted.map((e) => e.name));
    const base: Manifest = previous ?? {
      version: 1,
      startedAt: journal.startedAt,
      endedAt: now.toISOString(),
      status: "degraded", // a run killed while publishing: some channels are live, the rest unknown
      source: { total: null, received: 0, rejected: 0, rejectedByCode: {}, retries: 0, resumes: 0 },
      channels: [],
    };
    const manifest: Manifest = { ...base, channels: [...base.channels.filter((c) => !names.has(c.name)), ...adopted] };
    await replaceFile(join(outputDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  }
  await rm(join(outputDir, JOURNAL_FILE), { force: true });
  return adopted.map((e) => e.name);
}
