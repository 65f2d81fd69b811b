/**
 * Building blocks of the filter and sorting schemas (spec "Conventions of query
 * endpoints"): one key per filter object, `and`/`or`/`not` nesting, one key per
 * sorting, ASC/DESC, timestamps as a value or a from/until object, identifier
 * filters as one value or a list.
 */
import { z } from "zod";

export const Direction = z.enum(["ASC", "DESC"]);
export type Direction = z.infer<typeof Direction>;

/** One value or a non-empty list of values. */
export function oneOrMany<T extends z.ZodType>(item: T) {
  return z.union([item, z.array(item).min(1, "give at least one value")]);
}

/** A Unix timestamp, or `{from, until}` (either bound may be left out, not both). */
export const TimestampFilter = z.union([
  z.number().int().min(0),
  z
    .strictObject({ from: z.number().int().min(0).optional(), until: z.number().int().min(0).optional() })
    .refine((range) => range.from !== undefined || range.until !== undefined, "give from, until or both"),
]);
export type TimestampFilter = z.infer<typeof TimestampFilter>;

/** A code the spec lists as integer that is also sent as a string (leading zeros). */
export const Code = z.union([z.string().min(1), z.number().int().min(0)]);

/** A GTIN-family code of `width` digits: a digit string of that width, or an integer (zeros lost). */
export function digitsCode(width: number) {
  return z.union([
    z.string().regex(new RegExp(`^\\d{${width}}$`), `expected ${width} digits`),
    z
      .number()
      .int()
      .min(0)
      .max(10 ** width - 1, `expected at most ${width} digits`),
  ]);
}

export type FilterOf<S extends z.ZodRawShape> = { [K in keyof S]?: z.input<S[K]> } & {
  and?: FilterOf<S>[];
  or?: FilterOf<S>[];
  not?: FilterOf<S>;
};

export type SortingOf<S extends z.ZodRawShape> = { [K in keyof S]?: z.input<S[K]> };

function keyCount(what: string, hint: string, allowNone: boolean) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined);
    if (keys.length === 1 || (allowNone && keys.length === 0)) return;
    ctx.addIssue({
      code: "custom",
      message:
        keys.length === 0
          ? `empty ${what}: give exactly one of ${hint}`
          : `a ${what} object takes exactly one key, got ${keys.join(", ")}${what === "filter" ? " (combine with and)" : ""}`,
    });
  };
}

/** Unknown keys are stripped from what a refinement sees: count keys only on a clean object. */
const cleanSoFar = { when: (payload: { issues: unknown[] }) => payload.issues.length === 0 };

function optionalShape(shape: z.ZodRawShape): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, (schema as z.ZodType).optional()]));
}

function unknownKeyError(what: string, known: string[]) {
  return (issue: { code: string; keys?: string[] }) =>
    issue.code === "unrecognized_keys"
      ? `unknown ${what} ${(issue.keys ?? []).map((key) => JSON.stringify(key)).join(", ")}; known: ${known.join(", ")}`
      : undefined;
}

/**
 * A filter schema from the leaf filters of a resource, with the combinators added.
 * `{}` is accepted at the top only, meaning "no condition" (how a required filter
 * says "everything"); nested, an empty filter is a mistake and is refused.
 */
export function filterSchema<S extends z.ZodRawShape>(leaves: S): z.ZodType<FilterOf<S>> {
  const known = [...Object.keys(leaves), "and", "or", "not"];
  const objectOf = (child: z.ZodType) =>
    z.strictObject(
      {
        ...optionalShape(leaves),
        and: z.array(child).min(1, "and takes a non-empty list of filters").optional(),
        or: z.array(child).min(1, "or takes a non-empty list of filters").optional(),
        not: child.optional(),
      },
      { error: unknownKeyError("filter", known) },
    );
  const nested: z.ZodType = z.lazy(() => objectOf(nested).superRefine(keyCount("filter", known.join(", "), false), cleanSoFar));
  return objectOf(nested).superRefine(keyCount("filter", known.join(", "), true), cleanSoFar) as unknown as z.ZodType<FilterOf<S>>;
}

/** A sorting schema: exactly one of the resource's sort keys. */
export function sortingSchema<S extends z.ZodRawShape>(keys: S): z.ZodType<SortingOf<S>> {
  const known = Object.keys(keys);
  return z
    .strictObject(optionalShape(keys), { error: unknownKeyError("sorting", known) })
    .superRefine(keyCount("sorting", known.join(", "), false), cleanSoFar) as unknown as z.ZodType<SortingOf<S>>;
}

/** For endpoints whose filters and sortings the spec does not show: any JSON object, sent as given. */
export const OpenObject = z.record(z.string(), z.unknown());
export type OpenObject = z.infer<typeof OpenObject>;

export const PAGE_SIZES = [10, 50, 100, 250] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

export const Page = z.strictObject({
  no: z.number().int().min(0),
  size: z
    .number()
    .refine((size) => (PAGE_SIZES as readonly number[]).includes(size), {
      error: (issue) => `page size must be one of ${PAGE_SIZES.join(", ")}, got ${String(issue.input)}`,
    })
    .optional(),
});
