/**
 * What a render function written by template-code.ts runs on, and all it can reach: its
 * constants (`$k0`...: helpers, numbers, booleans from the layout) and the functions below.
 */
import { Markup, text } from "./helpers.js";
import { isClean } from "./sanitize.js";
import type { Escaper } from "./template.js";

/** What a checked render throws at a value sanitizing would change (template.ts turns it into undefined). */
export const UNCLEAN: unique symbol = Symbol("unclean context");

/** Handlebars' truthiness: false, null, undefined, "", 0 (unless includeZero) and [] are empty. */
function isEmpty(value: unknown, includeZero: boolean): boolean {
  if (value === 0) return !includeZero;
  return !value || (Array.isArray(value) && value.length === 0);
}

function unclean(): never {
  throw UNCLEAN;
}

/** The functions a render uses, for one escaper; `look` as in GenerateOptions.check. */
function runtime(escape: Escaper, look: RegExp | undefined) {
  function esc(value: unknown): string {
    return typeof value === "string" ? escape(value) : value instanceof Markup ? value.value : escape(text(value));
  }
  function check(value: unknown): unknown {
    return isClean(value) ? value : unclean();
  }
  /** A block's argument: only its emptiness counts, which cleaning changes for a string alone. */
  function checkText(value: unknown): unknown {
    return typeof value !== "string" || isClean(value) ? value : unclean();
  }
  /** `{{path}}` in a checked render: for most strings one scan says clean and nothing to escape. */
  function escChecked(value: unknown): string {
    if (typeof value !== "string") return esc(check(value));
    return look !== undefined && !look.test(value) ? value : isClean(value) ? escape(value) : unclean();
  }
  return { hasOwn: Object.hasOwn, isEmpty, text, isArray: Array.isArray, keys: Object.keys, esc, check, checkText, escChecked };
}

/** The function whose source is `render` (`function render(...) {...}`), over `constants` and the runtime. */
export function instantiate(render: string, constants: readonly unknown[], options: { escape: Escaper; check?: { look: RegExp | undefined } | undefined }): unknown {
  const names = constants.map((_, i) => `$k${i} = k[${i}]`);
  const code =
    `"use strict";\nconst { hasOwn, isEmpty, text, esc, isArray, keys, check, checkText, escChecked } = rt;\n` +
    (names.length > 0 ? `const ${names.join(", ")};\n` : "") +
    `return ${render};`;
  const factory = new Function("k", "rt", code) as (k: readonly unknown[], rt: ReturnType<typeof runtime>) => unknown;
  return factory(constants, runtime(options.escape, options.check?.look));
}
