import { describe, expect, it } from "vitest";
import { OrderedQueue } from "../../src/images/queue.js";

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("OrderedQueue", () => {
  it("writes rows in push order whatever order their values arrive in", async () => {
    const written: number[] = [];
    const queue = new OrderedQueue<number>(10, (n) => void written.push(n));
    const jobs = [0, 1, 2, 3].map(() => deferred<number>());
    jobs.forEach((job) => queue.push(job.promise));
    void queue.push(4);
    jobs[2]!.resolve(2);
    jobs[1]!.resolve(1);
    await tick();
    expect(written).toEqual([]);
    jobs[0]!.resolve(0);
    await tick();
    expect(written).toEqual([0, 1, 2]);
    jobs[3]!.resolve(3);
    await queue.drain();
    expect(written).toEqual([0, 1, 2, 3, 4]);
  });

  it("writes a ready row at once when nothing waits ahead of it", () => {
    const written: number[] = [];
    const queue = new OrderedQueue<number>(10, (n) => void written.push(n));
    expect(queue.push(1)).toBeUndefined();
    expect(written).toEqual([1]);
  });

  it("holds the producer when full, until the head is written", async () => {
    const queue = new OrderedQueue<number>(2, () => undefined);
    const head = deferred<number>();
    expect(queue.push(head.promise)).toBeUndefined();
    const full = queue.push(deferred<number>().promise);
    expect(full).toBeInstanceOf(Promise);
    let released = false;
    void full!.then(() => (released = true));
    await tick();
    expect(released).toBe(false);
    head.resolve(0);
    await tick();
    expect(released).toBe(true);
    expect(queue.length).toBe(1);
  });

  it("waits for a sink that is behind before writing the next row", async () => {
    const order: string[] = [];
    const disk = deferred<void>();
    const queue = new OrderedQueue<number>(10, (n) => {
      order.push(`write ${n}`);
      return n === 0 ? disk.promise.then(() => void order.push("flushed 0")) : undefined;
    });
    void queue.push(Promise.resolve(0));
    void queue.push(1);
    await tick();
    expect(order).toEqual(["write 0"]);
    disk.resolve();
    await queue.drain();
    expect(order).toEqual(["write 0", "flushed 0", "write 1"]);
  });

  it("drain() covers a row pushed just as the queue emptied", async () => {
    const written: number[] = [];
    const queue = new OrderedQueue<number>(10, (n) => void written.push(n));
    void queue.push(Promise.resolve(1));
    await Promise.resolve();
    void queue.push(Promise.resolve(2));
    await queue.drain();
    expect(written).toEqual([1, 2]);
  });
});
