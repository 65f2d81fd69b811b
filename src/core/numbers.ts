/**
 * Numbers, sizes, percentages and plurals in the page's (or an alert's) language, by Intl: `1,2 Mo`
 * and `37,0 %` in French, `1.011` in Dutch, never an English `1.2 MB` on a French page. Formatters
 * are built once per language (constructing one costs far more than formatting).
 */
/** A BCP 47 language the page or an alert speaks ("en", "fr", "nl"). */
type Language = string;

const cache = new Map<string, Intl.NumberFormat>();

function formatter(lang: Language, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${lang}|${key}`;
  let f = cache.get(id);
  if (!f) cache.set(id, (f = new Intl.NumberFormat(lang, options)));
  return f;
}

/** A count: 1,011 / 1 011 / 1.011. */
export function count(n: number, lang: Language): string {
  return formatter(lang, "count", { maximumFractionDigits: 0 }).format(n);
}

/** A decimal with one digit, as the gate's percentages are written (37.0 -> 37,0 in French). */
export function decimal(n: number, lang: Language): string {
  return formatter(lang, "decimal", { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(n);
}

const UNITS = ["kilobyte", "megabyte", "gigabyte"] as const;

/** A file size in the language's units: 134 kB, 1,2 Mo, 512 octets (binary steps, as the run summary). */
export function bytes(n: number, lang: Language): string {
  if (n < 1024) return formatter(lang, "byte", { style: "unit", unit: "byte", unitDisplay: "long" }).format(n);
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = value < 10 ? 1 : 0;
  return formatter(lang, `${UNITS[unit]}${digits}`, { style: "unit", unit: UNITS[unit]!, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

const plurals = new Map<Language, Intl.PluralRules>();

/** The form of a word for `n` by the language's plural rules (French: 0 and 1 are singular). */
export function plural(n: number, forms: { one: string; other: string }, lang: Language): string {
  let rules = plurals.get(lang);
  if (!rules) plurals.set(lang, (rules = new Intl.PluralRules(lang)));
  return rules.select(n) === "one" ? forms.one : forms.other;
}
