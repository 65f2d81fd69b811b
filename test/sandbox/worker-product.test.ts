/**
 * The stream's byte writer of products (generate/worker-product.ts) mirrors
 * the string generator (generate/product.ts): the same bytes for every
 * product, whatever the seed and the asset base URL. A change to one without
 * the other fails here. Also the ByteWriter itself.
 */
import { describe, expect, it } from "vitest";
import { createCatalogue } from "../../src/sandbox/index.js";
import { recordJson, recordWriter, writeLines } from "../../src/sandbox/generate/worker-lines.js";
import { ByteWriter, encode } from "../../src/sandbox/generate/worker-writer.js";

describe("products written as bytes", () => {
  const cases: [number, string, number][] = [
    [1, "http://127.0.0.1:8040", 6000],
    [2, "http://[::1]:65535", 3000],
    [42, "http://localhost:1/base", 3000],
  ];
  for (const [seed, assetBaseUrl, products] of cases) {
    it(`seed ${seed}, ${assetBaseUrl}: byte for byte productJson(i), for each of ${products} products`, () => {
      const catalogue = createCatalogue({ seed, products, assetBaseUrl });
      const write = recordWriter(catalogue, "products");
      const w = new ByteWriter(Buffer.alloc(64 * 1024));
      const differing: number[] = [];
      for (let i = 0; i < products; i++) {
        w.pos = 0;
        write(w, i);
        if (w.bytes().toString("latin1") !== catalogue.productJson(i)) differing.push(i);
      }
      expect(differing).toEqual([]);
    });
  }

  it("stream lines: the byte path and the string path give the same block", () => {
    const catalogue = createCatalogue({ seed: 5, products: 200, assetBaseUrl: "http://127.0.0.1:9" });
    const items = [3, 199, 0, 57, 57];
    const json = recordJson(catalogue, "products");
    const viaStrings = writeLines((w, i) => w.s(json(i)), 200, 10, items, Buffer.alloc(16));
    const viaBytes = writeLines(recordWriter(catalogue, "products"), 200, 10, items, Buffer.alloc(16));
    expect(viaBytes.equals(viaStrings)).toBe(true);
    const lines = viaBytes.toString("latin1").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((l) => (JSON.parse(l) as { meta: { total: number; index: number } }).meta)).toEqual([10, 11, 12, 13, 14].map((index) => ({ total: 200, index })));
  });
});

describe("ByteWriter", () => {
  it("prints numbers as JavaScript does", () => {
    const values = [0, 7, 9, 10, 99, 100, 12345, 999999999, 1000000000, 2147483647, 2147483648, 1767225600, 0.75, 0.021, 5.5, -18, -0, 2 ** 40, 1e21];
    const w = new ByteWriter(Buffer.alloc(4));
    for (const v of values) {
      w.n(v);
      w.c(44);
    }
    expect(w.bytes().toString("latin1")).toBe(values.map((v) => `${v},`).join(""));
  });

  it("writes short and long text, prepared bytes and repeats, growing past its first buffer", () => {
    const target = Buffer.alloc(8);
    const w = new ByteWriter(target);
    const long = "x".repeat(100) + "é";
    w.s("ab");
    w.s(long);
    w.b(encode('{"k":'));
    w.b(encode("a longer prepared piece"));
    w.again(0, 2);
    expect(w.bytes().toString("latin1")).toBe(`ab${long}{"k":a longer prepared pieceab`);
    expect(w.buf).not.toBe(target);
    expect(target.toString("latin1", 0, 2)).toBe("ab");
  });
});
