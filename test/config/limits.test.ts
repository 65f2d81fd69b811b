/**
 * Settings beyond what the machine takes are refused by validate with their
 * path (issue 15 item 9): durations a timer cannot wait, templates reaching the
 * prototype, file names the file system refuses.
 */
import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import type { PharmafeedError } from "../../src/errors.js";
import { createTemplateEngine } from "../../src/writers/template.js";
import { refusal as refuse, VALID_MAIN, VALID_TREE, type Tree } from "./tree.js";

const roots: string[] = [];
afterAll(() => Promise.all(roots.map((r) => rm(r, { recursive: true, force: true }))));

const refusal = (tree: Tree): Promise<PharmafeedError> => refuse(tree, roots);

function withChannel(channel: Record<string, unknown>, files: Tree = {}): Tree {
  return {
    ...VALID_TREE,
    "config/pharmafeed.json": { ...VALID_MAIN, channels: [...VALID_MAIN.channels, "channels/custom.json"] },
    "config/channels/custom.json": { name: "custom", preset: "generic-csv", ...channel },
    ...files,
  };
}

describe("settings beyond range", () => {
  it("refuses durations over 2^31 - 1 ms (setTimeout would fire after 1 ms), with their path", async () => {
    const error = await refusal({
      ...VALID_TREE,
      "config/pharmafeed.json": {
        ...VALID_MAIN,
        source: { ...VALID_MAIN.source, timeouts: { connectMs: 3_000_000_000 }, retry: { maxMs: 2 ** 31 }, rateWindowMs: 2 ** 40 },
        serve: { stateSaveMs: 2 ** 31 },
      },
    });
    for (const path of ["source.timeouts.connectMs", "source.retry.maxMs", "source.rateWindowMs", "serve.stateSaveMs"]) {
      expect(error.message).toMatch(new RegExp(`pharmafeed\\.json: ${path.replaceAll(".", "\\.")}: expected at most 2147483647 ms`));
    }
    expect(error.message).toMatch(/^configuration refused \(4 problems\)/);
  });

  it("refuses templates that reach the prototype, in layouts and in mapping templates, with their path", async () => {
    const error = await refusal(
      withChannel(
        { template: "../my-layout", title: { template: "{{constructor}}" }, link: { template: "https://x.example/{{name.__proto__}}" } },
        {
          "config/my-layout/layout.json": {
            format: "csv",
            columns: [
              { header: "a", value: '{{__lookupGetter__ "__proto__"}}' },
              { header: "b", value: "{{title.constructor.name}}" },
            ],
          },
        },
      ),
    );
    expect(error.message).toMatch(/layout\.json: columns\[0\]\.value \("a"\): "__lookupGetter__" reaches the prototype/);
    expect(error.message).toMatch(/layout\.json: columns\[1\]\.value \("b"\): "title\.constructor\.name" reaches the prototype/);
    expect(error.message).toMatch(/custom\.json: title\.template: "constructor" reaches the prototype/);
    expect(error.message).toMatch(/custom\.json: link\.template: "name\.__proto__" reaches the prototype/);
  });

  it("never treats Object.prototype's functions as template helpers", () => {
    const engine = createTemplateEngine((v) => v);
    expect(() => engine.compile('{{__lookupGetter__ "__proto__"}}', "t")).toThrow(/unknown helper "__lookupGetter__"/);
    expect(() => engine.compile("{{#constructor x}}{{/constructor}}", "t")).toThrow(/unknown helper "constructor"/);
    expect(engine.compile("[{{constructor}}]", "t")({ title: "x" })).toBe("[]");
  });

  it("refuses output and report names longer than the file system takes, temporary names included", async () => {
    const long = "a".repeat(300);
    const error = await refusal({
      ...VALID_TREE,
      "config/pharmafeed.json": { ...VALID_MAIN, channels: [...VALID_MAIN.channels, "channels/a.json", "channels/b.json", "channels/c.json"] },
      "config/channels/a.json": { name: "a", preset: "generic-csv", file: `${long}.csv` },
      "config/channels/b.json": { name: long, preset: "generic-csv" },
      // 250 bytes fit a directory entry, but not as ".<name>.tmp-<pid>" beside it.
      "config/channels/c.json": { name: "c", preset: "generic-csv", file: `${"c".repeat(246)}.csv` },
    });
    expect(error.message).toMatch(/a\.json: file: "a{300}\.csv" is too long: written as a temporary file of \d+ bytes, where file systems allow 255/);
    expect(error.message).toMatch(/b\.json: name: "a{300}\.csv" is too long/);
    expect(error.message).toMatch(/b\.json: name: "a{300}" is too long for its report file reports\/a{300}\.csv/);
    expect(error.message).toMatch(/c\.json: file: "c{246}\.csv" is too long/);
  });
});
