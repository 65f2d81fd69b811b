/**
 * The last run's published files of one channel, read front to back while a refresh
 * goes through the products in the same order: a reused product's row and report
 * lines are taken, a product mapped again has its old bytes skipped. Rows follow the
 * header with a separator between two; report lines follow their header line.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { EntryOutcome, OutputFile } from "./file.js";

/** Read window of a feed; report files get a quarter (most products have no report line). */
const CHUNK = 256 * 1024;

/** Above this, take() returns a copy: a large chunk may be queued by a write stream as it is (publish/atomic-output.ts). */
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

  skip(bytes: number): void {
    this.position += bytes;
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

export class OldOutputs {
  private readonly feed: SequentialFile;
  private readonly report: SequentialFile;
  private readonly warnings: SequentialFile;
  private rows = 0;

  constructor(
    files: { feed: OutputFile; report: OutputFile; warnings: OutputFile },
    path: (file: string) => string,
    private readonly separatorBytes: number,
  ) {
    this.feed = new SequentialFile(path(files.feed.file), files.feed.header);
    this.report = new SequentialFile(path(files.report.file), files.report.header, CHUNK / 4);
    this.warnings = new SequentialFile(path(files.warnings.file), files.warnings.header, CHUNK / 4);
  }

  /** An item's row (without the separator before it). */
  row(bytes: number): Buffer {
    if (this.rows++ > 0) this.feed.skip(this.separatorBytes);
    return this.feed.take(bytes);
  }

  warningLines(bytes: number): Buffer {
    return this.warnings.take(bytes);
  }

  reportLine(bytes: number): Buffer {
    return this.report.take(bytes);
  }

  /** Passes over a product mapped again. */
  skip(outcome: EntryOutcome): void {
    if (outcome === null) return;
    if ("r" in outcome) return this.report.skip(outcome.rb);
    if (this.rows++ > 0) this.feed.skip(this.separatorBytes);
    this.feed.skip(outcome.l);
    this.warnings.skip(outcome.wb ?? 0);
  }

  close(): void {
    for (const file of [this.feed, this.report, this.warnings]) file.close();
  }
}
