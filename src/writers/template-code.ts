/**
 * A Handlebars AST to the source of one JavaScript function (template.ts), compiled
 * with `new Function`. Layouts are user files, so nothing taken from one is ever code:
 * its text, path segments and string literals are written as JSON string literals
 * (`literal`), every other value it names (helpers, numbers, booleans) as a variable
 * bound to an entry of the constants array. Every identifier is ours (`$c1`, `$i2`...).
 *
 * The shape of the output, for `<a>{{#each xs}}{{this}}{{/each}}</a>`:
 *
 *   let o = "";
 *   o += "<a>";
 *   { const $v1 = (hasOwn($c0, "xs") ? $c0["xs"] : undefined);
 *     const $ks1 = ...keys of an object, else undefined; const $n1 = ...count;
 *     if ($n1 === 0) {} else for (let $i1 = 0; $i1 < $n1; $i1++) { const $c1 = ...; o += esc($c1); } }
 *   o += "</a>";
 *
 * It renders what the Handlebars runtime renders (test/writers/template-diff.test.ts holds
 * it to that), or refuses the layout when it is loaded: what a feed layout has no use for
 * (partials, decorators, block parameters, hash arguments of helpers, Handlebars' own
 * `lookup` and `log`, a literal as a helper's name, data names other than `@index`,
 * `@key`, `@first`, `@last` and `@root`) is refused with the file, line and column.
 * A block that calls its program binds the program's context to a `$c` variable, and
 * the chain of those variables (`levels`) gives `../` its value (template-paths.ts).
 */
import { PharmafeedError } from "../errors.js";
import type { Helper } from "./helpers.js";
import type { Escaper } from "./template.js";
import { contextLookup, dataLookup, literal, upFunction } from "./template-paths.js";
import { instantiate } from "./template-runtime.js";

export { literal };

type Node = hbs.AST.Node;
type Expression = hbs.AST.Expression;

const BLOCKS = new Set(["if", "unless", "each", "with"]);
/** Handlebars' own helpers besides the blocks: a feed layout has no use for them. */
const HANDLEBARS_HELPERS = new Set(["lookup", "log", "helperMissing", "blockHelperMissing"]);
const DATA_NAMES = new Set(["index", "key", "first", "last", "root"]);

/** An `#each`'s data frame: its loop variables. */
interface Frame {
  index: string;
  count: string;
  keys: string;
}

/** Where a node sits. */
interface Scope {
  /** The variable holding `this`. */
  context: string;
  /** `this` is never null or undefined here (the root, a `#with`'s value). */
  known: boolean;
  /** The contexts the enclosing programs were called with, the root first: `../` walks them. */
  levels: readonly string[];
  /** The enclosing `#each`s' data frames, outermost first (`@index`, `@../index`). */
  frames: readonly Frame[];
  /** `this` may be NaN, which `!=` itself: every program called with it pushes it again for `../`. */
  nan?: boolean;
}

export interface GenerateOptions {
  escape: Escaper;
  helpers: Record<string, Helper>;
  /** The layout file, for error messages. */
  source: string;
  /** Mark the top-level mustaches a render fills (RenderFn's `filled`). */
  track: boolean;
  /** Mustaches written inside an XML attribute value (xml-context.ts): escaped by `escapeAttribute`. */
  attributes?: ReadonlySet<Node> | undefined;
  escapeAttribute?: Escaper | undefined;
  /**
   * Check every value read from the context (sanitize.ts's isClean) and throw UNCLEAN
   * (template-runtime.ts) at the first one sanitizing would change. `look`: a string it does
   * not match is both clean and left as it is by the escaper (`lookAttribute`: by the
   * attribute escaper), so that one scan decides both; without it, both look.
   */
  check?: { look: RegExp | undefined; lookAttribute?: RegExp | undefined } | undefined;
}

function isPath(node: Node): node is hbs.AST.PathExpression {
  return node.type === "PathExpression";
}

class Generator {
  /** Top-level mustaches, `{{name}}` (line N): what a template's "columns" are for the empty-column check. */
  readonly tracked: string[] = [];
  readonly constants: unknown[] = [];
  /** Functions the render calls, defined once beside it (`../` walks). */
  readonly prelude = new Map<string, string>();
  private names = 0;
  /** The layout file of the program being generated, for error messages. */
  source: string;

  constructor(private readonly options: GenerateOptions) {
    this.source = options.source;
  }

  private refuse(message: string, node: Node): never {
    const start = node.loc?.start;
    throw new PharmafeedError("CONFIG_INVALID", `template ${this.source}: ${message} on line ${start?.line ?? "?"}, column ${start?.column ?? "?"}`, {
      context: { file: this.source, line: start?.line },
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
    if (program?.blockParams && program.blockParams.length > 0) this.refuse(`block parameters (as |${program.blockParams.join(" ")}|) are not supported`, program);
    this.leadingValues(program);
    let code = "";
    for (const node of program?.body ?? []) code += top && node.type === "MustacheStatement" ? this.track(node as hbs.AST.MustacheStatement, scope) : this.statement(node, scope);
    return code;
  }

  /**
   * Handlebars writes a program as one `+` expression over its parts (JavaScriptCompiler's
   * mergeSource), and a raw mustache or a block hands its value on as it is: two of them at the
   * start of a program are added as values (`{{{a}}}{{{b}}}` with 1 and 2 renders 3, `{{{@first}}}`
   * calls the helper `first`). Refused rather than imitated: no feed wants it.
   */
  private leadingValues(program: hbs.AST.Program | undefined): void {
    const parts = (program?.body ?? []).filter((n) => n.type !== "CommentStatement" && !(n.type === "ContentStatement" && (n as hbs.AST.ContentStatement).value === ""));
    const second = parts[1];
    if (second && mayBeValue(parts[0]!) && mayBeValue(second)) {
      this.refuse("two raw values ({{{x}}} or a block holding only such) start this block or layout: Handlebars adds them as numbers; put text between them or write {{x}}", second);
    }
    for (const part of parts) {
      if (part.type !== "MustacheStatement") continue;
      const path = (part as hbs.AST.MustacheStatement).path;
      if (isPath(path) && path.data && path.depth === 0 && path.parts.length === 1 && (part as hbs.AST.MustacheStatement).params.length === 0 && Object.hasOwn(this.options.helpers, path.parts[0]!)) {
        this.refuse(`{{${path.original}}} calls Handlebars' helper "${path.parts[0]!}", not the loop's value: write {{#if ${path.original}}}...{{/if}}`, part);
      }
    }
  }

  /** A top-level mustache: marks `filled` once it renders something; a column seen filled costs nothing more. */
  private track(node: hbs.AST.MustacheStatement, scope: Scope): string {
    const value = this.mustache(node, scope);
    const k = this.tracked.length;
    const name = isPath(node.path) ? node.path.original : "?";
    this.tracked.push(`{{${[name, ...node.params.map((p) => (isPath(p) ? p.original : "…"))].join(" ")}}} (line ${node.loc?.start.line ?? "?"})`);
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
    const attribute = this.options.attributes?.has(m) === true;
    if (this.options.check && m.escaped && isPath(m.path) && m.params.length === 0 && !m.hash && this.helperOf(m.path, m) === undefined) {
      return `${attribute ? "escAChecked" : "escChecked"}(${this.path(m.path, scope)})`; // the common `{{title}}`: one scan checks and escapes
    }
    const value = this.call(m.path, m.params, m.hash, m, scope, false);
    return m.escaped ? `${attribute ? "escA" : "esc"}(${value})` : `text(${value})`;
  }

  /** The helper a mustache, block or subexpression names, or undefined for a plain path. */
  private helperOf(path: Expression, node: Node): Helper | undefined {
    if (!isPath(path)) return this.refuse(`a literal cannot name a value or a helper ({{${(path as hbs.AST.StringLiteral).original}}}); write the name without quotes, or [in brackets]`, node);
    const name = path.original;
    // As Handlebars: only a plain name (no `this.`, `./`, `../`, `@`, no dots) may be a helper.
    const simple = path.parts.length === 1 && path.depth === 0 && !path.data && !/^\.|this\b/.test(name);
    if (!simple) return undefined;
    if (BLOCKS.has(name)) this.refuse(`"${name}" is a block helper: write {{#${name} ...}}...{{/${name}}}`, node);
    if (HANDLEBARS_HELPERS.has(name)) this.refuse(`the Handlebars helper "${name}" is not supported in feed layouts`, node);
    // Own helpers only: `{{__lookupGetter__ "__proto__"}}` or `{{constructor}}` must not reach Object.prototype.
    return Object.hasOwn(this.options.helpers, name) ? this.options.helpers[name] : undefined;
  }

  /** A mustache or subexpression: a helper call, or a plain value. */
  private call(path: Expression, params: Expression[], hash: hbs.AST.Hash | undefined, node: Node, scope: Scope, sub: boolean): string {
    const helper = this.helperOf(path, node);
    const name = (path as hbs.AST.PathExpression).original;
    if (helper) {
      if (hash) this.refuse(`helper "${name}" takes no hash arguments (${hash.pairs.map((p) => `${p.key}=`).join(" ")})`, node);
      // Handlebars hands a subexpression's SafeString on as an object: only a mustache may hold a CDATA section.
      if (sub && name === "cdata") this.refuse(`(cdata ...) can only be a mustache's value: {{cdata x}}`, node);
      const args = params.map((p) => this.expression(p, scope));
      return `${this.constant(helper)}(${args.join(", ")})`;
    }
    if (params.length > 0 || hash || sub) this.refuse(`unknown helper "${name}"`, node);
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
        return this.call(s.path, s.params, s.hash, node, scope, true);
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
    const checked = this.options.check !== undefined;
    if (node.data) {
      const [name = "", ...rest] = node.parts;
      if (!DATA_NAMES.has(name)) this.refuse(`@${name} is not supported (@index, @key, @first, @last, @root are)`, node);
      // Data frames: one per enclosing #each, below them the root's, which holds @root only.
      const f = scope.frames.length - 1 - node.depth;
      const frame = scope.frames[f];
      let base: string;
      if (name === "root") base = f >= -1 ? "$c0" : "undefined";
      else if (!frame) base = "undefined";
      else if (name === "index") base = frame.index;
      else if (name === "first") base = `(${frame.index} === 0)`;
      else if (name === "last") base = `(${frame.index} === ${frame.count} - 1)`;
      else base = `(${frame.keys} === undefined ? ${frame.index} : ${frame.keys}[${frame.index}])`;
      return dataLookup(base, rest, checked);
    }
    if (node.depth === 0) return contextLookup(scope.context, node.parts, checked, scope.known);
    const levels = scope.levels;
    if (node.depth >= levels.length) return "undefined"; // above the root: Handlebars' depths[n] is undefined
    const up = `$up${levels.length}_${node.depth}`;
    if (!this.prelude.has(up)) this.prelude.set(up, upFunction(up, levels.length, node.depth));
    // `!=` between strings is what cleaning may change: a checked render gives up on an unclean one.
    const args = checked ? levels.map((l) => `checkText(${l})`) : levels;
    return contextLookup(`${up}(${args.join(", ")})`, node.parts, checked, false);
  }

  /** A branch Handlebars calls with `this`: the helper's `this`, Handlebars' null context for null or undefined. */
  private same(scope: Scope): { bind: string; scope: Scope } {
    if (scope.known) return { bind: "", scope: scope.nan ? { ...scope, levels: [...scope.levels, scope.context] } : scope };
    const context = `$c${this.fresh()}`;
    return {
      bind: `const ${context} = ${scope.context} != null ? ${scope.context} : NULLCTX;\n`,
      scope: { context, known: true, levels: [...scope.levels, context], frames: scope.frames, nan: true },
    };
  }

  private block(node: hbs.AST.BlockStatement, scope: Scope): string {
    if (!isPath(node.path)) return this.refuse("a literal cannot name a block", node);
    const name = node.path.original;
    if (!BLOCKS.has(name)) {
      return this.refuse(Object.hasOwn(this.options.helpers, name) ? `"${name}" is not a block helper` : `unknown helper "${name}"`, node);
    }
    for (const p of [node.program, node.inverse]) if (p?.blockParams && p.blockParams.length > 0) this.refuse(`block parameters (as |${p.blockParams.join(" ")}|) are not supported`, node);
    if (node.params.length !== 1) this.refuse(`#${name} takes one argument`, node);
    const pairs = node.hash?.pairs ?? [];
    const extra = pairs.filter((p) => p.key !== "includeZero" || (name !== "if" && name !== "unless"));
    if (extra.length > 0) this.refuse(`#${name} takes no ${extra[0]!.key}=`, node);
    const argument = this.expression(node.params[0]!, scope, true);
    const zeroValue = pairs[0]?.value;
    const includeZero = zeroValue === undefined ? "false" : zeroValue.type === "BooleanLiteral" ? String((zeroValue as hbs.AST.BooleanLiteral).value) : `!!${this.expression(zeroValue, scope, true)}`;
    const n = this.fresh();
    const value = `$v${n}`;
    const other = this.same(scope);
    switch (name) {
      case "if":
      case "unless": {
        const yes = this.program(node.program, other.scope);
        const no = this.program(node.inverse, other.scope);
        const [empty, full] = name === "if" ? [no, yes] : [yes, no];
        return `{\n${other.bind}if (isEmpty(${argument}, ${includeZero})) {\n${empty}} else {\n${full}}\n}\n`;
      }
      case "with": {
        // 0 is a value here (Utils.isEmpty), unlike #if's.
        const inner: Scope = { context: value, known: true, levels: [...scope.levels, value], frames: scope.frames };
        const program = this.program(node.program, inner);
        const inverse = this.program(node.inverse, other.scope);
        return `{\nconst ${value} = ${argument};\nif (isEmpty(${value}, true)) {\n${other.bind}${inverse}} else {\n${program}}\n}\n`;
      }
      default: {
        // Over an array its items, over an object its own enumerable values; anything else is no item: the else.
        const frame: Frame = { index: `$i${n}`, count: `$n${n}`, keys: `$ks${n}` };
        const context = `$c${n}`;
        const inner: Scope = { context, known: false, levels: [...scope.levels, context], frames: [...scope.frames, frame] };
        const program = this.program(node.program, inner);
        const inverse = this.program(node.inverse, other.scope);
        const { index, count, keys } = frame;
        return (
          `{\nconst ${value} = ${argument};\n` +
          `const ${keys} = ${value} !== null && typeof ${value} === "object" && !isArray(${value}) ? keys(${value}) : undefined;\n` +
          `const ${count} = ${keys} !== undefined ? ${keys}.length : isArray(${value}) ? ${value}.length : 0;\n` +
          `if (${count} === 0) {\n${other.bind}${inverse}} else {\n` +
          `for (let ${index} = 0; ${index} < ${count}; ${index}++) {\nconst ${context} = ${keys} === undefined ? ${value}[${index}] : ${value}[${keys}[${index}]];\n${program}}\n}\n}\n`
        );
      }
    }
  }
}

/** A part of a program whose value Handlebars may hand on as a number or boolean (see leadingValues). */
function mayBeValue(node: Node): boolean {
  if (node.type === "MustacheStatement") return !(node as hbs.AST.MustacheStatement).escaped;
  if (node.type !== "BlockStatement") return false;
  const block = node as hbs.AST.BlockStatement;
  const whole = (p: hbs.AST.Program | undefined) => {
    const parts = (p?.body ?? []).filter((n) => n.type !== "CommentStatement" && !(n.type === "ContentStatement" && (n as hbs.AST.ContentStatement).value === ""));
    return parts.length > 0 && parts.every(mayBeValue);
  };
  const name = isPath(block.path) ? block.path.original : "";
  return (name !== "each" && whole(block.program)) || whole(block.inverse);
}

/** The root: render functions are called with an object (a feed item, the feed's header values). */
const ROOT: Scope = { context: "$c0", known: true, levels: ["$c0"], frames: [] };

function source(generator: Generator, render: string): string {
  return [...generator.prelude.values()].join("") + `return ${render};`;
}

/** The render function of a parsed layout, and its tracked mustaches. */
export function generate(ast: hbs.AST.Program, options: GenerateOptions): { render: (context: unknown, filled?: number[]) => string; tracked: string[] } {
  const generator = new Generator(options);
  const body = generator.program(ast, ROOT, options.track);
  const render = instantiate(source(generator, `function render($c0, filled) {\nlet o = "";\nlet s, $t;\n${body}return o;\n}`), generator.constants, options);
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
  return instantiate(source(generator, `function render($c0) {\nlet o, s, $t;\n${body}return [${cells}];\n}`), generator.constants, options) as (context: unknown) => string[];
}
