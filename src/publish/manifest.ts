/**
 * output/manifest.json: what every channel's last run produced and which file
 * is live. `serve` reads it (and only serves what it lists); the status page
 * reads the history kept beside it (output/history/, the last 30 runs), whose
 * newest copy stands in for a lost manifest.json (readPreviousManifest).
 */
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { replaceFile } from "../core/atomic-file.js";
import { ensureRealDir } from "../core/safe-path.js";
import { DestinationRecord } from "./destination-record.js";
import { HISTORY_DIR, MANIFEST_FILE } from "../core/layout.js";

export const HISTORY_KEEP = 30;

const Counts = z.record(z.string(), z.number().int().min(0));

/** The file a marketplace fetches now: the last one that passed the gate. */
export const LiveFile = z.object({
  file: z.string(),
  items: z.number().int().min(0),
  bytes: z.number().int().min(0),
  sha256: z.string(),
  publishedAt: z.string(),
  gzip: z.object({ file: z.string(), bytes: z.number().int().min(0) }).optional(),
  /**
   * Put back by `pharmafeed rollback` (src/history/rollback.ts) and pinned: runs build the channel's
   * file but do not publish it until `rollback --release`. `at`: when; `command`: what was run;
   * `publishedAt` of the version put back is the run that first published it.
   */
  pinned: z.object({ at: z.string(), command: z.string(), versionOf: z.string() }).optional(),
});
export type LiveFile = z.infer<typeof LiveFile>;

export const ChannelEntry = z.object({
  name: z.string(),
  preset: z.string(),
  locale: z.string(),
  format: z.string(),
  contentType: z.string(),
  /** This run's output, relative to the output directory. */
  file: z.string(),
  items: z.number().int().min(0),
  /** Products left out, counted once each under their first reason. */
  excluded: Counts,
  warnings: Counts,
  /** How many items used a fallback locale, per field. */
  fallbacks: Counts,
  /**
   * Products a health policy row left out (POLICY_DENIED, in any place of their reasons), by the
   * row's key ("google FR pharmacy-medicine"; docs/policy.md). Absent when none was.
   */
  policy: Counts.optional(),
  bytes: z.number().int().min(0),
  sha256: z.string(),
  /** true, or why this run's file was not published (gate, failure, dry run). */
  published: z.union([z.literal(true), z.string()]),
  /** Excluded products with reasons: reports/<channel>.csv */
  report: z.string().optional(),
  live: LiveFile.nullable(),
  /**
   * This run's file against the version live before it (src/history/diff.ts): items added and
   * removed, items whose price, availability, title, link or main photo changed. `since`: that
   * version's sha256. Absent when they could not be compared (no live feed, no item sheet).
   */
  changes: z
    .object({
      since: z.string(),
      added: z.number().int().min(0),
      removed: z.number().int().min(0),
      prices: z.number().int().min(0),
      availability: z.number().int().min(0),
      titles: z.number().int().min(0),
      links: z.number().int().min(0),
      images: z.number().int().min(0),
    })
    .optional(),
  /** Column formats: columns blank in every row of this run (a template naming an optional field no product has). */
  emptyColumns: z.array(z.string()).optional(),
  /** The last push of the live file to each destination (src/destinations/record.ts). */
  destinations: z.array(DestinationRecord).optional(),
});
export type ChannelEntry = z.infer<typeof ChannelEntry>;

/**
 * The run's outcome, the one truth every surface repeats (see run-state.ts):
 * ok only when every channel run was published; degraded when some were not
 * (`unpublished` says which and why); failed when none was, or the run itself
 * failed (`error`). Runs before 0.2 wrote "partial": read as degraded.
 */
export const RunStatus = z.preprocess((value) => (value === "partial" ? "degraded" : value), z.enum(["ok", "degraded", "failed"]));
export type RunStatus = z.infer<typeof RunStatus>;

/** A channel this run did not publish, and why (the entry's `published` text). */
export const Unpublished = z.object({ channel: z.string(), kind: z.enum(["gate", "failed", "other"]), reason: z.string() });
export type Unpublished = z.infer<typeof Unpublished>;

/**
 * Something a run could not do that is not a channel left unpublished: kept state not written or not
 * usable, a served feed the config no longer names, a destination that failed, ... The feeds may all
 * be published, yet the run is degraded (run-state.ts) and every surface says why. `kind` groups them
 * (each part of the run that can report one adds its kind here); `code` is stable, `reason` is words.
 */
export const Problem = z.object({
  kind: z.enum(["state", "served", "destination", "merchant"]),
  code: z.string(),
  channel: z.string().optional(),
  reason: z.string(),
  /** A served feed the config no longer names: the configured channel whose name is close (a rename or a typo's fix). */
  near: z.string().optional(),
});
export type Problem = z.infer<typeof Problem>;

export const Manifest = z.object({
  version: z.literal(1),
  startedAt: z.string(),
  endedAt: z.string(),
  status: RunStatus,
  /** Channels of this run that were not published (empty or absent when status is ok). */
  unpublished: z.array(Unpublished).optional(),
  /** What the run could not do beyond its channels (see Problem); any of them makes an ok run degraded. */
  problems: z.array(Problem).optional(),
  /** Why the whole run failed (source, interruption...), with the error code of the CLI. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  source: z.object({
    total: z.number().int().min(0).nullable(),
    received: z.number().int().min(0),
    rejected: z.number().int().min(0),
    rejectedByCode: Counts,
    retries: z.number().int().min(0),
    resumes: z.number().int().min(0),
    /** A run from the snapshot (a refresh, a delta): total and rejections are those of the catalogue read at this time, which the snapshot holds. */
    readAt: z.string().optional(),
  }),
  /** Where the products came from (generate --source): full, delta or snapshot, and how old the sync the feeds reflect is. */
  sync: z
    .object({
      requested: z.enum(["full", "delta", "snapshot"]),
      used: z.enum(["full", "delta", "snapshot"]),
      fallback: z.string().optional(),
      syncedAt: z.string(),
      ageSeconds: z.number().int().min(0),
      delta: Counts.optional(),
      /** Products whose lines were copied from the last run's files (src/rowcache/) or mapped; `reason`: why none were copied. */
      reuse: z.object({ reused: z.number().int().min(0), mapped: z.number().int().min(0), reason: z.string().optional() }).optional(),
    })
    .optional(),
  /** What the image pipeline did (requested, cacheHits, downloads, conversions, failed, ...), when a channel processes images. */
  images: Counts.optional(),
  /** The offers file of the run; refused rows are listed in reports/_offers.csv. */
  /** accepted: offers in the index; refused: problems (a row may have several); rows, rowsAccepted: the file's data rows (absent in older manifests). */
  offers: z
    .object({ file: z.string(), accepted: z.number().int().min(0), refused: z.number().int().min(0), rows: z.number().int().min(0).optional(), rowsAccepted: z.number().int().min(0).optional() })
    .optional(),
  /** A failed run's offers file that was refused (then `offers` is still the one the live feeds were built with): its figures and why. */
  offersRefused: z
    .object({
      file: z.string(),
      rows: z.number().int().min(0),
      accepted: z.number().int().min(0),
      refused: z.number().int().min(0),
      rowsAccepted: z.number().int().min(0).optional(),
      reasons: z.array(z.string()),
    })
    .optional(),
  /** Served feeds this run stopped serving because the config no longer names them and no marketplace ever fetched them (held-feeds.ts). */
  retired: z.array(z.object({ channel: z.string(), file: z.string(), reason: z.string() })).optional(),
  channels: z.array(ChannelEntry),
});
export type Manifest = z.infer<typeof Manifest>;

/** One manifest file, or undefined when it is missing, not JSON or not a manifest of this version. */
async function readManifestFile(file: string): Promise<Manifest | undefined> {
  try {
    return Manifest.safeParse(JSON.parse(await readFile(file, "utf8"))).data;
  } catch {
    return undefined;
  }
}

/** The history copies' names, oldest first (their names sort by start time). */
async function historyFiles(outputDir: string): Promise<string[]> {
  try {
    return (await readdir(join(outputDir, HISTORY_DIR))).filter((f) => /^manifest-.*\.json$/.test(f)).sort();
  } catch {
    return [];
  }
}

/** manifest.json alone, or undefined when there is none or it cannot be read; generate and serve go through readPreviousManifest. */
export async function readManifest(outputDir: string): Promise<Manifest | undefined> {
  return readManifestFile(join(outputDir, MANIFEST_FILE));
}

/**
 * What the last run left, for the publish gate and the entries of channels not
 * run: manifest.json, or when it is missing or unreadable (deleted or edited by
 * hand: it is only ever replaced by rename, so never half-written) the newest
 * readable copy in history/, so that a lost manifest does not switch the drop
 * gate off. `from` names the file used.
 */
export async function readPreviousManifest(outputDir: string): Promise<{ manifest: Manifest; from: string } | undefined> {
  const current = await readManifest(outputDir);
  if (current) return { manifest: current, from: MANIFEST_FILE };
  for (const file of (await historyFiles(outputDir)).reverse()) {
    const copy = await readManifestFile(join(outputDir, HISTORY_DIR, file));
    if (copy) return { manifest: copy, from: `${HISTORY_DIR}/${file}` };
  }
  return undefined;
}

/** Writes manifest.json and a dated copy in history/, keeping the last HISTORY_KEEP. */
export async function writeManifest(outputDir: string, manifest: Manifest): Promise<void> {
  await recordInHistory(outputDir, manifest);
  await replaceFile(join(outputDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Writes only the dated copy in history/ (named by its startedAt), keeping the last HISTORY_KEEP:
 * `rollback` records its publish there under its own time, leaving the last run's copy as it was.
 */
export async function recordInHistory(outputDir: string, manifest: Manifest): Promise<void> {
  const history = join(outputDir, HISTORY_DIR);
  await ensureRealDir(history);
  await replaceFile(join(history, `manifest-${manifest.startedAt.replace(/[:.]/g, "-")}.json`), `${JSON.stringify(manifest, null, 2)}\n`);
  const runs = await historyFiles(outputDir);
  await Promise.all(runs.slice(0, Math.max(0, runs.length - HISTORY_KEEP)).map((f) => rm(join(history, f), { force: true })));
}

/** The manifests of past runs, oldest first (for the status page's chart); unreadable copies are left out. */
export async function readHistory(outputDir: string): Promise<Manifest[]> {
  const manifests = await Promise.all((await historyFiles(outputDir)).map((f) => readManifestFile(join(outputDir, HISTORY_DIR, f))));
  return manifests.filter((m): m is Manifest => m !== undefined);
}
