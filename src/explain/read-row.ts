/**
 * A row of a published feed, read back exactly as written: the index keeps its
 * byte offset and length in the file the run published. The file must still be
 * that run's (same size): a later run of other channels, or a hand edit, would
 * make the offsets point elsewhere, and then nothing is printed rather than a
 * wrong row.
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { IndexChannel } from "./store.js";

export type RowRead = { ok: true; text: string } | { ok: false; why: string };

export async function readRow(outputDir: string, channel: IndexChannel, offset: number, bytes: number): Promise<RowRead> {
  if (channel.published !== true) return { ok: false, why: `this run's file was not published (${channel.published}); the served feed is an older one` };
  let handle;
  try {
    handle = await open(join(outputDir, channel.file), "r");
  } catch {
    return { ok: false, why: `${channel.file} is missing from the output directory` };
  }
  try {
    const { size } = await handle.stat();
    if (size !== channel.bytes) return { ok: false, why: `${channel.file} changed since the run that wrote the index (${size} bytes, the run wrote ${channel.bytes})` };
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, offset);
    return { ok: true, text: buffer.toString("utf8", 0, bytesRead) };
  } finally {
    await handle.close();
  }
}
