import { describe, expect, it } from "vitest";
import type { ReadEvent } from "../../src/catalogue/stream/events.js";
import { collect, expectedIds, wire, world } from "./helpers.js";

const ALL = { filter: {}, sorting: { id: "ASC" } } as const;

function ids(products: { id: string }[]): string[] {
  return products.map((product) => product.id);
}

describe("streamProducts", () => {
  it("delivers every product once, in id order, validated, with total", async () => {
    const w = await world();
    try {
      const events: ReadEvent[] = [];
      const stream = w.client.streamProducts({ ...ALL, onEvent: (event) => events.push(event) });
      expect(stream.total).toBeUndefined();
      const products = await collect(stream);
      expect(ids(products)).toEqual(expectedIds(w.catalogue));
      expect(stream.total).toBe(200);
      expect(events.filter((event) => event.type === "total")).toEqual([{ type: "total", total: 200 }]);
      expect(stream.stats).toMatchObject({ records: 200, rejected: 0, retries: 0, resumes: 0, requests: 1 });
      expect(products[7]).toEqual(wire(w.catalogue, 7));
    } finally {
      await w.close();
    }
  });

  it("exposes total as soon as the first record arrives", async () => {
    const w = await world();
    try {
      const stream = w.client.streamProducts(ALL);
      for await (const _ of stream) {
        expect(stream.total).toBe(200);
        break;
      }
    } finally {
      await w.close();
    }
  });

  it("applies the filter: the exact set of active products", async () => {
    const w = await world();
    try {
      const products = await collect(w.client.streamProducts({ filter: { status: "active" }, sorting: { id: "DESC" } }));
      expect(ids(products)).toEqual(expectedIds(w.catalogue, (i) => w.catalogue.status(i) === "active").reverse());
    } finally {
      await w.close();
    }
  });

  it("treats 204 as an empty result", async () => {
    const w = await world();
    try {
      const stream = w.client.streamProducts({ filter: { id: "MNOSUCHID0" }, sorting: { id: "ASC" } });
      expect(await collect(stream)).toEqual([]);
      expect(stream.total).toBe(0);
    } finally {
      await w.close();
    }
  });

  it("retries through a 429 storm and delivers the exact set", async () => {
    const w = await world({ faults: { tooManyFirst: 4 } });
    try {
      const stream = w.client.streamProducts(ALL);
      expect(ids(await collect(stream))).toEqual(expectedIds(w.catalogue));
      expect(stream.stats.retries).toBe(4);
      expect(w.sandbox.stats.requests).toBe(5);
    } finally {
      await w.close();
    }
  });

  it("retries through a 5xx burst and delivers the exact set", async () => {
    const w = await world({ faults: { failFirst: 3, failStatus: 502 } });
    try {
      const stream = w.client.streamProducts(ALL);
      expect(ids(await collect(stream))).toEqual(expectedIds(w.catalogue));
      expect(stream.stats.retries).toBe(3);
    } finally {
      await w.close();
    }
  });

  it("resumes after the connection drops several times: nothing lost, nothing twice", async () => {
    const w = await world({ faults: { dropAfterLines: 30, dropTimes: 4 } });
    try {
      const events: ReadEvent[] = [];
      const stream = w.client.streamProducts({ ...ALL, onEvent: (event) => events.push(event) });
      const got = ids(await collect(stream));
      expect(got).toEqual(expectedIds(w.catalogue));
      expect(new Set(got).size).toBe(got.length);
      expect(stream.stats.resumes).toBe(4);
      expect(stream.stats.requests).toBe(5);
      // The i-th cut happens after i*30 lines, so each resume starts where the last stopped.
      expect(events.filter((event) => event.type === "resume").map((event) => (event as { fromIndex: number }).fromIndex)).toEqual([30, 60, 90, 120]);
    } finally {
      await w.close();
    }
  });

  it("reports a corrupt line once, with its line and product id, and goes on", async () => {
    const w = await world({ faults: { corruptLine: 17, dropAfterLines: 25, dropTimes: 2 } });
    try {
      const stream = w.client.streamProducts(ALL);
      const got = ids(await collect(stream));
      const expected = expectedIds(w.catalogue);
      expect(got).toEqual(expected.filter((_, i) => i !== 17));
      expect(stream.stats.rejected).toBe(1);
      expect(stream.stats.resumes).toBe(2);
      expect(stream.stats.rejections[0]).toMatchObject({ code: "MALFORMED_LINE", line: 18, index: 17, id: expected[17] });
    } finally {
      await w.close();
    }
  });

  it("keeps multi-byte characters whole when the body comes one byte at a time", async () => {
    const catalogueSize = 400;
    const w = await world({ products: catalogueSize, faults: { chunkBytes: 1 } });
    try {
      const emoji: number[] = [];
      const accents: number[] = [];
      for (let i = 0; i < catalogueSize && (emoji.length < 2 || accents.length < 3); i++) {
        const name = JSON.stringify(w.catalogue.product(i).name);
        if (/\p{Extended_Pictographic}/u.test(name)) emoji.push(i);
        else if (/[À-ÿ]/.test(name)) accents.push(i);
      }
      expect(emoji.length).toBe(2);
      const picked = [...emoji, ...accents.slice(0, 3)].sort((a, b) => a - b);
      const products = await collect(w.client.streamProducts({ filter: { id: picked.map((i) => w.catalogue.id(i)) }, sorting: { id: "ASC" } }));
      expect(products).toEqual(picked.map((i) => wire(w.catalogue, i)));
    } finally {
      await w.close();
    }
  });

  it("resumes when a stalled body hits the body timeout", async () => {
    const w = await world({ faults: { stallAfterLines: 50, stallMs: 1500 } }, { timeouts: { bodyIdleMs: 200 } });
    try {
      const events: ReadEvent[] = [];
      const stream = w.client.streamProducts({ ...ALL, onEvent: (event) => events.push(event) });
      expect(ids(await collect(stream))).toEqual(expectedIds(w.catalogue));
      expect(stream.stats.resumes).toBe(1);
      const retry = events.find((event) => event.type === "retry");
      expect(retry && retry.type === "retry" && retry.retry.reason).toMatch(/UND_ERR_BODY_TIMEOUT/);
    } finally {
      await w.close();
    }
  });

  it("splits an id list over 1000 into several requests, merged in order without duplicates", async () => {
    const w = await world({ products: 1500 });
    try {
      const wanted = expectedIds(w.catalogue).filter((_, i) => i % 3 !== 1);
      const stream = w.client.streamProducts({ filter: { id: [...wanted].reverse() }, sorting: { id: "ASC" } });
      expect(ids(await collect(stream))).toEqual(wanted);
      expect(stream.stats.parts).toBe(1);
      const overlapping = w.client.streamProducts({
        filter: { or: [{ id: expectedIds(w.catalogue).slice(0, 1200) }, { status: "replaced" }] },
        sorting: { id: "ASC" },
      });
      const got = ids(await collect(overlapping));
      const expected = expectedIds(w.catalogue, (i) => i < 1200 || w.catalogue.status(i) === "replaced");
      expect(overlapping.stats.parts).toBe(2);
      expect([...got].sort()).toEqual([...expected].sort());
      expect(new Set(got).size).toBe(got.length);
      expect(overlapping.stats.duplicates).toBeGreaterThan(0);
    } finally {
      await w.close();
    }
  });

  it("stops on abort, rejecting with the signal's reason", async () => {
    const w = await world({ faults: { lineDelayMs: 5 } });
    try {
      const controller = new AbortController();
      let seen = 0;
      const reading = (async () => {
        for await (const _ of w.client.streamProducts({ ...ALL, signal: controller.signal })) if (++seen === 3) controller.abort(new Error("enough"));
      })();
      await expect(reading).rejects.toThrow("enough");
      expect(seen).toBeLessThan(200);
    } finally {
      await w.close();
    }
  });

  it("releases the connection when the consumer stops early", async () => {
    const w = await world({ products: 2000 });
    try {
      let seen = 0;
      for await (const _ of w.client.streamProducts(ALL)) if (++seen === 5) break;
      expect(seen).toBe(5);
      const again = await collect(w.client.streamProducts({ filter: { status: "inactive" }, sorting: { id: "ASC" } }));
      expect(ids(again)).toEqual(expectedIds(w.catalogue, (i) => w.catalogue.status(i) === "inactive"));
    } finally {
      await w.close();
    }
  });
});
