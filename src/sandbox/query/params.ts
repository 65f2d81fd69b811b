/**
 * Parsers of filter parameters. Each returns the parsed value or records a
 * violation at `path` and returns undefined; they never throw, whatever the
 * body holds. Identifier parsers add their value count to `ctx.ids` for the
 * 1,000-identifier limit.
 */
import { got, type Violation } from "../server/errors.js";

export interface ParseContext {
  violations: Violation[];
  /** Identifier values seen in the whole filter. */
  ids: number;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(ctx: ParseContext, path: string, message: string): undefined {
  ctx.violations.push({ path, message });
  return undefined;
}

/** One value or a non-empty list of values, each checked by `one`. */
export function oneOrMany<T>(ctx: ParseContext, path: string, value: unknown, one: (v: unknown) => T | undefined, what: string, countIds = false): T[] | undefined {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) return fail(ctx, path, `expected one or more ${what}, got []`);
  const out: T[] = [];
  let bad = false;
  list.forEach((item, k) => {
    const parsed = one(item);
    if (parsed === undefined) {
      bad = true;
      fail(ctx, Array.isArray(value) ? `${path}[${k}]` : path, `expected ${what}, got ${got(item)}`);
    } else {
      out.push(parsed);
    }
  });
  if (countIds) ctx.ids += list.length;
  return bad ? undefined : out;
}

/** An integer id, also accepted as a string of digits (the docs show {"organization": "1"}). */
export function intId(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string" && /^\d{1,15}$/.test(v)) return Number(v);
  return undefined;
}

export function nonEmptyString(v: unknown): string | undefined {
  return typeof v === "string" && v.length > 0 ? v : undefined;
}

/**
 * A numeric code (EAN, CIP, ...), as a string or an integer. Normalised to its
 * digits without leading zeros, so "0712345678906" and 712345678906 match.
 */
export function digitCode(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return String(v);
  if (typeof v === "string" && /^\d{1,20}$/.test(v)) return v.replace(/^0+(?=\d)/, "");
  return undefined;
}

export function enumOf<T extends string>(allowed: readonly T[]): (v: unknown) => T | undefined {
  return (v) => (typeof v === "string" && (allowed as readonly string[]).includes(v) ? (v as T) : undefined);
}

export function bool(ctx: ParseContext, path: string, value: unknown): boolean | undefined {
  return typeof value === "boolean" ? value : fail(ctx, path, `expected true or false, got ${got(value)}`);
}

export interface TimeRange {
  from: number;
  until: number;
}

/**
 * A timestamp filter: one Unix timestamp or {from, until} (either may be
 * omitted, both inclusive). `single` says what a lone timestamp means.
 */
export function timeRange(ctx: ParseContext, path: string, value: unknown, single: "since" | "exact"): TimeRange | undefined {
  if (typeof value === "number" && Number.isFinite(value)) {
    return single === "since" ? { from: value, until: Infinity } : { from: value, until: value };
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    const unknown = keys.filter((k) => k !== "from" && k !== "until");
    if (unknown.length > 0) return fail(ctx, `${path}.${unknown[0]}`, `unknown key; a time range has from and until, got ${got(unknown[0])}`);
    if (keys.length === 0) return fail(ctx, path, "expected from and/or until, got {}");
    const from = value.from ?? -Infinity;
    const until = value.until ?? Infinity;
    if (typeof from !== "number" || Number.isNaN(from)) return fail(ctx, `${path}.from`, `expected a Unix timestamp, got ${got(value.from)}`);
    if (typeof until !== "number" || Number.isNaN(until)) return fail(ctx, `${path}.until`, `expected a Unix timestamp, got ${got(value.until)}`);
    return { from, until };
  }
  return fail(ctx, path, `expected a Unix timestamp or {from, until}, got ${got(value)}`);
}

/** An object with exactly the given keys (required ones present, no others). */
export function shape(ctx: ParseContext, path: string, value: unknown, required: readonly string[], optional: readonly string[]): Record<string, unknown> | undefined {
  if (!isPlainObject(value)) return fail(ctx, path, `expected an object with ${required.join(", ")}, got ${got(value)}`);
  let ok = true;
  for (const key of Object.keys(value)) {
    if (!required.includes(key) && !optional.includes(key)) ok = !!fail(ctx, `${path}.${key}`, `unknown key, got ${got(key)}`);
  }
  for (const key of required) {
    if (!(key in value)) ok = !!fail(ctx, `${path}.${key}`, "is required");
  }
  return ok ? value : undefined;
}

export function violation(ctx: ParseContext, path: string, message: string): undefined {
  return fail(ctx, path, message);
}
