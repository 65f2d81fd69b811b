/**
 * The size and depth a layout template may have, checked when it is loaded (validate and
 * generate alike), so that what validate accepts generate renders.
 *
 * Why: Handlebars' parser and every walk over its tree (its own whitespace pass, our
 * compiler, the field check) recurse once per nested block or subexpression, and a render
 * function nests its code as deep; a few thousand levels overflow the stack (a RangeError,
 * not a config error), and the compiled code grows with depth times size. No feed layout
 * comes near these limits: the built-in ones nest three blocks and two subexpressions.
 *
 * The text is scanned first, in one pass without recursion (`scanDepth`), before it is handed
 * to the parser: a hostile text never reaches the parser's recursion. The scan counts
 * generously (a `(` inside a string literal counts), so its bound is twice the real one;
 * the parsed tree is then measured exactly (`checkTree`), without recursion either.
 */
import Handlebars from "handlebars";
import { PharmafeedError } from "../errors.js";

/** Largest template text, in UTF-16 code units (the built-in item layouts are about 2 KB). */
export const MAX_TEMPLATE_LENGTH = 256 * 1024;
/** Deepest nesting of blocks (`{{#if}}`, `{{#each}}`...; each `{{else if}}` of a chain is one more level). */
export const MAX_BLOCK_DEPTH = 64;
/** Deepest nesting of subexpressions, `(a (b (c x)))` is 3. */
export const MAX_SUBEXPRESSION_DEPTH = 16;

function refuse(source: string, message: string, line: number | undefined, column: number | undefined): never {
  const at = line === undefined ? "" : ` on line ${line}, column ${column ?? 0}`;
  throw new PharmafeedError("CONFIG_INVALID", `template ${source}: ${message}${at}`, { context: { file: source, line } });
}

/** Line and column (1-based, 0-based) of an offset in the text. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start };
}

/**
 * An upper bound of the block and subexpression depths, from the text alone: `{{#` and
 * `{{^` open a block, `{{else x}}` chains one more level until the block's `{{/`, a `(`
 * inside a mustache opens a subexpression. Comments are skipped. Refuses at twice the limits.
 */
export function scanDepth(text: string, source: string): void {
  const blocks: number[] = []; // levels each open block holds (1 + its `else if`s)
  let depth = 0;
  let firstBlockOver = -1; // where the depth first went over the limit: the place the message names
  let firstSubOver = -1;
  for (let at = text.indexOf("{{"); at !== -1; ) {
    let from = at + 2;
    if (text[from] === "~") from++;
    if (text[from] === "!") {
      // A comment may hold anything: skipped whole. Unclosed, the parser says so.
      const long = text.startsWith("!--", from);
      const close = long ? Math.min(...["--}}", "--~}}"].map((e) => text.indexOf(e, from + 3)).map((i) => (i === -1 ? Infinity : i))) : text.indexOf("}}", from);
      if (close === -1 || close === Infinity) return;
      at = text.indexOf("{{", close + 2);
      continue;
    }
    const kind = text[from];
    const inverse = kind === "^" && /^\s*~?\}\}/.test(text.slice(from + 1, from + 65)); // `{{^}}`: an else
    if (kind === "#" || (kind === "^" && !inverse)) {
      blocks.push(1);
      depth++;
    } else if (kind === "/") depth -= blocks.pop() ?? 0;
    else if (text.startsWith("else", from) && /^\s+[^\s}~]/.test(text.slice(from + 4, from + 68)) && blocks.length > 0) {
      blocks[blocks.length - 1]!++;
      depth++;
    }
    if (depth <= MAX_BLOCK_DEPTH) firstBlockOver = -1;
    else if (firstBlockOver === -1) firstBlockOver = at;
    if (depth > 2 * MAX_BLOCK_DEPTH) {
      const { line, column } = position(text, firstBlockOver);
      refuse(source, `blocks nest deeper than ${MAX_BLOCK_DEPTH}, which is not supported`, line, column);
    }
    // Subexpressions: parentheses up to the mustache's end (each character is looked at once).
    const close = text.indexOf("}}", from);
    const end = close === -1 ? text.length : close;
    let open = 0;
    for (let i = from; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 40 /* ( */ && ++open > MAX_SUBEXPRESSION_DEPTH && firstSubOver === -1) firstSubOver = i;
      if (c === 40 && open > 2 * MAX_SUBEXPRESSION_DEPTH) {
        const { line, column } = position(text, firstSubOver);
        refuse(source, `subexpressions nest deeper than ${MAX_SUBEXPRESSION_DEPTH}, which is not supported`, line, column);
      } else if (c === 41 /* ) */ && --open <= MAX_SUBEXPRESSION_DEPTH) firstSubOver = -1;
    }
    if (close === -1) return;
    firstSubOver = -1;
    at = text.indexOf("{{", close + 2);
  }
}

type Node = hbs.AST.Node & Record<string, unknown>;

/** The exact depths of a parsed template, walked with a stack: refuses beyond the limits. */
export function checkTree(ast: hbs.AST.Program, source: string): void {
  const stack: { node: Node; blocks: number; subs: number }[] = [{ node: ast as unknown as Node, blocks: 0, subs: 0 }];
  while (stack.length > 0) {
    const { node, blocks, subs } = stack.pop()!;
    let b = blocks;
    let s = subs;
    if (node.type === "BlockStatement" || node.type === "PartialBlockStatement" || node.type === "DecoratorBlock") b++;
    if (node.type === "SubExpression") s++;
    if (b > MAX_BLOCK_DEPTH || s > MAX_SUBEXPRESSION_DEPTH) {
      const what = b > MAX_BLOCK_DEPTH ? `blocks nest deeper than ${MAX_BLOCK_DEPTH}` : `subexpressions nest deeper than ${MAX_SUBEXPRESSION_DEPTH}`;
      refuse(source, `${what}, which is not supported`, node.loc?.start.line, node.loc?.start.column);
    }
    for (const key of ["body", "program", "inverse", "path", "params", "hash", "pairs", "value"]) {
      const child = node[key];
      if (Array.isArray(child)) for (const c of child as Node[]) stack.push({ node: c, blocks: b, subs: s });
      else if (child !== null && typeof child === "object") stack.push({ node: child as Node, blocks: b, subs: s });
    }
  }
}

/**
 * A layout template parsed by Handlebars (which also applies its standalone-line and `~`
 * whitespace rules), within the limits above. Every reader of a layout parses it here.
 */
export function parseTemplate(text: string, source: string): hbs.AST.Program {
  if (text.length > MAX_TEMPLATE_LENGTH) {
    refuse(source, `${text.length} characters is over the ${MAX_TEMPLATE_LENGTH} a template may have`, undefined, undefined);
  }
  scanDepth(text, source);
  let ast: hbs.AST.Program;
  try {
    ast = Handlebars.parse(text);
  } catch (cause) {
    throw new PharmafeedError("CONFIG_INVALID", `template ${source} does not compile: ${(cause as Error).message}`, {
      cause,
      context: { file: source },
    });
  }
  checkTree(ast, source);
  return ast;
}
