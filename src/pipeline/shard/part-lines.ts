/**
 * A worker's share of a batch (ChannelPart) read product by product, as a refresh
 * reads the last run's files (rowcache/old-outputs.ts). A refresh interleaves the
 * products it maps again with those it copies, so such a batch is not written whole
 * (ChannelRun.addPart): each of its products goes through ChannelRun.addCopied, with
 * its outcome and these lines, in its place among the copies.
 */
import type { ChannelPart } from "../channel-run.js";

const NONE = new Uint8Array(0);

class Cursor {
  private at = 0;
  constructor(private readonly bytes: Uint8Array = NONE) {}

  skip(bytes: number): void {
    this.at += bytes;
  }

  take(bytes: number): Buffer {
    if (this.at + bytes > this.bytes.byteLength) throw new Error(`a worker's batch ended before the bytes its outcomes give (${this.at + bytes} > ${this.bytes.byteLength})`);
    const view = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.at, bytes);
    this.at += bytes;
    return view;
  }
}

export class PartLines {
  private readonly rowBytes: Cursor;
  private readonly reportBytes: Cursor;
  private readonly warningBytes: Cursor;
  private rows = 0;

  /** `separatorBytes`: what the worker put between two rows of the batch. */
  constructor(part: ChannelPart, private readonly separatorBytes: number) {
    this.rowBytes = new Cursor(part.rows);
    this.reportBytes = new Cursor(part.report);
    this.warningBytes = new Cursor(part.warnings);
  }

  /** The next item's row (without the separator before it). */
  row(bytes: number): Buffer {
    if (this.rows++ > 0) this.rowBytes.skip(this.separatorBytes);
    return this.rowBytes.take(bytes);
  }

  reportLine(bytes: number): Buffer {
    return this.reportBytes.take(bytes);
  }

  warningLines(bytes: number): Buffer {
    return this.warningBytes.take(bytes);
  }
}
