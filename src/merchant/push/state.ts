/**
 * output/state/merchant-push.json: per channel, the supplemental data source and per
 * product what Google has (the last full run's value, the input pushed and when).
 * Checked when read (zod); an unreadable file starts afresh (nothing pushed until a
 * baseline is set again), never a failed run. Replaced by rename.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { replaceFile } from "../../core/atomic-file.js";
import { PUSH_STATE_FILE, STATE_DIR } from "../../core/layout.js";

const Values = z.object({ price: z.string(), salePrice: z.string(), availability: z.string() });
const OfferState = z.object({
  baseline: Values.optional(),
  input: z.object({ values: Values, day: z.string(), today: z.number().int().min(0), at: z.string() }).optional(),
});
const ChannelState = z.object({ dataSource: z.string().optional(), offers: z.record(z.string(), OfferState) });
export const PushState = z.object({ version: z.literal(1), channels: z.record(z.string(), ChannelState) });
export type PushState = z.infer<typeof PushState>;
export type ChannelPushState = z.infer<typeof ChannelState>;


export function pushStateFile(outputDir: string): string {
  return join(outputDir, STATE_DIR, PUSH_STATE_FILE);
}

/** The state, or an empty one (with why, when a file was there but unreadable). */
export async function readPushState(outputDir: string): Promise<{ state: PushState; unreadable?: string }> {
  let text: string;
  try {
    text = await readFile(pushStateFile(outputDir), "utf8");
  } catch {
    return { state: { version: 1, channels: {} } };
  }
  try {
    return { state: PushState.parse(JSON.parse(text)) };
  } catch (error) {
    return { state: { version: 1, channels: {} }, unreadable: (error as Error).message.slice(0, 200) };
  }
}

export async function writePushState(outputDir: string, state: PushState): Promise<void> {
  await replaceFile(pushStateFile(outputDir), JSON.stringify(state));
}
