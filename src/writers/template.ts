/**
 * Handlebars layouts compiled to plain closures, with escaping owned by the writer.
 *
 * Handlebars is the template language and its parser (`parse`, which also applies
 * the standalone-line and `~` whitespace rules) reads every layout. Rendering is
 * ours, for two reasons:
 * - escaping: every `{{value}}` goes through the writer's own escaper (XML text,
 *   CSV...), never Handlebars' HTML escaping (which turns `=` in URLs into `&#x3D;`);
 *   a value is escaped exactly once; `{{{value}}}` is raw; `{{cdata x}}` returns
 *   final markup that the escaper lets through;
 * - speed: the Handlebars runtime re-merges and re-wraps every helper and allocates
 *   an options object per mustache on every call, 6-8 us per feed row; a feed run
 *   renders one row per product per channel (22 channels in the benchmark).
 * The supported subset is what feed layouts need: paths (`this`, `../`, `@index`,
 * `@first`, `@last`, `@key`, `@root`), literals, helpers and subexpressions, and the
 * blocks `if`, `unless` (with `includeZero`), `each`, `with`, with `else`. Partials and
 * decorators are refused when the layout is loaded. test/writers/template.test.ts
 * checks that every built-in layout renders exactly as the Handlebars runtime would.
 */
import Handlebars from "handlebars";
import { PharmafeedError } from "../errors.js";
import { cdata } from "./escape.js";
import { layoutHelpers, Markup, text, type Helper } from "./helpers.js";

export type Escaper = (value: string) => string;
/**
 * `filled` (optional) marks, per top-level mustache of the template (`tracked`, in order),
 * whether this render gave it a non-blank value: an XML layout's "columns".
 */
export type RenderFn = ((context: unknown, filled?: number[]) => string) & { tracked: readonly string[] };

interface Frame {
  value: unknown;
  parent: Frame | undefined;
  data: Record<string, unknown>;
  /** Only on the root frame: see RenderFn. */
  filled?: number[] | undefined;
}

type Expr = (frame: Frame) => unknown;
type Render = (frame: Frame) => string;

type Node = hbs.AST.Node;
type Expression = hbs.AST.Expression;

const BLOCKS = new Set(["if", "unless", "each", "with"]);

/** Handlebars' truthiness: false, null, undefined, "", 0 (unless includeZero) and [] are empty. */
function isEmpty(value: unknown, includeZero: boolean): boolean {
  if (value === 0) return !includeZero;
  return !value || (Array.isArray(value) && value.length === 0);
}

/** Own properties only, as the Handlebars runtime's prototype protection allows. */
function property(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

class Compiler {
  /** Top-level mustaches, `{{name}}` (line N): what a template's "columns" are for the empty-column check. */
  readonly tracked: string[] = [];

  constructor(
    private readonly escape: Escaper,
    private readonly helpers: Record<string, Helper>,
    private readonly source: string,
  ) {}

  private refuse(message: string, node: Node): never {
    const line = node.loc?.start.line;
    throw new PharmafeedError("CONFIG_INVALID", `template ${this.source}: ${message} on line ${line ?? "?"}`, {
      context: { file: this.source, line },
    });
  }

  program(program: hbs.AST.Program | undefined, top = false): Render {
    if (!program) return () => "";
    const parts = program.body.map((node) => (top && node.type === "MustacheStatement" ? this.track(node) : this.statement(node))).filter((r): r is Render => r !== undefined);
    if (parts.length === 1) return parts[0]!;
    return (frame) => {
      let out = "";
      for (const part of parts) out += part(frame);
      return out;
    };
  }

  /** A top-level mustache: marks `filled` once it renders something; a column seen filled costs nothing more. */
  private track(node: Node): Render {
    const render = this.statement(node)!;
    const k = this.tracked.length;
    const m = node as hbs.AST.MustacheStatement;
    const name = m.path.type === "PathExpression" ? (m.path as hbs.AST.PathExpression).original : "?";
    this.tracked.push(`{{${[name, ...m.params.map((p) => (p.type === "PathExpression" ? (p as hbs.AST.PathExpression).original : "…"))].join(" ")}}} (line ${node.loc?.start.line ?? "?"})`);
    return (f) => {
      const out = render(f);
      if (f.filled && !f.filled[k] && out.trim() !== "") f.filled[k] = 1;
      return out;
    };
  }

  private statement(node: Node): Render | undefined {
    switch (node.type) {
      case "ContentStatement": {
        const value = (node as hbs.AST.ContentStatement).value;
        return value === "" ? undefined : () => value;
      }
      case "CommentStatement":
        return undefined;
      case "MustacheStatement": {
        const m = node as hbs.AST.MustacheStatement;
        const value = this.call(m.path, m.params, m.hash, node);
        const escape = this.escape;
        return m.escaped ? (f) => { const v = value(f); return v instanceof Markup ? v.value : escape(text(v)); } : (f) => text(value(f));
      }
      case "BlockStatement":
        return this.block(node as hbs.AST.BlockStatement);
      default:
        return this.refuse(`${node.type.replace("Statement", "").toLowerCase()} is not supported in feed layouts`, node);
    }
  }

  /** A mustache or subexpression: a helper call, or a plain value. */
  private call(path: Expression, params: Expression[], hash: hbs.AST.Hash | undefined, node: Node): Expr {
    const name = path.type === "PathExpression" ? (path as hbs.AST.PathExpression).original : undefined;
    // Own helpers only: `{{__lookupGetter__ "__proto__"}}` or `{{constructor}}` must not reach Object.prototype.
    const helper = name === undefined || !Object.hasOwn(this.helpers, name) ? undefined : this.helpers[name];
    if (helper) {
      const args = params.map((p) => this.expression(p));
      return (f) => helper(...args.map((a) => a(f)));
    }
    if (params.length > 0 || hash) this.refuse(`unknown helper "${name ?? "?"}"`, node);
    return this.expression(path);
  }

  private expression(node: Expression): Expr {
    switch (node.type) {
      case "PathExpression":
        return this.path(node as hbs.AST.PathExpression);
      case "SubExpression": {
        const s = node as hbs.AST.SubExpression;
        return this.call(s.path, s.params, s.hash, node);
      }
      case "StringLiteral":
      case "NumberLiteral":
      case "BooleanLiteral": {
        const value = (node as hbs.AST.StringLiteral).value;
        return () => value;
      }
      case "UndefinedLiteral":
        return () => undefined;
      case "NullLiteral":
        return () => null;
      default:
        return this.refuse(`${node.type} is not supported`, node);
    }
  }

  private path(node: hbs.AST.PathExpression): Expr {
    const parts = [...node.parts];
    if (node.data) {
      const [first, ...rest] = parts;
      if (first === "root") return (f) => rest.reduce<unknown>((v, k) => property(v, k), rootOf(f).value);
      return (f) => rest.reduce<unknown>((v, k) => property(v, k), f.data[first ?? ""]);
    }
    const depth = node.depth;
    return (f) => {
      let frame: Frame = f;
      for (let d = 0; d < depth && frame.parent; d++) frame = frame.parent;
      let value = frame.value;
      for (const key of parts) value = property(value, key);
      return value;
    };
  }

  private block(node: hbs.AST.BlockStatement): Render {
    const name = (node.path as hbs.AST.PathExpression).original;
    if (!BLOCKS.has(name)) {
      return this.refuse(Object.hasOwn(this.helpers, name) ? `"${name}" is not a block helper` : `unknown helper "${name}"`, node);
    }
    if (node.params.length !== 1) this.refuse(`#${name} takes one argument`, node);
    const argument = this.expression(node.params[0]!);
    const includeZero = node.hash?.pairs.some((p) => p.key === "includeZero" && (p.value as hbs.AST.BooleanLiteral).value === true) ?? false;
    const program = this.program(node.program);
    const inverse = this.program(node.inverse);
    switch (name) {
      case "if":
        return (f) => (isEmpty(argument(f), includeZero) ? inverse(f) : program(f));
      case "unless":
        return (f) => (isEmpty(argument(f), includeZero) ? program(f) : inverse(f));
      case "with":
        return (f) => {
          const value = argument(f);
          return isEmpty(value, false) ? inverse(f) : program({ value, parent: f, data: f.data });
        };
      default:
        return (f) => {
          const value = argument(f);
          let out = "";
          if (Array.isArray(value)) {
            for (let i = 0; i < value.length; i++) {
              out += program({ value: value[i], parent: f, data: { ...f.data, index: i, first: i === 0, last: i === value.length - 1 } });
            }
          } else if (value !== null && typeof value === "object") {
            const keys = Object.keys(value);
            keys.forEach((key, i) => {
              out += program({ value: (value as Record<string, unknown>)[key], parent: f, data: { ...f.data, key, index: i, first: i === 0, last: i === keys.length - 1 } });
            });
          }
          return out === "" && isEmpty(value, false) ? inverse(f) : out;
        };
    }
  }
}

function rootOf(frame: Frame): Frame {
  let f = frame;
  while (f.parent) f = f.parent;
  return f;
}

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
      const compiler = new Compiler(escape, helpers, source);
      const render = compiler.program(ast, options.track === true);
      return Object.assign((context: unknown, filled?: number[]) => render({ value: context, parent: undefined, data: {}, filled }), {
        tracked: compiler.tracked as readonly string[],
      });
    },
  };
}
