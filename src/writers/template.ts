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
 *   allocates an options object per mustache on every call (6-8 us per row); a tree
 *   of closures walking frames cost 1-2 us. Here a layout becomes the code a person
 *   would write for it (template-code.ts): one string built by `+=`, contexts in
 *   local variables, `@index` a loop counter, no allocation but the output.
 * The supported subset is what feed layouts need: paths (`this`, `../`, `@index`,
 * `@first`, `@last`, `@key`, `@root`), literals, helpers and subexpressions, and the
 * blocks `if`, `unless` (with `includeZero`), `each`, `with`, with `else`. Lookups are
 * own properties only (a layout never reaches Object.prototype); truthiness is
 * Handlebars' (false, null, undefined, "", 0 unless includeZero, and [] are empty).
 * Partials and decorators are refused when the layout is loaded.
 * test/writers/template.test.ts checks that every built-in layout renders exactly as
 * the Handlebars runtime would.
 */
import Handlebars from "handlebars";
import { PharmafeedError } from "../errors.js";
import { cdata } from "./escape.js";
import { layoutHelpers } from "./helpers.js";
import { generate } from "./template-code.js";

export type Escaper = (value: string) => string;
/**
 * `filled` (optional) marks, per top-level mustache of the template (`tracked`, in order),
 * whether this render gave it a non-blank value: an XML layout's "columns".
 */
export type RenderFn = ((context: unknown, filled?: number[]) => string) & { tracked: readonly string[] };

/** A template engine for one output format; templates are compiled once. */
export function createTemplateEngine(escape: Escaper) {
  const helpers = layoutHelpers(cdata);
  return {
    /** `track`: count the top-level mustaches' fills (RenderFn); off, they cost nothing. */
    compile(template: string, source: string, options: { track?: boolean } = {}): RenderFn {
      let ast: hbs.AST.Program;
      try {
        ast = Handlebars.parse(template);
      } catch (cause) {
        throw new PharmafeedError("CONFIG_INVALID", `template ${source} does not compile: ${(cause as Error).message}`, {
          cause,
          context: { file: source },
        });
      }
      const { render, tracked } = generate(ast, { escape, helpers, source, track: options.track === true });
      return Object.assign(render, { tracked });
    },
  };
}
