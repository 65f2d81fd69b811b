/**
 * An open file shared by every download of one published feed. The handle was
 * opened (and its bytes checked against the manifest) when the manifest was
 * read, so a rename by the next run does not change what it reads: every
 * download of this representation gets the bytes its ETag names. Each download
 * reads at its own position (pread); the handle is closed once it is retired
 * and no download reads it any more.
 *
 * Not fs.createReadStream({ fd }): destroying such a stream (a client that
 * leaves) closes the fd even with autoClose false, under every other download
 * of the file, and the number is soon reused by another open. Nor
 * FileHandle.createReadStream: it adds a listener to the handle per stream
 * and never removes it.
 */
import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";

/** Large enough that a 100 MB download is ~400 reads, small enough for 50 at once (bench/serve.ts). */
const READ_CHUNK = 256 * 1024;

/** Bytes [position, end] of a shared handle. */
class RangeStream extends Readable {
  constructor(
    private readonly handle: FileHandle,
    private position: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: READ_CHUNK });
  }

  override _read(): void {
    const length = Math.min(READ_CHUNK, this.end - this.position + 1);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafe(length);
    this.handle.read(buffer, 0, length, this.position).then(
      ({ bytesRead }) => {
        // Shorter than the manifest said (truncated in place): cut the response rather than send a lie.
        if (bytesRead === 0) return this.destroy(new Error("file ended before its published size"));
        this.position += bytesRead;
        this.push(bytesRead === length ? buffer : buffer.subarray(0, bytesRead));
      },
      (error: Error) => this.destroy(error),
    );
  }
}

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
    const stream = new RangeStream(this.handle, start, end);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.release();
    };
    stream.once("close", release);
    return stream;
  }

  /** sha256 of the whole file, hex. */
  async sha256(): Promise<string> {
    const hash = createHash("sha256");
    if (this.size > 0) for await (const chunk of this.stream(0, this.size - 1)) hash.update(chunk as Buffer);
    return hash.digest("hex");
  }

  /** No new reads after this; the handle closes when the last one ends (a read in flight completes first). */
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
