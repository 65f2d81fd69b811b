/**
 * `pharmafeed diff` for a list of channels: each channel's two versions resolved from the kept
 * manifests (versions.ts), their item sheets compared (diff.ts). A channel that cannot be compared
 * says why, and the others are still compared.
 */
import { readHistory } from "../publish/manifest.js";
import { diffSheets, type FeedDiff, SheetDiffError } from "./diff.js";
import { diffReport } from "./diff-words.js";
import { readSheetLines } from "./sheet.js";
import { type PublishedVersion, resolveVersion, versionsOf } from "./versions.js";

const side = (v: PublishedVersion) => ({ sha256: v.sha256, publishedAt: v.publishedAt, runs: v.runs, items: v.items });

export type ChannelDiff =
  | { channel: string; ok: true; from: ReturnType<typeof side>; to: ReturnType<typeof side>; diff: FeedDiff }
  | { channel: string; ok: false; why: string };

/** Version `fromRef` against version `toRef` of each channel. */
export async function diffChannels(outputDir: string, channels: readonly string[], fromRef: string, toRef: string): Promise<{ channels: ChannelDiff[]; text: (limit: number) => string }> {
  const manifests = await readHistory(outputDir);
  const results: ChannelDiff[] = [];
  for (const channel of channels) results.push(await diffChannel(outputDir, channel, versionsOf(manifests, channel), fromRef, toRef));
  const text = (limit: number) =>
    results
      .map((r) => (r.ok ? diffReport(r.channel, `${r.from.publishedAt} (${r.from.sha256.slice(0, 12)})`, `${r.to.publishedAt} (${r.to.sha256.slice(0, 12)})`, r.diff, limit) : `${r.channel}: not compared: ${r.why}`))
      .join("\n\n");
  return { channels: results, text };
}

async function diffChannel(outputDir: string, channel: string, versions: PublishedVersion[], fromRef: string, toRef: string): Promise<ChannelDiff> {
  const from = resolveVersion(versions, fromRef);
  if (!from.ok) return { channel, ok: false, why: `${fromRef}: ${from.why}` };
  const to = resolveVersion(versions, toRef);
  if (!to.ok) return { channel, ok: false, why: `${toRef}: ${to.why}` };
  try {
    const diff = await diffSheets(
      (onLine) => readSheetLines(outputDir, from.version.sha256, onLine),
      (onLine) => readSheetLines(outputDir, to.version.sha256, onLine),
    );
    return { channel, ok: true, from: side(from.version), to: side(to.version), diff };
  } catch (error) {
    if (error instanceof SheetDiffError) return { channel, ok: false, why: error.message };
    throw error;
  }
}
