/**
 * Whether the explain index describes the files served now. The index names, per channel, the
 * file it was written for: its sha256 (the digest the manifest carries too) and its identity on
 * disk once published (publish/file-identity.ts). A kill between manifest.json and the index's
 * commit, a later run whose index could not be written, a file restored or edited by hand: the
 * file served is then another one, and a row read at the index's offsets would be part of another
 * product's. Such a channel is stale: no row is read from it, and explain says why.
 */
import { join } from "node:path";
import { fileIdentity, sameIdentity } from "../publish/file-identity.js";
import { type Manifest, readManifest } from "../publish/manifest.js";
import type { ExplainIndex, IndexChannel } from "./store.js";

export type ChannelFreshness = { current: true } | { current: false; why: string };

export interface IndexFreshness {
  /** Per channel of the index, by name. */
  channels: Map<string, ChannelFreshness>;
  /** Channels whose served file is not the one the index was written for (empty: the index is current). */
  stale: string[];
  /** When the feeds served now were published by the newest run, if the manifest says. */
  servedRunAt?: string;
}

async function channelFreshness(outputDir: string, channel: IndexChannel, manifest: Manifest | undefined, startedAt: string): Promise<ChannelFreshness> {
  if (channel.published !== true) return { current: false, why: `the run of ${startedAt} did not publish this file (${channel.published}); the feed served is an older one` };
  if (channel.sha256 === undefined) return { current: false, why: "the explain index was written by an older version of pharmafeed, which did not record the file it describes" };
  if (channel.identity === undefined) return { current: false, why: `${channel.file} could not be read when the explain index was written` };
  const served = manifest?.channels.find((c) => c.name === channel.name)?.live;
  if (manifest && served?.sha256 !== channel.sha256) {
    return {
      current: false,
      why: served
        ? `the explain index is older than the feed served now (the index is of the run of ${startedAt}; ${served.file} was published at ${served.publishedAt})`
        : `${channel.file} is not served now`,
    };
  }
  let now;
  try {
    now = await fileIdentity(join(outputDir, channel.file));
  } catch {
    return { current: false, why: `${channel.file} is missing from the output directory` };
  }
  if (!sameIdentity(now, channel.identity)) return { current: false, why: `${channel.file} was replaced or changed since the run of ${startedAt} wrote the explain index` };
  return { current: true };
}

/** Reads manifest.json once and checks every channel of the index against what is served. */
export async function indexFreshness(outputDir: string, index: ExplainIndex): Promise<IndexFreshness> {
  const manifest = await readManifest(outputDir);
  const channels = new Map<string, ChannelFreshness>();
  await Promise.all(index.meta.channels.map(async (c) => channels.set(c.name, await channelFreshness(outputDir, c, manifest, index.meta.startedAt))));
  const stale = index.meta.channels.filter((c) => c.published === true && channels.get(c.name)?.current !== true).map((c) => c.name);
  const servedRunAt = manifest?.startedAt;
  return { channels, stale, ...(servedRunAt !== undefined && servedRunAt !== index.meta.startedAt ? { servedRunAt } : {}) };
}
