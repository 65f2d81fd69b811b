/**
 * The differential test of issue 39: our compiled layouts against the Handlebars runtime,
 * with a neutral escaper (each escaped value wrapped in «», so that a value escaped twice or
 * not at all shows). Seeded random layouts within the supported subset over contexts that
 * reach Handlebars' corners, and every case the issue lists. The seed is printed; set
 * PHARMAFEED_DIFF_SEED to replay one.
 */
import { describe, expect, it } from "vitest";
import { sanitizeValue } from "../../src/writers/sanitize.js";
import { createTemplateEngine } from "../../src/writers/template.js";
import { reference } from "./handlebars-reference.js";
import { DIFF_CONTEXTS, randomLayouts } from "./random-layouts.js";

const neutral = (value: string) => `«${value}»`;
const ours = createTemplateEngine(neutral);
const theirs = reference(neutral);

/** Handlebars' own output, or its error (its runtime throws where a layout is broken). */
function handlebars(source: string, context: unknown): string {
  return theirs(source)(context);
}

describe("custom layouts render as the Handlebars runtime does", () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ["@key over an array is the index", "{{#each xs}}{{@key}}{{/each}}", { xs: ["a", "b"] }],
    ["@key inside an #each over an object, in an inner #each over an array", "{{#each o}}{{#each this}}{{@key}}:{{this}} {{/each}}{{/each}}", { o: { a: ["x", "y"] } }],
    ["#each over an empty object, a string, a number renders else", "{{#each e}}x{{else}}E{{/each}}{{#each s}}x{{else}}S{{/each}}{{#each n}}x{{else}}N{{/each}}", { e: {}, s: "abc", n: 5 }],
    ["#with over 0 renders the block", "{{#with zero}}[{{this}}]{{else}}E{{/with}}", { zero: 0 }],
    ["a string's length and index", "{{s.length}}|{{s.[0]}}|{{#with s}}{{length}}{{/with}}", { s: "abc" }],
    ["../ above the root is nothing", "{{../name}}|{{#if name}}{{../name}}{{/if}}|{{#with o}}{{../../name}}{{/with}}", { name: "N", o: { a: 1 } }],
    ["@../index reads the outer loop", "{{#each xs}}{{#each ../xs}}({{@../index}}{{@index}}){{/each}}{{/each}}|{{@../index}}", { xs: [1, 2] }],
    ["includeZero=path", "{{#if zero includeZero=iz}}Y{{else}}N{{/if}}{{#if zero includeZero=no}}Y{{else}}N{{/if}}", { zero: 0, iz: "yes", no: 0 }],
    ["standalone {{else}} lines", "a\n  {{#if x}}\n  yes\n  {{else}}\n  no\n  {{/if}}\nb\n{{#each xs}}\n  {{this}}\n{{else}}\n  none\n{{/each}}\n", { x: 0, xs: [] }],
    ["else if chains", "{{#if a}}A{{else if b}}B{{else if c}}C{{else}}D{{/if}}", { a: 0, b: "", c: [1] }],
    ["null items are Handlebars' null context inside a helper", "{{#each xs}}{{#if true}}[{{this}}]{{/if}}{{#with this}}w{{else}}<{{this}}>{{/with}}{{/each}}", { xs: [null, "", 0, "a"] }],
    ["../ skips a context loosely equal to the one above", "{{#each xs}}{{#each ../ys}}<{{../this}}>{{/each}}{{/each}}", { xs: ["1", 2], ys: [1, "2"] }],
    ["NaN != NaN: each program called with it pushes a context for ../", "{{#each xs}}{{#if true}}{{#unless false}}[{{../../s}}|{{../../../s}}]{{/unless}}{{/if}}{{/each}}", { s: "S", xs: [NaN, 1] }],
    ["data paths stop at a falsy value", "{{@root.zero.x}}|{{@root.f.x}}|{{zero.x}}|{{f.x}}|{{#each xs}}{{@index.x}}{{/each}}", { zero: 0, f: false, xs: [1, 2] }],
    ["context paths stop at null", "{{#if (eq n.x null)}}null{{else}}undefined{{/if}}", { n: null }],
  ];
  it.each(cases)("%s", (_, source, context) => {
    expect(ours.compile(source, "t")(context)).toBe(handlebars(source, context));
  });

  it.each([
    ["{{#each xs as |x|}}{{x}}{{/each}}", /block parameters \(as \|x\|\) are not supported on line 1, column 0/],
    ["{{#with o as |p|}}{{p}}{{/with}}", /block parameters/],
    ['{{"name"}}', /a literal cannot name a value or a helper/],
    ["{{1}}", /a literal cannot name/],
    ["{{lookup o k}}", /the Handlebars helper "lookup" is not supported/],
    ["{{log x}}", /"log" is not supported/],
    ["{{if x}}", /"if" is a block helper/],
    ['{{join xs sep="|"}}', /helper "join" takes no hash arguments \(sep=\)/],
    ["{{#each xs includeZero=true}}{{/each}}", /#each takes no includeZero=/],
    ["{{@foo}}", /@foo is not supported/],
    ["{{@_parent.index}}", /@_parent is not supported/],
    ["{{join (cdata x) ','}}", /\(cdata \.\.\.\) can only be a mustache's value/],
    ["{{default (name) 'x'}}", /unknown helper "name"/],
  ])("refuses %s at load, naming line and column", (source, message) => {
    expect(() => ours.compile(source, "layouts/t.hbs")).toThrow(message);
    expect(() => ours.compile(source, "layouts/t.hbs")).toThrow(/^template layouts\/t\.hbs: .* on line \d+, column \d+$/);
  });

  it("over seeded random layouts within the supported subset", () => {
    const seed = Number(process.env.PHARMAFEED_DIFF_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const { layout } = randomLayouts(seed);
    const LAYOUTS = 400;
    let renders = 0;
    let differ = 0;
    let refused = 0;
    let first: string | undefined;
    for (let n = 0; n < LAYOUTS; n++) {
      const source = layout();
      let render;
      try {
        render = ours.compile(source, "t");
      } catch (error) {
        // The grammar also writes raw values in a row, which Handlebars adds as numbers: refused, and nothing else is.
        expect((error as Error).message, source).toMatch(/two raw values|calls Handlebars' helper "first"/);
        refused++;
        continue;
      }
      const reference = theirs(source);
      for (const context of DIFF_CONTEXTS) {
        renders++;
        const expected = reference(context);
        const got = render(context);
        if (got !== expected) {
          differ++;
          first ??= `${JSON.stringify(source)} over ${JSON.stringify(context)}: ours ${JSON.stringify(got)}, Handlebars ${JSON.stringify(expected)}`;
        }
        // The checked render (template.ts's ifClean): the cleaned context's render, or nothing when cleaning changes the context.
        const clean = sanitizeValue(context);
        const asIs = render.ifClean(context);
        if (clean === context) expect(asIs, source).toBe(got);
        else if (asIs !== undefined) expect(asIs, source).toBe(render(clean));
      }
    }
    console.log(`template-diff seed ${seed}: ${LAYOUTS} layouts x ${DIFF_CONTEXTS.length} contexts, ${refused} refused (raw values in a row), ${renders} renders, ${differ} differ from Handlebars`);
    expect(refused).toBeLessThan(LAYOUTS / 3);
    expect(first, `seed ${seed}`).toBeUndefined();
  });
});
