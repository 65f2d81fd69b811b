/**
 * Localized strings resolve along the channel's chain (locale, then fallbacks).
 * Missing keys, null and blank strings count as missing. Which locale answered
 * is returned so the item can record fallbacks for the run report.
 */
export interface Resolved {
  value: string;
  locale: string;
}

/** The lookup chain: the channel locale, its language without region ("fr-BE" -> "fr"), then the fallbacks. */
export function localeChain(locale: string, fallbacks: readonly string[]): string[] {
  const chain: string[] = [];
  const add = (l: string) => {
    if (!chain.includes(l)) chain.push(l);
  };
  add(locale);
  const base = locale.split(/[-_]/)[0];
  if (base !== undefined) add(base);
  for (const l of fallbacks) add(l);
  return chain;
}

function isBlank(s: string): boolean {
  return s.length === 0 || s.trim().length === 0;
}

/**
 * A plain string (brand names are sometimes sent unlocalized) counts as the
 * channel's own locale; an object is looked up along the chain.
 */
export function resolveLocalized(value: unknown, chain: readonly string[]): Resolved | undefined {
  if (typeof value === "string") {
    return isBlank(value) ? undefined : { value, locale: chain[0] ?? "" };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  for (const locale of chain) {
    const v = record[locale];
    if (typeof v === "string" && !isBlank(v)) return { value: v, locale };
  }
  return undefined;
}

/** The locales a localized value has text in, sorted; a plain string has none (it is language-neutral). */
export function localesWithText(value: unknown): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
  const record = value as Record<string, unknown>;
  return Object.keys(record)
    .filter((k) => typeof record[k] === "string" && !isBlank(record[k]))
    .sort();
}

/** Like resolveLocalized, then any locale at all: for values that are the same in every language (brand names). */
export function resolveAnyLocale(value: unknown, chain: readonly string[]): Resolved | undefined {
  const r = resolveLocalized(value, chain);
  if (r !== undefined) return r;
  const other = localesWithText(value)[0];
  return other === undefined ? undefined : resolveLocalized(value, [other]);
}
