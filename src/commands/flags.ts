/**
 * Flag values checked as yargs parses them, so that a bad one is a usage error
 * (exit 2) naming the flag, the value and what was expected, never a NaN that
 * reaches a server's listen() or a zod schema and comes back as a stack trace.
 *
 * The flags are declared as strings and read here: yargs' own number parsing
 * turns `abc` into NaN (the value is lost for the message) and accepts `1e2`,
 * `0x10` and ` 7` as numbers.
 */
import { availableParallelism } from "node:os";
import type { Options } from "yargs";
import { MAX_TIMER_MS } from "../core/duration.js";
import { isShopPattern } from "../config/shops.js";

/** Thrown inside a coerce function; yargs hands the message to cli.ts's fail handler (USAGE). */
function refuse(flag: string, value: unknown, expected: string): never {
  const given = value === "" || value === undefined ? "nothing" : JSON.stringify(value);
  throw new Error(`--${flag}: expected ${expected}, got ${given}`);
}

const INTEGER = /^-?\d+$/;

export interface IntegerFlag {
  min: number;
  max?: number;
  /** What the value is, for the message: "a port", "a worker count". */
  what?: string;
  /** Said after the range, e.g. "(0: any free port)". */
  note?: string;
}

export function parseInteger(flag: string, value: unknown, { min, max, what = "an integer", note }: IntegerFlag): number {
  const range = max === undefined ? `>= ${min}` : `from ${min} to ${max}`;
  const expected = `${what} ${range}${note ? ` ${note}` : ""}`;
  if (Array.isArray(value)) refuse(flag, value.join(" "), `${expected}, given once`);
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : "";
  if (!INTEGER.test(text)) refuse(flag, value, expected);
  const number = Number(text);
  if (!Number.isSafeInteger(number) || number < min || (max !== undefined && number > max)) refuse(flag, value, expected);
  return number;
}

/** A yargs option whose value must be an integer in range; `undefined` stays undefined (no default). */
export function integerOption(flag: string, spec: IntegerFlag, options: Omit<Options, "type" | "coerce"> = {}): Options {
  return {
    ...options,
    type: "string",
    requiresArg: true,
    coerce: (value: unknown) => (value === undefined ? undefined : parseInteger(flag, value, spec)),
  };
}

/** A TCP port; 0 asks the system for any free one (tests, the demo). */
export const PORT: IntegerFlag = { min: 0, max: 65535, what: "a port", note: "(0: any free port)" };

/**
 * Worker threads: more than four per core only adds memory (each thread has its
 * own heap, ~56 MB, README "Memory") and contention, never speed.
 */
export function workersFlag(cores = availableParallelism()): IntegerFlag {
  return { min: 0, max: Math.max(1, cores) * 4, what: "a worker count", note: `(0: none; at most 4 per core, ${Math.max(1, cores)} core${cores > 1 ? "s" : ""} here)` };
}

/** The sandbox's generator seed: any 32-bit integer (the generator's PRNG state). */
export const SEED: IntegerFlag = { min: -(2 ** 31), max: 2 ** 31 - 1, what: "an integer seed" };

/** A duration in milliseconds a timer will wait (see MAX_TIMER_MS). */
export function MS(min: number): IntegerFlag {
  return { min, max: MAX_TIMER_MS, what: "milliseconds" };
}

/**
 * `--shop`'s value: one shop's name. Blank (an unset `$SHOP`) reached picomatch, which threw; a
 * pattern was matched as one, so `rollback --shop 'a*'` rolled back and pinned whichever shop it
 * matched: a one-shop command is told its shop exactly.
 */
export function shopName(value: unknown): string {
  const text = typeof value === "string" ? value : "";
  if (text.trim() === "") refuse("shop", value, "a shop's name");
  if (isShopPattern(text)) refuse("shop", value, "one shop's exact name, not a pattern (only generate --shops takes patterns)");
  return text;
}

/** `--shops`' values: a shop's name or a glob each; none, or a blank one (an unset `$SHOPS`), would run every shop or none. */
export function shopPatterns(values: unknown): string[] {
  const list = Array.isArray(values) ? (values as unknown[]) : [values];
  const expected = "shop names or globs (e.g. --shops 'pharmacie-*')";
  if (list.length === 0) refuse("shops", "", expected);
  for (const value of list) if (typeof value !== "string" || value.trim() === "") refuse("shops", value, `${expected}, none of them blank`);
  return list as string[];
}

/** `--shop`: which shop of a config with `shops` a one-shop command works on (docs/shops.md). */
export const SHOP_OPTION = {
  type: "string",
  requiresArg: true,
  describe: "a config with shops: the shop to work on, by its name (docs/shops.md)",
  coerce: (value: unknown) => (value === undefined ? undefined : shopName(value)),
} as const satisfies Options;
