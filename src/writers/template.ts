/**
 * Handlebars layouts compiled to one plain JavaScript function each, with escaping
 * owned by the writer.
 *
 * Handlebars is the template language and its parser (`parse`, which also applies
 * the standalone-line and `~` whitespace rules) reads every layout. Rendering is
 * ours, for two reasons:
 * - escaping: every `{{value}}` goes through the writer's own escaper (XML text,
 *   CSV...), never Handlebars' HTML escaping (which turns `=` in URLs into `&#x3D;`);
 *   a value is escaped exactly once; `{{{value}}}` is raw; `{{cdata x}}` returns
 *   final markup that the escaper lets through;
 * - speed: a feed run renders one row per product per channel (22 channels in the
 *   benchmark). The Handlebars runtime re-merges and re-wraps every helper and
 *   allocates an options object per mustache on every call (6-8 us per row); the
 *   tree of closures over frames that came next cost a call per node and an object
 *   per block and iteration. Here a layout becomes the code a person would write
 *   for it (template-code.ts): one string built by `+=`, contexts in
 *   local variables, `@index` a loop counter, no allocation but the output; and a
 *   second function, `ifClean`, that reads a context not yet cleaned (sanitize.ts) and
 *   checks each value where it is read, in the same scan as the escaper's first test.
 * The supported subset is what feed layouts need: paths (`this`, `../`, `@index`,
 * `@first`, `@last`, `@key`, `@root`, `@../`), literals, helpers and subexpressions, and the
 * blocks `if`, `unless` (with `includeZero`), `each`, `with`, with `else`. Within it a layout
 * renders as the Handlebars runtime renders it, corners included (template-code.ts,
 * template-paths.ts); the rest is refused when the layout is loaded, as are layouts beyond
 * the size and depth limits (template-limits.ts). test/writers/template-diff.test.ts holds
 * random layouts of the subset, and every built-in layout, to the Handlebars runtime.
 */
import { cdata, classBody } from "./escape.js";
import { layoutHelpers } from "./helpers.js";
import { MAY_NEED_CLEANING } from "./sanitize.js";
import { generate, generateList, validate } from "./template-code.js";
import { parseTemplate as parse } from "./template-limits.js";
import { attributeMustaches } from "./xml-context.js";
import { UNCLEAN } from "./template-runtime.js";

export type Escaper = (value: string) => string;
/**
 * `filled` (optional) marks, per top-level mustache of the template (`tracked`, in order),
 * whether this render gave it a non-blank value: an XML layout's "columns".
 */
export type RenderFn = ((context: unknown, filled?: number[]) => string) & {
  tracked: readonly string[];
  /**
   * The same render of a context that sanitize.ts has not cleaned, or undefined as soon as
   * a value the template reads is one sanitizing would change (then render the cleaned
   * context): every item is read as cleaned, without a copy of every item.
   */
  ifClean: (context: unknown, filled?: number[]) => string | undefined;
};

/** Several templates over one context, one string each (the cells of a row), and `ifClean` as RenderFn's. */
export type ListRenderFn = ((context: unknown) => string[]) & { ifClean: (context: unknown) => string[] | undefined };

/** `checked(...)`, or undefined where it gives up on a value sanitizing would change. */
function unlessUnclean<A extends unknown[], R>(checked: (...args: A) => R): (...args: A) => R | undefined {
  return (...args) => {
    try {
      return checked(...args);
    } catch (error) {
      if (error === UNCLEAN) return undefined;
      throw error;
    }
  };
}

export interface EngineOptions {
  /**
   * The characters the escaper changes, as one character class without flags (`/[&<>]/`),
   * or null if it changes nothing: a string holding none of them is one it returns as it is.
   * Unset, any string may change.
   */
  touches?: RegExp | null;
  /**
   * XML: the escaper of a mustache inside an attribute value (xml-context.ts), and the
   * characters it changes, as `touches`.
   */
  attribute?: { escape: Escaper; touches: RegExp };
}

/** A template engine for one output format; templates are compiled once. */
export function createTemplateEngine(escape: Escaper, options: EngineOptions = {}) {
  const helpers = layoutHelpers(cdata);
  const touches = options.touches === null ? "" : options.touches && classBody(options.touches);
  if (options.touches && touches === undefined) throw new TypeError(`touches must be one character class without flags, got ${String(options.touches)}`);
  // One scan of one class (an alternation would try each branch at every position) tells a value that needs neither cleaning nor escaping.
  const look = touches === undefined ? undefined : new RegExp(`[${touches}${classBody(MAY_NEED_CLEANING)!}]`);
  const attribute = options.attribute;
  const attributeTouches = attribute && classBody(attribute.touches);
  if (attribute && attributeTouches === undefined) throw new TypeError(`attribute touches must be one character class without flags, got ${String(attribute.touches)}`);
  const lookAttribute = attributeTouches === undefined ? undefined : new RegExp(`[${attributeTouches}${classBody(MAY_NEED_CLEANING)!}]`);
  const escapeAttribute = attribute?.escape;
  return {
    /** `track`: count the top-level mustaches' fills (RenderFn); off, they cost nothing. */
    compile(template: string, source: string, options: { track?: boolean } = {}): RenderFn {
      const ast = parse(template, source);
      const track = options.track === true;
      const attributes = attribute ? attributeMustaches(ast) : undefined;
      const { render, tracked } = generate(ast, { escape, escapeAttribute, attributes, helpers, source, track });
      const checked = generate(ast, { escape, escapeAttribute, attributes, helpers, source, track, check: { look, lookAttribute } }).render;
      return Object.assign(render, { tracked, ifClean: unlessUnclean(checked) });
    },
    /** One function for several templates (a column format's cells): no call per cell. */
    compileList(templates: readonly { template: string; source: string }[]): ListRenderFn {
      // Parsed and checked one by one, as compile would: the first column at fault is the one named.
      const list = templates.map(({ template, source }) => {
        const ast = parse(template, source);
        validate(ast, { escape, helpers, source, track: false });
        return { ast, source };
      });
      const render = generateList(list, { escape, helpers });
      const checked = generateList(list, { escape, helpers, check: { look } });
      return Object.assign(render, { ifClean: unlessUnclean(checked) });
    },
  };
}
