/**
 * Deep or large layouts are refused when loaded, in one line naming the file, line and
 * column, as any config error (CONFIG_INVALID): never a RangeError from a recursion, never
 * a hang, and what validate's load accepts the writer renders (issue 39).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { PharmafeedError } from "../../src/errors.js";
import { escapeXml } from "../../src/writers/escape.js";
import { createTemplateEngine } from "../../src/writers/template.js";
import { templateFieldProblems } from "../../src/writers/template-fields.js";
import { MAX_BLOCK_DEPTH, MAX_SUBEXPRESSION_DEPTH, MAX_TEMPLATE_LENGTH } from "../../src/writers/template-limits.js";
import { TEST_ENV, VALID_MAIN, VALID_TREE, writeTree } from "../config/tree.js";
import { reference } from "./handlebars-reference.js";

const nested = (open: string, close: string, n: number, inner = "{{id}}") => open.repeat(n) + inner + close.repeat(n);
const subexpressions = (n: number) => `{{default ${"(default ".repeat(n)}id${" 'x')".repeat(n)} 'y'}}`;

const HOSTILE: [string, string, RegExp][] = [
  // The 65th `{{#each xs}}` (12 characters each) starts at column 768, the place both checks name.
  ["600 nested #each", nested("{{#each xs}}", "{{/each}}", 600), /blocks nest deeper than 64, which is not supported on line 1, column 768$/],
  ["10,000 nested #if", nested("{{#if id}}", "{{/if}}", 10_000), /blocks nest deeper than 64/],
  ["10,000 else if", `{{#if a}}${"x{{else if b}}".repeat(10_000)}{{/if}}`, /blocks nest deeper than 64/],
  ["2,000 nested subexpressions", subexpressions(2_000), /subexpressions nest deeper than 16, which is not supported on line 1, column \d+$/],
  ["1,400 nested subexpressions", subexpressions(1_400), /subexpressions nest deeper than 16/],
  ["65 nested #with", nested("{{#with this}}", "{{/with}}", MAX_BLOCK_DEPTH + 1), /blocks nest deeper than 64, which is not supported on line 1, column 896$/],
  ["17 nested subexpressions", subexpressions(MAX_SUBEXPRESSION_DEPTH + 1), /subexpressions nest deeper than 16/],
  ["a template over 256 KiB", "x".repeat(MAX_TEMPLATE_LENGTH + 1), /262145 characters is over the 262144 a template may have$/],
];

async function load(item: string) {
  const root = await writeTree({
    ...VALID_TREE,
    "config/pharmafeed.json": { ...VALID_MAIN, channels: [...VALID_MAIN.channels, "channels/custom.json"] },
    "config/channels/custom.json": { name: "custom", preset: "generic-csv", template: "../my-layout" },
    "config/my-layout/layout.json": { format: "xml", header: "h.hbs", item: "i.hbs", footer: "f.hbs" },
    "config/my-layout/h.hbs": "<feed>",
    "config/my-layout/i.hbs": item,
    "config/my-layout/f.hbs": "</feed>",
  });
  return loadConfig(join(root, "config/pharmafeed.json"), { env: TEST_ENV });
}

describe("template limits", () => {
  const engine = createTemplateEngine(escapeXml);

  it.each(HOSTILE)("%s: refused by the compiler in one line, before any recursion", (_, text, message) => {
    const error = (() => {
      try {
        engine.compile(text, "my-layout/i.hbs");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(PharmafeedError);
    expect((error as PharmafeedError).code).toBe("CONFIG_INVALID");
    expect((error as Error).message).toMatch(/^template my-layout\/i\.hbs: /);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("\n");
    // The field check parses the same text: no problem of its own, the compiler says why.
    expect(templateFieldProblems(text, { kind: "any" })).toEqual([]);
  });

  it.each(HOSTILE.slice(0, 5))("%s: the config load (validate, generate) refuses it as a config error", async (_, text) => {
    const error = await load(text).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PharmafeedError);
    expect((error as PharmafeedError).code).toBe("CONFIG_INVALID");
    expect((error as Error).message).toMatch(/i\.hbs: (blocks|subexpressions) nest deeper than \d+, which is not supported on line 1, column \d+/);
    expect((error as Error).message).not.toMatch(/RangeError|Maximum call stack/);
  });

  it("renders what it accepts: a layout at every limit, as Handlebars does", async () => {
    const context = { id: "A&B", xs: [["1"], ["2"]], a: 0, b: 1 };
    const theirs = reference(escapeXml);
    const atLimit = [
      nested("{{#with this}}", "{{/with}}", MAX_BLOCK_DEPTH, "{{id}}{{../id}}"),
      nested("{{#if id}}", "{{/if}}", MAX_BLOCK_DEPTH),
      `{{#if a}}${"x{{else if b}}".repeat(MAX_BLOCK_DEPTH - 1)}y{{/if}}`,
      nested("{{#each xs}}", "{{/each}}", 2, "{{this}}{{@../index}}{{../../id}}"),
      subexpressions(MAX_SUBEXPRESSION_DEPTH - 1),
    ];
    for (const text of atLimit) expect(engine.compile(text, "t")(context)).toBe(theirs(text)(context));
    const config = await load(atLimit[0]!);
    expect(config.channels.find((c) => c.name === "custom")?.layout.templates?.item).toBe(atLimit[0]);
  });
});
