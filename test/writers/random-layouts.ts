/**
 * Seeded random layouts within the supported Handlebars subset (template-code.ts): paths
 * (`this`, `../`, dotted, `[0]`, `length`), data names (`@index`, `@key`, `@first`, `@last`,
 * `@root`, `@../index`), literals, our helpers and subexpressions, the blocks `if`, `unless`
 * (includeZero as a literal or a path), `each`, `with` with `else` and `else if`, raw and
 * `~` mustaches, and text with line breaks and indentation around block tags (the
 * standalone-line rules). And contexts that reach Handlebars' corners: null items, loosely
 * equal items (`"1"` and `1`), strings, numbers and empty objects where a list is expected.
 */

export function randomLayouts(seed: number) {
  let state = seed >>> 0 || 1;
  // xorshift32: small, seeded, the same sequence on every machine.
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const names = ["s", "n", "zero", "e", "xs", "ys", "o", "o.k", "o.list", "list", "nul", "f", "objs", "empty", "num", "s.length", "s.[0]", "xs.length", "missing", "o.missing.deep"];
  const path = (): string => {
    const r = random();
    if (r < 0.12) return pick(["@index", "@first", "@last", "@key", "@root.s", "@root.o.k", "@root.zero.x", "@../index", "@../key", "@index.x", "@../root.n"]);
    if (r < 0.22) return pick(["this", ".", "this.length", "this.[0]", "this.k", "../this"]);
    return pick(["", "", "", "../", "../../"]) + pick(names);
  };
  const literal = () => pick(['"lit"', '"a b"', '""', "0", "1", "true", "false", "null", "undefined", '"1"']);
  const call = (depth: number): string => {
    const helper = pick(["join", "default", "yesno", "eq", "replace", "upper", "lower", "first", "urls", "add"]);
    const arity = helper === "replace" ? 3 : ["yesno", "upper", "lower", "first"].includes(helper) ? 1 : helper === "urls" ? 3 : 2;
    return `${helper} ${Array.from({ length: arity }, () => argument(depth + 1)).join(" ")}`;
  };
  const argument = (depth: number): string => {
    const r = random();
    if (r < 0.55 || depth > 2) return path();
    if (r < 0.8) return literal();
    return `(${call(depth)})`;
  };
  const mustache = (): string => {
    const value = random() < 0.75 ? path() : call(0);
    const [l, r] = [random() < 0.1 ? "~" : "", random() < 0.1 ? "~" : ""];
    return random() < 0.2 ? `{{${l}{${value}}${r}}}` : `{{${l}${value}${r}}}`;
  };
  const text = () => pick(["<x>", " ", "&", "\n", "\n  ", "a", "  ", "\r\n", ""]);
  /** A block tag, on its own line now and then (standalone) or inline. */
  const tag = (t: string) => (random() < 0.4 ? `\n${pick(["", "  ", "\t"])}${t}${pick(["\n", "  \n", ""])}` : t);
  const body = (depth: number): string => {
    let out = "";
    for (let i = 1 + Math.floor(random() * 3); i > 0; i--) {
      const r = random();
      if (r < 0.3) out += text();
      else if (r < 0.6 || depth > 2) out += mustache();
      else {
        const block = pick(["if", "unless", "each", "with", "if", "each"]);
        const zero = (block === "if" || block === "unless") && random() < 0.3 ? ` includeZero=${pick(["true", "false", "n", "e"])}` : "";
        let inner = tag(`{{#${block} ${argument(1)}${zero}}}`) + body(depth + 1);
        const e = random();
        if (e < 0.2) inner += tag(`{{else if ${argument(1)}}}`) + body(depth + 1) + (random() < 0.5 ? tag("{{else}}") + body(depth + 1) : "");
        else if (e < 0.5) inner += tag(random() < 0.2 ? "{{^}}" : "{{else}}") + body(depth + 1);
        out += inner + tag(`{{/${block}}}`);
      }
    }
    return out;
  };
  return { layout: () => body(0), random };
}

/** Contexts over the names the layouts use. */
export const DIFF_CONTEXTS: Record<string, unknown>[] = [
  { s: "abc", n: 5, zero: 0, e: "", xs: ["1", 2, "x"], ys: [1, "2"], o: { k: "v", list: ["a", "b"] }, list: [{ s: "i1", k: 1 }, { s: "i2" }], nul: null, f: false, objs: { a: { k: "A" }, b: null }, empty: {}, num: 1 },
  { s: "", n: 0, zero: 0, e: "e", xs: [], ys: "str", o: {}, list: [null, "1", 1], nul: null, f: true, objs: {}, empty: [], num: "1" },
  { s: "x", n: "1", zero: "0", e: 0, xs: { a: "1", b: 1 }, ys: [["1"], ["1"]], o: { k: 0, list: [] }, list: [[], {}], nul: undefined, f: 0, objs: { k: "k" }, empty: "", num: 0 },
  { s: "1", n: 1, zero: 0, e: null, xs: ["1", "1"], ys: [1, 1], o: { k: "1", list: [null, null] }, list: "abc", nul: null, f: "", objs: [{ k: "1" }], empty: {}, num: 2 },
  { s: "é\u2028", n: -1, zero: false, e: [0], xs: [0, "", false, null], ys: { x: { y: 1 } }, o: { k: { k: "deep" }, list: [{ k: "z" }] }, list: [{ s: "1" }, { s: 1 }], nul: 0, f: NaN, objs: 7, empty: null, num: 1.5 },
  { s: "abc", n: 5, zero: 0, e: "", xs: "xs", ys: 3, o: "o", list: 0, nul: null, f: false, objs: { a: 1 }, empty: {}, num: 1 },
];
