/**
 * Writes each channel's item sheet (sheet.ts) while the run maps: it hears every product once
 * every channel has spoken of it (explain/run-hook.ts, the same place the state log hears it),
 * takes each item's facts out of its outcome's text, and appends one line per item to a plain
 * temporary beside the kept versions. Before the gate it is closed, so the price gate can compare
 * this run's file with the live one (diff.ts); once the feeds are published the feed history
 * (sink.ts) keeps the sheets of the versions it keeps.
 *
 * Whatever goes wrong here costs the sheets (no price gate, no diff for this version: said in
 * the log and the manifest's problems), never the run.
 */
import { createReadStream, type WriteStream } from "node:fs";
import { EXCLUSIVE_FLAGS } from "../core/atomic-file.js";
import { type FileHandle, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { once } from "node:events";
import { FEED_HISTORY_DIR } from "../core/layout.js";
import { ensureRealDir } from "../core/safe-path.js";
import type { IndexProduct } from "../explain/entry.js";
import { factsText } from "../mapping/item-facts.js";
import { eachLine, type SheetRead } from "./sheet.js";
import type { SheetSource } from "./diff.js";

/** The channels of the run, in the run's order (the outcomes' order). */
export interface RecordedChannel {
  name: string;
  locale: string;
}

/** Lines are written in blocks of about this many characters: one write per item would cost more than the line. */
const BLOCK = 64 * 1024;

/** A product's name in the channel's language: its locale, its language, or any. */
function nameIn(names: Record<string, string>, locale: string): string {
  return names[locale] ?? names[locale.split(/[-_]/)[0]!] ?? Object.values(names)[0] ?? "";
}

interface Recording {
  file: string;
  out: WriteStream;
  block: string;
  items: number;
  failed?: Error;
}

export class SheetRecorder {
  private readonly recordings: Recording[];
  private closed: Promise<void> | undefined;

  private constructor(
    private readonly channels: readonly RecordedChannel[],
    files: readonly { file: string; handle: FileHandle }[],
  ) {
    this.recordings = files.map(({ file, handle }) => {
      const recording: Recording = { file, out: handle.createWriteStream(), block: "", items: 0 };
      recording.out.on("error", (error) => (recording.failed ??= error));
      return recording;
    });
  }

  static async open(outputDir: string, channels: readonly RecordedChannel[]): Promise<SheetRecorder> {
    const dir = join(outputDir, FEED_HISTORY_DIR);
    await ensureRealDir(dir);
    // A temporary as every other (`.name.tmp-<pid>`): a killed run's is known for one, and pruned.
    const files = channels.map((_, i) => join(dir, `.sheet-${i}.items.tmp-${process.pid}`));
    // A killed run with this pid's number left these: removed, then created here and now, never
    // through a link planted at the name (core/atomic-file.ts).
    await Promise.all(files.map((file) => rm(file, { force: true })));
    const opened = await Promise.allSettled(files.map(async (file) => ({ file, handle: await open(file, EXCLUSIVE_FLAGS, 0o644) })));
    const failed = opened.find((o) => o.status === "rejected");
    if (failed) {
      await Promise.all(opened.map((o) => (o.status === "fulfilled" ? o.value.handle.close().then(() => rm(o.value.file, { force: true })) : undefined)));
      throw (failed as PromiseRejectedResult).reason;
    }
    return new SheetRecorder(channels, opened.map((o) => (o as PromiseFulfilledResult<{ file: string; handle: FileHandle }>).value));
  }

  /** Told of every product, in the run's order, with each channel's outcome text ("null": failed). */
  seen(product: IndexProduct, outcomes: readonly string[]): void {
    if (this.closed) return;
    // Once per product and language, not per channel: 22 channels speak two or three languages.
    const keys = `${JSON.stringify(product.id)},${JSON.stringify(product.codes)}`;
    const heads = new Map<string, string>();
    for (let i = 0; i < this.recordings.length; i++) {
      const facts = factsText(outcomes[i] ?? "null");
      if (facts === undefined) continue;
      const r = this.recordings[i]!;
      const locale = this.channels[i]!.locale;
      let head = heads.get(locale);
      if (head === undefined) heads.set(locale, (head = `[${keys},${JSON.stringify(nameIn(product.names, locale))},`));
      r.block += `${head}${facts.slice(1)}\n`;
      r.items++;
      if (r.block.length >= BLOCK) {
        r.out.write(r.block);
        r.block = "";
      }
    }
  }

  /** Every sheet written out and closed (once; later products are not recorded). */
  close(): Promise<void> {
    this.closed ??= Promise.all(
      this.recordings.map(async (r) => {
        if (r.block !== "") r.out.write(r.block);
        r.block = "";
        r.out.end();
        if (!r.out.closed && !r.failed) await once(r.out, "close").catch((error: Error) => (r.failed ??= error));
      }),
    ).then(() => undefined);
    return this.closed;
  }

  /**
   * Channel `index`'s sheet of this run, once closed: its items, as a diff reads them. Not ok when
   * it could not be written whole, or when it does not hold `items` lines (the channel's count: a
   * product that reached the file but not the sheet would make every comparison wrong).
   */
  source(index: number, items: number): SheetSource | undefined {
    const r = this.recordings[index];
    if (!r || r.failed || r.items !== items) return undefined;
    return async (onLine: (line: string) => void): Promise<SheetRead> => {
      let count = 0;
      const stream = createReadStream(r.file, { encoding: "utf8", highWaterMark: 1 << 18 });
      await eachLine(stream, (line) => {
        count++;
        onLine(line);
      });
      return { ok: true, items: count };
    };
  }

  /** Channel `index`'s temporary file and its item count, for the history to keep; undefined when it was not written whole. */
  written(index: number): { file: string; items: number } | undefined {
    const r = this.recordings[index];
    return r && !r.failed ? { file: r.file, items: r.items } : undefined;
  }

  get failure(): Error | undefined {
    return this.recordings.find((r) => r.failed)?.failed;
  }

  /** The temporaries removed. */
  async remove(): Promise<void> {
    await this.close().catch(() => undefined);
    await Promise.all(this.recordings.map((r) => rm(r.file, { force: true })));
  }
}
