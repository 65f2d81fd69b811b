/** Helpers every layout may use. Pure functions of their arguments. */
import { urlInList } from "../mapping/feed-url.js";

/** A value that is final markup (a CDATA section): the escaper lets it through. */
export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Handlebars' rendering of a value: nothing for null/undefined, else its string. */
export function text(value: unknown): string {
  return value === undefined || value === null ? "" : value instanceof Markup ? value.value : String(value);
}

export type Helper = (...args: unknown[]) => unknown;

export function layoutHelpers(cdataSection: (value: string) => string): Record<string, Helper> {
  return {
    /** `{{cdata description}}`: a CDATA section (XML only). */
    cdata: (value) => new Markup(cdataSection(text(value))),
    /** `{{join gtins "|"}}`: a list as one value. */
    join: (list, separator) => (Array.isArray(list) ? list.map(text).join(typeof separator === "string" ? separator : ",") : text(list)),
    /**
     * `{{urls ";" imageLink additionalImageLinks}}`: URLs (values or lists) joined by the separator,
     * empty ones left out, the separator percent-encoded inside each URL so that none can split.
     */
    urls: (separator, ...values) => {
      const sep = typeof separator === "string" ? separator : ",";
      const out: string[] = [];
      for (const v of values.flat()) {
        const url = text(v);
        if (url !== "") out.push(urlInList(url, sep));
      }
      return out.join(sep);
    },
    /** `{{first additionalImageLinks}}` */
    first: (list) => (Array.isArray(list) ? list[0] : undefined),
    /** `{{default brand "Unknown"}}` */
    default: (value, fallback) => (value === undefined || value === null || value === "" ? fallback : value),
    /** `{{yesno prescription}}` -> "yes" / "no" */
    yesno: (value) => (value ? "yes" : "no"),
    /** `{{eq a b}}` for `{{#if (eq a b)}}` */
    eq: (a, b) => a === b,
    /** `{{replace availability "_" " "}}` */
    replace: (value, search, replacement) => text(value).replaceAll(text(search), text(replacement)),
    /** `{{upper x}}`, `{{lower x}}` */
    upper: (value) => text(value).toUpperCase(),
    lower: (value) => text(value).toLowerCase(),
    /** `{{add @index 1}}`: numbering from 1 (beslist's imagelink_1, imagelink_2, ...). */
    add: (a, b) => Number(a) + Number(b),
  };
}

export const TEMPLATE_HELPERS = Object.keys(layoutHelpers(String));
