/**
 * The behaviour our template compiler must reproduce: the Handlebars runtime with our
 * helpers, each escaped mustache routed through the given escaper instead of Handlebars'
 * HTML escaping (a SafeString, our Markup, passes as it is).
 */
import Handlebars from "handlebars";
import { cdata } from "../../src/writers/escape.js";
import { layoutHelpers, Markup } from "../../src/writers/helpers.js";
import type { Escaper } from "../../src/writers/template.js";

type Node = hbs.AST.Node & Record<string, unknown>;

/** The Handlebars runtime, escaping rerouted: the behaviour our compiler must reproduce. */
export function reference(escape: Escaper) {
  const hb = Handlebars.create();
  const helpers = layoutHelpers(cdata);
  for (const [name, fn] of Object.entries(helpers)) {
    hb.registerHelper(name, (...args: unknown[]) => {
      const result = fn(...args.slice(0, -1));
      return result instanceof Markup ? new hb.SafeString(result.value) : result;
    });
  }
  hb.registerHelper("__escape", (value: unknown) =>
    value instanceof hb.SafeString ? value.toString() : escape(value === undefined || value === null ? "" : String(value)),
  );
  const names = new Set(Object.keys(helpers));
  const reroute = (node: Node): void => {
    for (const key of ["body", "program", "inverse"]) {
      const child = node[key] as Node | Node[] | undefined;
      if (Array.isArray(child)) child.forEach(reroute);
      else if (child && typeof child === "object") reroute(child);
    }
    if (node.type !== "MustacheStatement") return;
    const m = node as unknown as hbs.AST.MustacheStatement;
    if (!m.escaped) return;
    const path = m.path as hbs.AST.PathExpression;
    const isCall = m.params.length > 0 || names.has(path.original);
    const arg = isCall ? ({ type: "SubExpression", path, params: m.params, hash: m.hash, loc: m.loc } as hbs.AST.SubExpression) : path;
    m.path = { type: "PathExpression", data: false, depth: 0, parts: ["__escape"], original: "__escape", loc: m.loc } as hbs.AST.PathExpression;
    m.params = [arg];
    m.hash = undefined as unknown as hbs.AST.Hash;
  };
  return (template: string) => {
    const ast = hb.parse(template);
    reroute(ast as unknown as Node);
    return hb.compile(ast, { noEscape: true });
  };
}
