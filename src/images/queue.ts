/**
 * The rows of one channel waiting for their images, in catalogue order. A row
 * is written when it and every row before it are ready, so the feed keeps the
 * catalogue's order while up to `capacity` image jobs run at once. When the
 * queue is full, push() returns a promise the stream awaits: backpressure, so
 * memory stays bounded however slow the image host is.
 *
 * Values never reject and the sink never throws: the caller turns failures
 * into values first, so one broken job cannot stall the rows behind it.
 */
export class OrderedQueue<T> {
  private readonly rows: (T | Promise<T>)[] = [];
  private pumping: Promise<void> | undefined;
  private roomWaiter: (() => void) | undefined;

  constructor(
    private readonly capacity: number,
    /** Writes one row; a promise when the disk is behind (awaited before the next row). */
    private readonly sink: (value: T) => Promise<void> | undefined,
  ) {}

  get length(): number {
    return this.rows.length;
  }

  /** Adds a row; returns a promise only when the queue is full (or the disk is behind). */
  push(value: T | Promise<T>): Promise<void> | undefined {
    // A ready row with nothing ahead of it is written at once: cache hits cost no queueing.
    if (this.rows.length === 0 && this.pumping === undefined && !(value instanceof Promise)) return this.sink(value);
    this.rows.push(value);
    this.pump();
    if (this.rows.length < this.capacity) return undefined;
    return new Promise<void>((resolve) => (this.roomWaiter = resolve));
  }

  /** Resolves once every row pushed so far was written. */
  async drain(): Promise<void> {
    while (this.pumping !== undefined) await this.pumping;
  }

  private pump(): void {
    if (this.pumping !== undefined) return;
    this.pumping = this.run().finally(() => {
      this.pumping = undefined;
      // A row pushed after the loop saw the queue empty, but before this ran, still needs a pump.
      if (this.rows.length > 0) this.pump();
      else this.wake();
    });
  }

  private async run(): Promise<void> {
    while (this.rows.length > 0) {
      const value = await this.rows[0]!;
      void this.rows.shift(); // settled: awaited just above
      const pending = this.sink(value);
      if (pending) await pending;
      if (this.rows.length < this.capacity) this.wake();
    }
  }

  private wake(): void {
    const waiter = this.roomWaiter;
    this.roomWaiter = undefined;
    waiter?.();
  }
}
