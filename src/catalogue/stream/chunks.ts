/**
 * Pulls a response body's chunks one at a time, as they arrive.
 *
 * Why not `for await (const chunk of body)`: a Readable's async iterator calls
 * `read()`, which joins every buffered chunk into a new Buffer; a consumer that
 * validates while data keeps arriving pays that copy on most chunks. Listening to
 * 'data' hands over the chunks as received, and pausing past two queued chunks
 * keeps the backpressure (undici then stops reading the socket).
 */
import type { Readable } from "node:stream";
import { Failure } from "../http/failure.js";

const MAX_QUEUED = 2;

export class ChunkReader {
  readonly #body: Readable;
  readonly #queue: Buffer[] = [];
  #ended = false;
  #error: unknown;
  #wake: (() => void) | undefined;

  constructor(body: Readable) {
    this.#body = body;
    body.on("data", (chunk: Buffer) => {
      this.#queue.push(chunk);
      if (this.#queue.length >= MAX_QUEUED) body.pause();
      this.#signal();
    });
    body.on("end", () => {
      this.#ended = true;
      this.#signal();
    });
    body.on("error", (error: unknown) => {
      this.#error ??= error;
      this.#signal();
    });
    body.on("close", () => {
      if (!this.#ended) this.#error ??= new Failure("network", "the response body closed before its end");
      this.#signal();
    });
  }

  /** The next chunk; undefined once the body ended; throws what broke the body. */
  async next(): Promise<Buffer | undefined> {
    for (;;) {
      const chunk = this.#queue.shift();
      if (chunk !== undefined) {
        if (this.#queue.length < MAX_QUEUED && this.#body.isPaused()) this.#body.resume();
        return chunk;
      }
      if (this.#error !== undefined) throw this.#error;
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
