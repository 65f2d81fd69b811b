/**
 * Tiny `{{name}}` templates (titles, links, ids, custom fields), compiled once
 * per channel into a list of parts. `{{x}}` inserts the value (URL-encoded in
 * link templates), `{{{x}}}` inserts it raw. No logic, no helpers, no eval:
 * anything cleverer belongs in the channel's writer templates.
 */
export type ValueFn<S> = (subject: S) => string | undefined;

export interface Rendered {
  text: string;
  /** The first variable that had no value, if any. */
  missing: string | undefined;
}

export interface CompiledTemplate<S> {
  source: string;
  /** Names of the variables, in order. */
  variables: string[];
  render(subject: S): Rendered;
}

const TOKEN = /\{\{\{\s*([^{}]+?)\s*\}\}\}|\{\{\s*([^{}]+?)\s*\}\}/g;

/** The variables a template names, in order (`{{brand}} {{{publicPageUrl}}}` -> brand, publicPageUrl). */
export function templateVariables(source: string): string[] {
  return [...source.matchAll(TOKEN)].map((m) => (m[1] ?? m[2] ?? "").trim());
}

type Part<S> = string | { name: string; get: ValueFn<S>; encode: boolean };

export function compileTemplate<S>(source: string, resolve: (name: string) => ValueFn<S>, options: { urlEncode?: boolean } = {}): CompiledTemplate<S> {
  const parts: Part<S>[] = [];
  const variables: string[] = [];
  let last = 0;
  for (const m of source.matchAll(TOKEN)) {
    if (m.index > last) parts.push(source.slice(last, m.index));
    const raw = m[1] !== undefined;
    const name = (m[1] ?? m[2] ?? "").trim();
    variables.push(name);
    parts.push({ name, get: resolve(name), encode: options.urlEncode === true && !raw });
    last = m.index + m[0].length;
  }
  if (last < source.length) parts.push(source.slice(last));
  return {
    source,
    variables,
    render(subject: S): Rendered {
      let text = "";
      let missing: string | undefined;
      for (const part of parts) {
        if (typeof part === "string") {
          text += part;
          continue;
        }
        const value = part.get(subject);
        if (value === undefined || value === "") {
          missing ??= part.name;
          continue;
        }
        text += part.encode ? encodeURIComponent(value) : value;
      }
      return { text, missing };
    },
  };
}
