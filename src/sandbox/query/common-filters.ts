/** Filter builders shared by the tables of the non-product endpoints. */
import type { Wire } from "../generate/types.js";
import type { FilterDef } from "./filter.js";
import { localizedText } from "./match.js";
import { enumOf, intId, nonEmptyString, oneOrMany, shape, timeRange, violation } from "./params.js";

/** A filter on a set of values; `read` gives the record's value(s). */
export function valuesFilter<R, V>(one: (v: unknown) => V | undefined, what: string, read: (row: R) => unknown, ids = false): FilterDef<R> {
  return {
    parse(ctx, path, value) {
      const list = oneOrMany(ctx, path, value, one, what, ids);
      if (!list) return undefined;
      const set = new Set<unknown>(list);
      return (row) => {
        const v = read(row);
        if (Array.isArray(v)) return v.some((x) => set.has(x));
        return set.has(v);
      };
    },
  };
}

export const intIds = <R>(what: string, read: (row: R) => unknown): FilterDef<R> => valuesFilter(intId, what, read, true);
export const stringIds = <R>(what: string, read: (row: R) => unknown): FilterDef<R> => valuesFilter(nonEmptyString, what, read, true);
export const enumFilter = <R>(allowed: readonly string[], read: (row: R) => unknown): FilterDef<R> => valuesFilter(enumOf(allowed), `one of ${allowed.join(", ")}`, read);
export const stringValues = <R>(what: string, read: (row: R) => unknown): FilterDef<R> => valuesFilter(nonEmptyString, what, read);

/** Timestamp filter on a record's meta (createdAt / updatedAt): a lone timestamp means ">= ts". */
export function metaTime<R extends Wire>(field: "createdAt" | "updatedAt"): FilterDef<R> {
  return {
    parse(ctx, path, value) {
      const range = timeRange(ctx, path, value, "since");
      if (!range) return undefined;
      return (row) => {
        const t = (row.meta as Record<string, number> | undefined)?.[field];
        return typeof t === "number" && t >= range.from && t <= range.until;
      };
    },
  };
}

/** search as a string: case-insensitive substring of the name (any locale when localized). */
export function searchString<R extends Wire>(read: (row: R) => unknown = (row) => row.name): FilterDef<R> {
  return {
    parse(ctx, path, value) {
      if (typeof value !== "string") return violation(ctx, path, `expected a search string, got ${JSON.stringify(value)}`);
      const needle = value.toLowerCase();
      return (row) => localizedText(read(row), undefined).some((t) => t.toLowerCase().includes(needle));
    },
  };
}

/** search as {query, locale}: case-insensitive substring of name[locale]. */
export function searchLocalized<R extends Wire>(): FilterDef<R> {
  return {
    parse(ctx, path, value) {
      const obj = shape(ctx, path, value, ["query", "locale"], []);
      if (!obj) return undefined;
      if (typeof obj.query !== "string") return violation(ctx, `${path}.query`, `expected a string, got ${JSON.stringify(obj.query)}`);
      if (typeof obj.locale !== "string") return violation(ctx, `${path}.locale`, `expected a locale code, got ${JSON.stringify(obj.locale)}`);
      const needle = obj.query.toLowerCase();
      const locale = obj.locale;
      return (row) => localizedText(row.name, locale).some((t) => t.toLowerCase().includes(needle));
    },
  };
}

export function booleanFilter<R>(read: (row: R) => boolean): FilterDef<R> {
  return {
    parse(ctx, path, value) {
      if (typeof value !== "boolean") return violation(ctx, path, `expected true or false, got ${JSON.stringify(value)}`);
      return (row) => read(row) === value;
    },
  };
}
