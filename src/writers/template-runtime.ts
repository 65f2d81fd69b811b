/**
 * What a render function written by template-code.ts runs on, and all it can reach: its
 * constants (`$k0`...: helpers, numbers, booleans from the layout) and the functions below.
 */
import { Markup, text } from "./helpers.js";
import { isClean } from "./sanitize.js";
import type { Escaper } from "./template.js";

/** What a checked render throws at a value sanitizing would change (template.ts turns it into undefined). */
export const UNCLEAN: unique symbol = Symbol("unclean context");

/**
 * Handlebars' null context: the `this` of a helper called where the context is null or
 * undefined (an `#each` item), which the helper hands to its program (`{{#if x}}{{this}}`
 * renders `[object Object]` there).
 */
const NULLCTX: object = Object.seal({});

/**
 * Handlebars' truthiness, `#if`'s: false, null, undefined, "", NaN, 0 (unless includeZero) and []
 * are empty. `#with`'s (Utils.isEmpty) is the same with includeZero.
 */
function isEmpty(value: unknown, includeZero: boolean): boolean {
  if (value === 0) return !includeZero;
  return !value || (Array.isArray(value) && value.length === 0);
}

function unclean(): never {
  throw UNCLEAN;
}

/** The functions a render uses, for one escaper; `look` as in GenerateOptions.check. */
function runtime(escape: Escaper, escapeAttribute: Escaper, check: { look: RegExp | undefined; lookAttribute?: RegExp | undefined } | undefined) {
  const look = check?.look;
  const lookAttribute = check?.lookAttribute;
  function esc(value: unknown): string {
    return typeof value === "string" ? escape(value) : value instanceof Markup ? value.value : escape(text(value));
  }
  function escA(value: unknown): string {
    return typeof value === "string" ? escapeAttribute(value) : value instanceof Markup ? value.value : escapeAttribute(text(value));
  }
  function checkValue(value: unknown): unknown {
    return isClean(value) ? value : unclean();
  }
  /** A block's argument: only its emptiness counts, which cleaning changes for a string alone. */
  function checkText(value: unknown): unknown {
    return typeof value !== "string" || isClean(value) ? value : unclean();
  }
  /** A property of a string (`length`, an index) is the cleaned string's only if it is clean. */
  function hasOwnChecked(value: unknown, key: string): boolean {
    if (typeof value === "string" && !isClean(value)) unclean();
    return Object.hasOwn(value as object, key);
  }
  /** `{{path}}` in a checked render: for most strings one scan says clean and nothing to escape. */
  function escChecked(value: unknown): string {
    if (typeof value !== "string") return esc(checkValue(value));
    return look !== undefined && !look.test(value) ? value : isClean(value) ? escape(value) : unclean();
  }
  function escAChecked(value: unknown): string {
    if (typeof value !== "string") return escA(checkValue(value));
    return lookAttribute !== undefined && !lookAttribute.test(value) ? value : isClean(value) ? escapeAttribute(value) : unclean();
  }
  return { hasOwn: Object.hasOwn, hasOwnChecked, isEmpty, text, isArray: Array.isArray, keys: Object.keys, esc, escA, check: checkValue, checkText, escChecked, escAChecked, NULLCTX };
}

/**
 * The function `code` returns (`function render(...) {...}`, after the functions it calls),
 * over `constants` and the runtime.
 */
export function instantiate(
  code: string,
  constants: readonly unknown[],
  options: { escape: Escaper; escapeAttribute?: Escaper | undefined; check?: { look: RegExp | undefined; lookAttribute?: RegExp | undefined } | undefined },
): unknown {
  const names = constants.map((_, i) => `$k${i} = k[${i}]`);
  const rt = runtime(options.escape, options.escapeAttribute ?? options.escape, options.check);
  const body =
    `"use strict";\nconst { ${Object.keys(rt).join(", ")} } = rt;\n` + (names.length > 0 ? `const ${names.join(", ")};\n` : "") + code;
  const factory = new Function("k", "rt", body) as (k: readonly unknown[], rt: ReturnType<typeof runtime>) => unknown;
  return factory(constants, rt);
}
