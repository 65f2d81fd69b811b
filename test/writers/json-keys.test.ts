/**
 * A JSON layout's column headers are the records' keys, written as plain keys whatever
 * their name: `__proto__`, `constructor` and the other prototype names included (issue 39:
 * `__proto__` used to vanish from every record). A key named twice is refused at load.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PharmafeedError } from "../../src/errors.js";
import { LayoutSpec, type LoadedLayout } from "../../src/writers/layout.js";
import { loadLayout } from "../../src/writers/load-layout.js";
import { createWriter } from "../../src/writers/registry.js";
import type { FeedMeta } from "../../src/writers/types.js";
import { feedItem } from "../fixtures/feed-items.js";
import { readJson, readNdjson } from "./read-back.js";

const META: FeedMeta = { channel: "t", title: "T", link: "https://shop.example/", description: "D", generatedAt: "2026-01-15T02:00:00.000Z", locale: "fr", country: "FR" };
const NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "prototype", "id"];

describe("JSON layout keys", () => {
  it.each(["json", "ndjson"] as const)("%s: prototype names are plain keys of every record", (format) => {
    const spec = LayoutSpec.parse({ format, columns: NAMES.map((header) => ({ header, value: `{{id}}-${header}` })) });
    const writer = createWriter({ spec, source: "t" } satisfies LoadedLayout, META);
    const text = writer.header() + writer.row(feedItem({ id: "A" })) + writer.separator + writer.row(feedItem({ id: "B" })) + writer.footer(2);
    const records = format === "json" ? readJson(text) : readNdjson(text);
    expect(records).toHaveLength(2);
    for (const [i, record] of records.entries()) {
      expect(Object.keys(record)).toEqual(NAMES);
      for (const name of NAMES) expect(Object.getOwnPropertyDescriptor(record, name)?.value).toBe(`${i === 0 ? "A" : "B"}-${name}`);
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    }
  });

  it("refuses a key named twice when the layout is loaded", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pharmafeed-json-keys-"));
    await writeFile(join(dir, "layout.json"), JSON.stringify({ format: "json", columns: [{ header: "id", value: "{{id}}" }, { header: "id", value: "{{title}}" }] }));
    const error = await loadLayout(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PharmafeedError);
    expect((error as PharmafeedError).code).toBe("CONFIG_INVALID");
    expect((error as Error).message).toMatch(/columns\[1\]\.header.*"id" is already a key of this JSON object/);
  });
});
