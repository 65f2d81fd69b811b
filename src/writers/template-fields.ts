/**
 * Which names a layout template uses that its context never has: `{{titel}}`,
 * `{{price.amout}}`, `{{#each gtins}}{{cents}}{{/each}}`. Walks the Handlebars
 * AST with the shape of each scope (`#each` and `#with` open one, `../` and
 * `@root` reach back), so the check follows the template as it renders.
 * Prototype names (`__proto__`, `constructor`, `__lookupGetter__`, ...) are
 * refused wherever they appear: no feed needs them and they are how template
 * injections reach code.
 */
import { checkPath, describeUnknown, type Shape } from "../mapping/field-shapes.js";
import { TEMPLATE_HELPERS } from "./helpers.js";
import { parseTemplate } from "./template-limits.js";

export interface TemplateFieldProblem {
  line: number | undefined;
  message: string;
}

/** Names that reach Object.prototype, never data. */
export const PROTOTYPE_NAMES = new Set([
  "__proto__",
  "constructor",
  "prototype",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
]);

export function prototypeName(steps: readonly string[]): string | undefined {
  return steps.find((s) => PROTOTYPE_NAMES.has(s));
}

const HELPERS = new Set(TEMPLATE_HELPERS);
const ELEMENT_BLOCKS = new Set(["each", "with"]);

class Walker {
  readonly problems: TemplateFieldProblem[] = [];
  constructor(private readonly root: Shape) {}

  private add(node: hbs.AST.Node, message: string): void {
    this.problems.push({ line: node.loc?.start.line, message });
  }

  program(program: hbs.AST.Program | undefined, scopes: Shape[]): void {
    for (const node of program?.body ?? []) this.statement(node, scopes);
  }

  private statement(node: hbs.AST.Node, scopes: Shape[]): void {
    if (node.type === "MustacheStatement") {
      const m = node as hbs.AST.MustacheStatement;
      this.call(m.path, m.params, m.hash, scopes);
    } else if (node.type === "BlockStatement") {
      const b = node as hbs.AST.BlockStatement;
      const name = b.path.type === "PathExpression" ? (b.path as hbs.AST.PathExpression).original : "";
      this.call(b.path, b.params, b.hash, scopes, true);
      const argument = b.params[0];
      const inner = ELEMENT_BLOCKS.has(name) && argument ? this.shapeOf(argument, scopes) : undefined;
      this.program(b.program, inner ? [...scopes, name === "each" ? elementOf(inner) : inner] : scopes);
      this.program(b.inverse, scopes);
    }
  }

  /** A mustache, block or subexpression: the helper's name is not a field; its arguments are. */
  private call(path: hbs.AST.Expression, params: hbs.AST.Expression[], hash: hbs.AST.Hash | undefined, scopes: Shape[], block = false): void {
    const name = path.type === "PathExpression" ? (path as hbs.AST.PathExpression).original : undefined;
    const isHelper = name !== undefined && (HELPERS.has(name) || (block && ["if", "unless", "each", "with"].includes(name)));
    const called = params.length > 0 || (hash?.pairs.length ?? 0) > 0;
    if (name !== undefined && PROTOTYPE_NAMES.has(name)) this.add(path, `"${name}" reaches the prototype, not data`);
    // A call of something not a helper is the compiler's "unknown helper", not a field.
    else if (!isHelper && !called) this.expression(path, scopes);
    for (const p of params) this.expression(p, scopes);
    for (const pair of hash?.pairs ?? []) this.expression(pair.value, scopes);
  }

  private expression(node: hbs.AST.Expression, scopes: Shape[]): void {
    if (node.type === "SubExpression") {
      const s = node as hbs.AST.SubExpression;
      this.call(s.path, s.params, s.hash, scopes);
    } else if (node.type === "PathExpression") {
      this.shapeOf(node, scopes);
    }
  }

  /** The shape a path points at (checked on the way), or undefined when it is unknown. */
  private shapeOf(node: hbs.AST.Expression, scopes: Shape[]): Shape | undefined {
    if (node.type !== "PathExpression") return undefined;
    const p = node as hbs.AST.PathExpression;
    const parts = [...p.parts];
    const forbidden = prototypeName(parts);
    if (forbidden !== undefined) {
      this.add(node, `"${p.original}" reaches the prototype (${forbidden}), not data`);
      return undefined;
    }
    let base: Shape | undefined;
    if (p.data) {
      if (parts[0] !== "root") return undefined; // @index, @key, @first, @last: always there
      base = this.root;
      parts.shift();
    } else base = scopes[Math.max(0, scopes.length - 1 - p.depth)];
    if (base === undefined) return undefined;
    const unknown = checkPath(base, parts, p.original);
    if (unknown) {
      this.add(node, describeUnknown(unknown));
      return undefined;
    }
    return walk(base, parts);
  }
}

function elementOf(shape: Shape): Shape {
  if (shape.kind === "list") return shape.of;
  return { kind: "any" }; // `#each` over an object: its values
}

function walk(shape: Shape, steps: readonly string[]): Shape {
  let current = shape;
  for (const step of steps) {
    while (current.kind === "list") current = current.of;
    if (current.kind !== "object") return current;
    current = current.fields[step] ?? { kind: "any" };
  }
  return current;
}

/** Problems of one template over a context of this shape; a template that does not parse, or is too large or deep, has none here (the compiler says why). */
export function templateFieldProblems(template: string, shape: Shape): TemplateFieldProblem[] {
  let ast: hbs.AST.Program;
  try {
    ast = parseTemplate(template, "");
  } catch {
    return [];
  }
  const walker = new Walker(shape);
  walker.program(ast, [shape]);
  return walker.problems;
}
