/**
 * An open file shared by every download of one published feed. The handle was
 * opened (and its bytes checked against the manifest) when the manifest was
 * read, so a rename by the next run does not change what it reads: every
 * download of this representation gets the same bytes its ETag names. Reads
 * are positioned (no shared offset). Closed once retired and no longer read.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { Readable } from "node:stream";

/** Large enough that a 100 MB download is ~400 reads, small enough for 50 at once. */
const READ_CHUNK = 256 * 1024;

export class SharedFile {
  private refs = 0;
  private retired = false;
  private closed: Promise<void> | undefined;

  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  /** A stream of bytes [start, end] (inclusive); the file stays open until it ends or is destroyed. */
  stream(start: number, end: number): Readable {
    this.refs++;
    // The numeric fd, not handle.createReadStream(): that one adds a "close" listener to the
    // handle per stream and never removes it (a leak over a day of downloads). start is always
    // given, so the stream reads at its own position (pread), never the shared file offset.
    const stream = createReadStream("", { fd: this.handle.fd, start, end, autoClose: false, emitClose: true, highWaterMark: READ_CHUNK });
    let released = false;
    stream.once("close", () => {
      if (released) return;
      released = true;
      this.release();
    });
    return stream;
  }

  /** sha256 of the whole file, hex. */
  async sha256(): Promise<string> {
    const hash = createHash("sha256");
    if (this.size > 0) for await (const chunk of this.stream(0, this.size - 1)) hash.update(chunk as Buffer);
    return hash.digest("hex");
  }

  /** No new reads after this; the handle closes when the last one ends. */
  retire(): Promise<void> {
    this.retired = true;
    return this.closeIfUnused();
  }

  private release(): void {
    this.refs--;
    void this.closeIfUnused();
  }

  private closeIfUnused(): Promise<void> {
    if (!this.retired || this.refs > 0) return this.closed ?? Promise.resolve();
    this.closed ??= this.handle.close().catch(() => {});
    return this.closed;
  }
}
