/**
 * Handlebars for feed layouts, with escaping moved from Handlebars to the writer.
 *
 * Handlebars HTML-escapes `{{x}}` (`=` becomes `&#x3D;`, breaking URLs in feeds).
 * Instead every template is compiled with `noEscape`, after rewriting its AST so
 * that each double-stash `{{x}}` becomes `{{__escape x}}` with the writer's own
 * escaper (XML text, CSV, ...). A helper that already returns final markup
 * (`cdata`) returns a SafeString, which `__escape` passes through untouched.
 * Triple-stash `{{{x}}}` stays raw, on purpose, for values known to be safe.
 */
import Handlebars from "handlebars";
import { PharmafeedError } from "../errors.js";
import { cdata as cdataSection } from "./escape.js";

type HelperFn = (...args: unknown[]) => unknown;
type Node = hbs.AST.Node & Record<string, unknown>;

export type Escaper = (value: string) => string;
export type RenderFn = (context: unknown) => string;

/** Helpers every layout may use; `escape` is the format's escaper. */
function helpers(hb: typeof Handlebars, escape: Escaper): Record<string, HelperFn> {
  const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value));
  return {
    __escape: (value) => (value instanceof hb.SafeString ? value.toString() : escape(text(value))),
    /** `{{cdata description}}`: a CDATA section (XML only). */
    cdata: (value) => new hb.SafeString(cdataSection(text(value))),
    /** `{{join gtins "|"}}`: a list as one value. */
    join: (list, separator) => (Array.isArray(list) ? list.map(text).join(typeof separator === "string" ? separator : ",") : text(list)),
    /** `{{first additionalImageLinks}}` */
    first: (list) => (Array.isArray(list) ? list[0] : undefined),
    /** `{{default brand "Unknown"}}` */
    default: (value, fallback) => (value === undefined || value === null || value === "" ? fallback : value),
    /** `{{yesno prescription}}` -> "yes" / "no" */
    yesno: (value) => (value ? "yes" : "no"),
    /** `{{eq a b}}` for `{{#if (eq a b)}}` */
    eq: (a, b) => a === b,
    /** `{{replace availability "_" " "}}` */
    replace: (value, search, replacement) => text(value).replaceAll(text(search), text(replacement)),
    /** `{{upper x}}`, `{{lower x}}` */
    upper: (value) => text(value).toUpperCase(),
    lower: (value) => text(value).toLowerCase(),
  };
}

export const TEMPLATE_HELPERS = Object.keys(helpers(Handlebars, String)).filter((name) => !name.startsWith("__"));

const BUILTIN_HELPERS = new Set(["if", "unless", "each", "with", "lookup", "log"]);

/**
 * Rewrites every escaped mustache to go through `__escape`, recursively, and
 * refuses calls to unknown helpers now rather than at the first rendered item.
 */
function routeThroughEscaper(node: Node, helperNames: Set<string>, source: string): void {
  for (const key of ["body", "program", "inverse", "params"]) {
    const child = node[key] as Node | Node[] | undefined;
    if (Array.isArray(child)) child.forEach((c) => routeThroughEscaper(c, helperNames, source));
    else if (child && typeof child === "object") routeThroughEscaper(child, helperNames, source);
  }
  const call = node as unknown as { path?: hbs.AST.PathExpression; params?: unknown[] };
  const isHelperCall = node.type === "SubExpression" || node.type === "BlockStatement" || (call.params?.length ?? 0) > 0;
  if (isHelperCall && call.path && !helperNames.has(call.path.original) && !BUILTIN_HELPERS.has(call.path.original)) {
    const line = (node.loc as hbs.AST.SourceLocation | undefined)?.start.line;
    throw new PharmafeedError("CONFIG_INVALID", `template ${source}: unknown helper "${call.path.original}" on line ${line ?? "?"}`, {
      context: { file: source, line },
    });
  }
  if (node.type !== "MustacheStatement") return;
  const mustache = node as unknown as hbs.AST.MustacheStatement;
  if (!mustache.escaped) return;
  const path = mustache.path as hbs.AST.PathExpression;
  const isCall = mustache.params.length > 0 || mustache.hash !== undefined || helperNames.has(path.original);
  const argument: hbs.AST.Expression = isCall
    ? ({ type: "SubExpression", path, params: mustache.params, hash: mustache.hash, loc: mustache.loc } as hbs.AST.SubExpression)
    : path;
  mustache.path = { type: "PathExpression", data: false, depth: 0, parts: ["__escape"], original: "__escape", loc: mustache.loc } as hbs.AST.PathExpression;
  mustache.params = [argument];
  mustache.hash = undefined as unknown as hbs.AST.Hash;
}

/**
 * A Handlebars environment for one output format. Templates are compiled once;
 * `source` names the file in errors.
 */
export function createTemplateEngine(escape: Escaper) {
  const hb = Handlebars.create();
  const own = helpers(hb, escape);
  for (const [name, fn] of Object.entries(own)) hb.registerHelper(name, fn);
  const helperNames = new Set(Object.keys(own));

  return {
    compile(template: string, source: string): RenderFn {
      let ast: hbs.AST.Program;
      try {
        ast = hb.parse(template);
      } catch (cause) {
        throw new PharmafeedError("CONFIG_INVALID", `template ${source} does not compile: ${(cause as Error).message}`, {
          cause,
          context: { file: source },
        });
      }
      routeThroughEscaper(ast as unknown as Node, helperNames, source);
      const render = hb.compile(ast, { noEscape: true, knownHelpers: Object.fromEntries([...helperNames].map((n) => [n, true])) });
      return (context) => render(context);
    },
  };
}
