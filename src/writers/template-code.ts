/**
 * A Handlebars AST to the source of one JavaScript function (template.ts), compiled
 * with `new Function`. Layouts are user files, so nothing taken from one is ever code:
 * its text, path segments and string literals are written as JSON string literals
 * (`literal`), every other value it names (helpers, numbers, booleans) as a variable
 * bound to an entry of the constants array. Every identifier is ours (`$c1`, `$i2`...).
 *
 * The shape of the output, for `<a>{{#each xs}}{{this}}{{../name}}{{/each}}</a>`:
 *
 *   let o = "";
 *   o += "<a>";
 *   { const $v1 = ($t = $c0) !== null && typeof $t === "object" && hasOwn($t, "xs") ? $t["xs"] : undefined;
 *     if (isEmpty($v1, false)) {} else { ...; for (let $i1 = 0; $i1 < $n1; $i1++) { const $c1 = ...;
 *       o += esc($c1); o += esc(($t = $c0) !== null && ... ? $t["name"] : undefined); } } }
 *   o += "</a>";
 *
 * A block that changes the context (`#each`, `#with`) binds a new `$c` variable; `../`
 * names the enclosing one; `@index`, `@first`, `@last`, `@key` read the innermost
 * `#each`'s loop variables; `@root` is `$c0`. Besides these, the code reaches only the
 * functions of template-runtime.ts.
 */
import { PharmafeedError } from "../errors.js";
import type { Helper } from "./helpers.js";
import type { Escaper } from "./template.js";
import { instantiate } from "./template-runtime.js";

type Node = hbs.AST.Node;
type Expression = hbs.AST.Expression;

const BLOCKS = new Set(["if", "unless", "each", "with"]);

/** A JavaScript string literal of any string: JSON's, with the two line separators JSON leaves raw escaped as well. */
export function literal(value: string): string {
  return JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** The innermost `#each` around a node: its loop variables. */
interface Loop {
  index: string;
  count: string;
  keys: string;
  /** `@key` of the enclosing loop, which an `#each` over an array keeps. */
  outerKey: string;
}

/** Where a node sits: the variable holding `this`, the enclosing context (`../`) and loop. */
interface Scope {
  context: string;
  parent: Scope | undefined;
  loop: Loop | undefined;
}

export interface GenerateOptions {
  escape: Escaper;
  helpers: Record<string, Helper>;
  /** The layout file, for error messages. */
  source: string;
  /** Mark the top-level mustaches a render fills (RenderFn's `filled`). */
  track: boolean;
  /**
   * Check every value read from the context (sanitize.ts's isClean) and throw UNCLEAN
   * (template-runtime.ts) at the first one sanitizing would change. `look`: a string it does
   * not match is both clean and left as it is by the escaper, so that one scan decides both;
   * without it, both look.
   */
  check?: { look: RegExp | undefined } | undefined;
}

class Generator {
  /** Top-level mustaches, `{{name}}` (line N): what a template's "columns" are for the empty-column check. */
  readonly tracked: string[] = [];
  readonly constants: unknown[] = [];
  private names = 0;
  /** The layout file of the program being generated, for error messages. */
  source: string;

  constructor(private readonly options: GenerateOptions) {
    this.source = options.source;
  }

  private refuse(message: string, node: Node): never {
    const line = node.loc?.start.line;
    throw new PharmafeedError("CONFIG_INVALID", `template ${this.source}: ${message} on line ${line ?? "?"}`, {
      context: { file: this.source, line },
    });
  }

  /** A variable bound to `value` (a helper, a number...): layout values never become code. */
  private constant(value: unknown): string {
    return `$k${this.constants.push(value) - 1}`;
  }

  private fresh(): number {
    return ++this.names;
  }

  /** Statements appending the program's output to `o`. */
  program(program: hbs.AST.Program | undefined, scope: Scope, top = false): string {
    let code = "";
    for (const node of program?.body ?? []) code += top && node.type === "MustacheStatement" ? this.track(node as hbs.AST.MustacheStatement, scope) : this.statement(node, scope);
    return code;
  }

  /** A top-level mustache: marks `filled` once it renders something; a column seen filled costs nothing more. */
  private track(node: hbs.AST.MustacheStatement, scope: Scope): string {
    const value = this.mustache(node, scope);
    const k = this.tracked.length;
    const name = node.path.type === "PathExpression" ? (node.path as hbs.AST.PathExpression).original : "?";
    this.tracked.push(`{{${[name, ...node.params.map((p) => (p.type === "PathExpression" ? (p as hbs.AST.PathExpression).original : "…"))].join(" ")}}} (line ${node.loc?.start.line ?? "?"})`);
    return `s = ${value};\nif (filled && !filled[${k}] && s.trim() !== "") filled[${k}] = 1;\no += s;\n`;
  }

  private statement(node: Node, scope: Scope): string {
    switch (node.type) {
      case "ContentStatement": {
        const value = (node as hbs.AST.ContentStatement).value;
        return value === "" ? "" : `o += ${literal(value)};\n`;
      }
      case "CommentStatement":
        return "";
      case "MustacheStatement":
        return `o += ${this.mustache(node as hbs.AST.MustacheStatement, scope)};\n`;
      case "BlockStatement":
        return this.block(node as hbs.AST.BlockStatement, scope);
      default:
        return this.refuse(`${node.type.replace("Statement", "").toLowerCase()} is not supported in feed layouts`, node);
    }
  }

  /** The text of a mustache: escaped once by the writer's escaper (Markup passes), or raw. */
  private mustache(m: hbs.AST.MustacheStatement, scope: Scope): string {
    const path = m.path.type === "PathExpression" ? (m.path as hbs.AST.PathExpression) : undefined;
    if (this.options.check && m.escaped && path && !Object.hasOwn(this.options.helpers, path.original) && m.params.length === 0 && !m.hash) {
      return `escChecked(${this.path(path, scope)})`; // the common `{{title}}`: one scan checks and escapes
    }
    const value = this.call(m.path, m.params, m.hash, m, scope);
    return m.escaped ? `esc(${value})` : `text(${value})`;
  }

  /** A mustache or subexpression: a helper call, or a plain value. */
  private call(path: Expression, params: Expression[], hash: hbs.AST.Hash | undefined, node: Node, scope: Scope): string {
    const name = path.type === "PathExpression" ? (path as hbs.AST.PathExpression).original : undefined;
    // Own helpers only: `{{__lookupGetter__ "__proto__"}}` or `{{constructor}}` must not reach Object.prototype.
    const helper = name === undefined || !Object.hasOwn(this.options.helpers, name) ? undefined : this.options.helpers[name];
    if (helper) {
      const args = params.map((p) => this.expression(p, scope));
      return `${this.constant(helper)}(${args.join(", ")})`;
    }
    if (params.length > 0 || hash) this.refuse(`unknown helper "${name ?? "?"}"`, node);
    return this.expression(path, scope);
  }

  /**
   * `test`: the value is only tested for emptiness (a block's argument): a checked render
   * looks at a string then (sanitizing may empty it), not into an object or array, whose
   * values are checked where they are read.
   */
  private expression(node: Expression, scope: Scope, test = false): string {
    switch (node.type) {
      case "PathExpression": {
        const value = this.path(node as hbs.AST.PathExpression, scope);
        return this.options.check ? `${test ? "checkText" : "check"}(${value})` : value;
      }
      case "SubExpression": {
        const s = node as hbs.AST.SubExpression;
        return this.call(s.path, s.params, s.hash, node, scope);
      }
      case "StringLiteral":
        return literal((node as hbs.AST.StringLiteral).value);
      case "NumberLiteral":
      case "BooleanLiteral":
        return this.constant((node as hbs.AST.NumberLiteral | hbs.AST.BooleanLiteral).value);
      case "UndefinedLiteral":
        return "undefined";
      case "NullLiteral":
        return "null";
      default:
        return this.refuse(`${node.type} is not supported`, node);
    }
  }

  private path(node: hbs.AST.PathExpression, scope: Scope): string {
    const parts = [...node.parts];
    let base: string;
    if (node.data) {
      // Data names are ours alone: `@constructor` is nothing, never Object.prototype's.
      const name = parts.shift();
      const loop = scope.loop;
      if (name === "root") base = "$c0";
      else if (!loop) base = "undefined";
      else if (name === "index") base = loop.index;
      else if (name === "first") base = `(${loop.index} === 0)`;
      else if (name === "last") base = `(${loop.index} === ${loop.count} - 1)`;
      else if (name === "key") base = keyOf(loop);
      else base = "undefined";
    } else {
      let context = scope;
      for (let d = 0; d < node.depth && context.parent; d++) context = context.parent;
      base = context.context;
    }
    return lookup(base, parts);
  }

  private block(node: hbs.AST.BlockStatement, scope: Scope): string {
    const name = (node.path as hbs.AST.PathExpression).original;
    if (!BLOCKS.has(name)) {
      return this.refuse(Object.hasOwn(this.options.helpers, name) ? `"${name}" is not a block helper` : `unknown helper "${name}"`, node);
    }
    if (node.params.length !== 1) this.refuse(`#${name} takes one argument`, node);
    const argument = this.expression(node.params[0]!, scope, true);
    const includeZero = node.hash?.pairs.some((p) => p.key === "includeZero" && (p.value as hbs.AST.BooleanLiteral).value === true) ?? false;
    const n = this.fresh();
    const context = `$c${n}`;
    const inner: Scope =
      name === "each"
        ? { context, parent: scope, loop: { index: `$i${n}`, count: `$n${n}`, keys: `$ks${n}`, outerKey: scope.loop ? keyOf(scope.loop) : "undefined" } }
        : { context, parent: scope, loop: scope.loop };
    const program = this.program(node.program, name === "each" || name === "with" ? inner : scope);
    const inverse = this.program(node.inverse, scope);
    switch (name) {
      case "if":
        return `if (isEmpty(${argument}, ${includeZero})) {\n${inverse}} else {\n${program}}\n`;
      case "unless":
        return `if (isEmpty(${argument}, ${includeZero})) {\n${program}} else {\n${inverse}}\n`;
      case "with":
        return `{\nconst ${context} = ${argument};\nif (isEmpty(${context}, false)) {\n${inverse}} else {\n${program}}\n}\n`;
      default: {
        // Over an array its items, over an object its own enumerable values; anything else non-empty renders nothing.
        const { index, count, keys } = inner.loop!;
        const value = `$v${n}`;
        return (
          `{\nconst ${value} = ${argument};\nif (isEmpty(${value}, false)) {\n${inverse}} else {\n` +
          `const ${keys} = isArray(${value}) || typeof ${value} !== "object" ? undefined : keys(${value});\n` +
          `const ${count} = ${keys} !== undefined ? ${keys}.length : isArray(${value}) ? ${value}.length : 0;\n` +
          `for (let ${index} = 0; ${index} < ${count}; ${index}++) {\nconst ${context} = ${keys} === undefined ? ${value}[${index}] : ${value}[${keys}[${index}]];\n${program}}\n}\n}\n`
        );
      }
    }
  }
}

/**
 * `base` then each own property in turn (undefined as soon as one is missing), written out
 * where it is used: each lookup has its own inline cache in the render function, which stays
 * monomorphic however many layouts (item shapes) a process renders. `$t` holds the value on
 * the way; a chain is evaluated whole before any other starts, so one variable serves all.
 */
function lookup(base: string, parts: readonly string[]): string {
  if (parts.length === 0) return base;
  const keys = parts.map(literal);
  const steps = keys.map((k, i) => `($t = ${i === 0 ? base : `$t[${keys[i - 1]!}]`}) !== null && typeof $t === "object" && hasOwn($t, ${k})`);
  return `(${steps.join(" && ")} ? $t[${keys[keys.length - 1]!}] : undefined)`;
}

/** `@key`: the key of an `#each` over an object; over an array, the enclosing loop's. */
function keyOf(loop: Loop): string {
  return `(${loop.keys} === undefined ? ${loop.outerKey} : ${loop.keys}[${loop.index}])`;
}

const ROOT: Scope = { context: "$c0", parent: undefined, loop: undefined };

/** The render function of a parsed layout, and its tracked mustaches. */
export function generate(ast: hbs.AST.Program, options: GenerateOptions): { render: (context: unknown, filled?: number[]) => string; tracked: string[] } {
  const generator = new Generator(options);
  const body = generator.program(ast, ROOT, options.track);
  const render = instantiate(`function render($c0, filled) {\nlet o = "";\nlet s, $t;\n${body}return o;\n}`, generator.constants, options);
  return { render: render as (context: unknown, filled?: number[]) => string, tracked: generator.tracked };
}

/** Refuses what generate would refuse (CONFIG_INVALID), without compiling anything. */
export function validate(ast: hbs.AST.Program, options: GenerateOptions): void {
  new Generator(options).program(ast, ROOT);
}

/**
 * One function rendering several layouts over the same context into an array, in order: the
 * cells of a column format's row (columns.ts), without a call per cell. `source` of each for
 * its error messages.
 */
export function generateList(list: readonly { ast: hbs.AST.Program; source: string }[], options: Omit<GenerateOptions, "source" | "track">): (context: unknown) => string[] {
  const generator = new Generator({ ...options, source: "", track: false });
  let body = "";
  list.forEach(({ ast, source }, i) => {
    generator.source = source;
    body += `o = "";\n${generator.program(ast, ROOT)}const $r${i} = o;\n`;
  });
  const cells = list.map((_, i) => `$r${i}`).join(", ");
  return instantiate(`function render($c0) {\nlet o, s, $t;\n${body}return [${cells}];\n}`, generator.constants, options) as (context: unknown) => string[];
}
