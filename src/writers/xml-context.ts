/**
 * Which mustaches of an XML layout write into an attribute value (`<a href="{{link}}">`):
 * there a tab, LF or CR must be a character reference, or every XML parser normalises it to
 * a space (XML 1.0 section 3.3.3), while text content keeps them as they are.
 *
 * The layout's text is followed with a small lexer (text, tag, quoted attribute value,
 * comment, CDATA, processing instruction). A block may leave the lexer in more than one
 * state (`{{#if x}}<a b="{{/if}}`): states are a set, a branch's states join, an `#each`'s
 * program runs until its states settle. A mustache that may be in an attribute value is
 * escaped as one: a character reference reads the same in text content.
 */

const TEXT = 1;
const TAG = 2;
const DOUBLE = 4;
const SINGLE = 8;
const COMMENT = 16;
const CDATA = 32;
const PI = 64;
const ATTRIBUTE = DOUBLE | SINGLE;

/** The state after `text` from one state. */
function lex(state: number, text: string): number {
  let s = state;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    switch (s) {
      case TEXT:
        if (c !== "<") break;
        if (text.startsWith("<!--", i)) s = COMMENT;
        else if (text.startsWith("<![CDATA[", i)) s = CDATA;
        else if (text.startsWith("<?", i)) s = PI;
        else s = TAG;
        break;
      case TAG:
        if (c === '"') s = DOUBLE;
        else if (c === "'") s = SINGLE;
        else if (c === ">") s = TEXT;
        break;
      case DOUBLE:
        if (c === '"') s = TAG;
        break;
      case SINGLE:
        if (c === "'") s = TAG;
        break;
      case COMMENT:
        if (text.startsWith("-->", i)) s = TEXT;
        break;
      case CDATA:
        if (text.startsWith("]]>", i)) s = TEXT;
        break;
      default:
        if (text.startsWith("?>", i)) s = TEXT;
    }
  }
  return s;
}

class Walker {
  readonly attributes = new Set<hbs.AST.Node>();

  program(program: hbs.AST.Program | undefined, states: number): number {
    let s = states;
    for (const node of program?.body ?? []) s = this.node(node, s);
    return s;
  }

  private node(node: hbs.AST.Node, states: number): number {
    if (node.type === "ContentStatement") {
      const text = (node as hbs.AST.ContentStatement).value;
      let out = 0;
      for (let bit = 1; bit <= PI; bit <<= 1) if (states & bit) out |= lex(bit, text);
      return out;
    }
    if (node.type === "MustacheStatement") {
      if (states & ATTRIBUTE) this.attributes.add(node);
      return states;
    }
    if (node.type !== "BlockStatement") return states;
    const block = node as hbs.AST.BlockStatement;
    let program = this.program(block.program, states);
    // An #each runs its program again from where the last item left the text.
    for (let start = states | program; block.path.type === "PathExpression" && (block.path as hbs.AST.PathExpression).original === "each"; ) {
      program = this.program(block.program, start);
      if ((start | program) === start) break;
      start |= program;
    }
    return program | (block.inverse ? this.program(block.inverse, states) : states);
  }
}

/** The mustaches of an XML template that may write into an attribute value. */
export function attributeMustaches(ast: hbs.AST.Program): ReadonlySet<hbs.AST.Node> {
  const walker = new Walker();
  walker.program(ast, TEXT);
  return walker.attributes;
}
