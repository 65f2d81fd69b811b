/**
 * The last run's published files of one channel, read front to back while a refresh
 * goes through the products in the same order. A copied product's lines are read at
 * the places reuse.ts reckoned for it (its row's offset is in the state log; its report
 * lines' places are the sums of the lines before them), so the products mapped again in
 * between need no bookkeeping here.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { OutputFile } from "./file.js";

/** Read window of a feed; report files get a quarter (most products have no report line). */
const CHUNK = 256 * 1024;

/** Above this, take() returns a copy: a large chunk may be queued by a write stream as it is (core/atomic-output.ts). */
const VIEW_MAX = 16 * 1024;

/** A file read in order through a window; what take() returns is valid until the next call. */
export class SequentialFile {
  private readonly fd: number;
  private buffer: Buffer;
  /** File positions of buffer[0] and of what is read next. */
  private start = 0;
  private end = 0;
  private position: number;

  constructor(path: string, from: number, window = CHUNK) {
    this.fd = openSync(path, "r");
    this.position = from;
    this.buffer = Buffer.allocUnsafeSlow(window);
  }

  take(bytes: number): Buffer {
    if (this.position < this.start || this.position + bytes > this.end) this.fill(bytes);
    const at = this.position - this.start;
    this.position += bytes;
    const view = this.buffer.subarray(at, at + bytes);
    return bytes > VIEW_MAX ? Buffer.from(view) : view;
  }

  /** Where the next take() starts; forward of the last one (a window is read again otherwise). */
  seek(position: number): void {
    this.position = position;
  }

  private fill(bytes: number): void {
    if (bytes > this.buffer.length) this.buffer = Buffer.allocUnsafeSlow(bytes);
    let read = 0;
    while (read < bytes) {
      const n = readSync(this.fd, this.buffer, read, this.buffer.length - read, this.position + read);
      if (n === 0) throw new Error(`the file ended before the bytes recorded for it (${this.position + bytes})`);
      read += n;
    }
    this.start = this.position;
    this.end = this.position + read;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Where one product's lines are in a channel's last files: its row's byte offset, its report lines' and its warnings lines'. */
export interface OldPlaces {
  row: number;
  report: number;
  warnings: number;
}

/** A channel's last feed, exclusion report and warnings report, read at a copied product's places (ChannelRun.addCopied's `lines`). */
export class OldOutputs {
  private readonly feed: SequentialFile;
  private readonly report: SequentialFile;
  private readonly warnings: SequentialFile;

  constructor(files: { feed: OutputFile; report: OutputFile; warnings: OutputFile }, path: (file: string) => string) {
    this.feed = new SequentialFile(path(files.feed.file), files.feed.header);
    this.report = new SequentialFile(path(files.report.file), files.report.header, CHUNK / 4);
    this.warnings = new SequentialFile(path(files.warnings.file), files.warnings.header, CHUNK / 4);
  }

  /** The next reads are a product's at `places`. */
  at(places: OldPlaces): this {
    this.feed.seek(places.row);
    this.report.seek(places.report);
    this.warnings.seek(places.warnings);
    return this;
  }

  /** An item's row (without the separator before it). */
  row(bytes: number): Buffer {
    return this.feed.take(bytes);
  }

  warningLines(bytes: number): Buffer {
    return this.warnings.take(bytes);
  }

  reportLine(bytes: number): Buffer {
    return this.report.take(bytes);
  }

  close(): void {
    for (const file of [this.feed, this.report, this.warnings]) file.close();
  }
}
