/**
 * The code of a path's value (template-code.ts), with the Handlebars runtime's semantics:
 *
 * - a context path (`a.b`, `../a`) steps `v = v != null ? lookupProperty(v, part) : v`: an
 *   own property only (a layout never reaches Object.prototype), a string's own `length` and
 *   indices included, and a null or undefined on the way is the value;
 * - a data path (`@root.a`, `@index.x`) steps `v = v && lookupProperty(v, part)`: a falsy
 *   value on the way is the value (`{{@root.zero.x}}` is `0`);
 * - `../` is `depths[n]`: the stack of contexts the enclosing programs were called with,
 *   where a program's context is pushed only when it `!=` (loosely) the one on top, and
 *   the null context of a helper called on null is not pushed over a null (runtime.js
 *   wrapProgram). `up` writes that walk for one place in the layout.
 *
 * In a checked render (template-runtime.ts) a string whose `length` is read must be clean:
 * `"a\u0001".length` is not the cleaned string's (an index's character is checked as a value).
 */

/** A JavaScript string literal of any string: JSON's, with the two line separators JSON leaves raw escaped as well. */
export function literal(value: string): string {
  return JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** `base` then each part; `known`: base is never null or undefined (the root, a `#with`'s value). */
export function contextLookup(base: string, parts: readonly string[], checked: boolean, known: boolean): string {
  if (parts.length === 0) return base;
  const keys = parts.map(literal);
  const own = (k: string) => (checked && k === '"length"' ? "hasOwnChecked" : "hasOwn");
  const step = (k: string) => `($t = ${own(k)}($t, ${k}) ? $t[${k}] : undefined)`;
  if (known && parts.length === 1 && /^\$c\d+$/.test(base)) return `(${own(keys[0]!)}(${base}, ${keys[0]!}) ? ${base}[${keys[0]!}] : undefined)`;
  const steps = keys.map((k, i) => (i < keys.length - 1 ? `${step(k)} == null` : step(k)));
  return known ? `($t = ${base}, ${steps.join(" || ")}, $t)` : `(($t = ${base}) == null || ${steps.join(" || ")}, $t)`;
}

/** `base` then each part, data-path style (a falsy value stops the walk and is the value). */
export function dataLookup(base: string, parts: readonly string[], checked: boolean): string {
  if (parts.length === 0) return base;
  const keys = parts.map(literal);
  const own = (k: string) => (checked && k === '"length"' ? "hasOwnChecked" : "hasOwn");
  const steps = keys.map((k, i) => `${i < keys.length - 1 ? "!" : ""}($t = ${own(k)}($t, ${k}) ? $t[${k}] : undefined)`);
  return `(!($t = ${base}) || ${steps.join(" || ")}, $t)`;
}

/**
 * The source of `function name(a0, ..., am)` returning `depths[d]` for programs called with
 * the contexts a0 (the root) ... am (the innermost): k0 is depths[0], k1 depths[1]...
 */
export function upFunction(name: string, levels: number, d: number): string {
  const args = Array.from({ length: levels }, (_, i) => `a${i}`);
  const ks = Array.from({ length: d + 1 }, (_, i) => `k${i}`);
  let body = `let ${ks.map((k, i) => (i === 0 ? `${k} = a0` : k)).join(", ")};\n`;
  for (let i = 1; i < levels; i++) {
    const shift = ks
      .slice(1)
      .reverse()
      .map((k, j) => `${k} = k${d - j - 1};`)
      .join(" ");
    body += `if (a${i} != k0 && !(a${i} === NULLCTX && k0 === null)) { ${shift} k0 = a${i}; }\n`;
  }
  return `function ${name}(${args.join(", ")}) {\n${body}return k${d};\n}\n`;
}
