/**
 * One stream line -> its envelope (`meta.index`, `meta.total`) and then, only if
 * the caller still needs it, the validated record. Pure: a bad line is a value
 * (`Rejection`), never a throw, so the stream goes on.
 */
import type { z } from "zod";
import { compileChecker } from "../schemas/checker.js";
import { StreamLine } from "../schemas/envelopes.js";
import { formatPath } from "../query/validate.js";

export const REJECTION_CODES = ["MALFORMED_LINE", "INVALID_RECORD", "DUPLICATE_ID"] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

export interface Rejection {
  /**
   * MALFORMED_LINE: not JSON, or not a `{meta: {total, index}, result}` line. INVALID_RECORD: the record failed its schema.
   * DUPLICATE_ID: an earlier line of the stream carried the same record id (the first one is kept).
   */
  code: RejectionCode;
  /** 1-based line number in the response body. */
  line: number;
  /** The line's meta.index, when it could be read. */
  index?: number;
  /** The record's id (the product id for products), when it could be read. */
  id?: string | number;
  /** JSON path within the line that failed, e.g. `result.brands[0].id`. */
  path?: string;
  message: string;
}

export type Envelope =
  | { ok: true; index: number; total: number; result: unknown }
  | { ok: false; reason: Rejection };

const envelopeCheck = compileChecker(StreamLine);

const LEADING_ID = /"result"\s*:\s*\{\s*"id"\s*:\s*("(?:[^"\\]|\\.){1,200}"|\d{1,20})/;

/** Best effort for a line that is not JSON: the id when the record starts with it. */
function idFromText(text: string): string | number | undefined {
  const match = LEADING_ID.exec(text);
  if (!match?.[1]) return undefined;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return undefined;
  }
}

function idOf(result: unknown): string | number | undefined {
  const id = (result as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

const OPEN = bytesOf('{"meta":{"');
const KEY_END = bytesOf('":');
const BETWEEN = bytesOf(',"');
const CLOSE = bytesOf('},"result":{');
const ID_KEY = bytesOf('"id":');
const TOTAL = bytesOf("total");
const INDEX = bytesOf("index");

function bytesOf(ascii: string): Uint8Array {
  return Uint8Array.from(ascii, (c) => c.charCodeAt(0));
}

/**
 * meta.index and meta.total read from the first bytes of a line, without
 * decoding or parsing it, when the line starts as the service writes it:
 * `{"meta":{"total":T,"index":I},"result":{` (or index first). Undefined for
 * anything else: then the line is parsed. The rest of the line is checked by
 * whoever parses it later.
 */
export function peekEnvelope(line: Uint8Array): { index: number; total: number; id?: Uint8Array } | undefined {
  let at = 0;
  const literal = (bytes: Uint8Array): boolean => {
    for (let i = 0; i < bytes.length; i++) if (line[at + i] !== bytes[i]) return false;
    at += bytes.length;
    return true;
  };
  const key = (): "index" | "total" | undefined => (literal(TOTAL) ? "total" : literal(INDEX) ? "index" : undefined);
  const digits = (): number | undefined => {
    let value = 0;
    const from = at;
    while (at < line.length && at - from < 15 && line[at]! >= 0x30 && line[at]! <= 0x39) value = value * 10 + line[at++]! - 0x30;
    return at === from ? undefined : value;
  };
  if (!literal(OPEN)) return undefined;
  const first = key();
  if (first === undefined || !literal(KEY_END)) return undefined;
  const a = digits();
  if (a === undefined || !literal(BETWEEN)) return undefined;
  const second = key();
  if (second === undefined || second === first || !literal(KEY_END)) return undefined;
  const b = digits();
  if (b === undefined || !literal(CLOSE)) return undefined;
  const envelope = first === "index" ? { index: a, total: b } : { index: b, total: a };
  const id = literal(ID_KEY) ? idToken(line, at) : undefined;
  return id === undefined ? envelope : { ...envelope, id };
}

/**
 * The JSON token of an id starting at `at` (a string without escapes, quotes included, or
 * digits), as idKey() would write it; undefined for anything else (then the line is parsed).
 */
function idToken(line: Uint8Array, at: number): Uint8Array | undefined {
  let end = at;
  if (line[at] === 0x22) {
    for (end = at + 1; end < line.length && line[end] !== 0x22; end++) if (line[end] === 0x5c || line[end]! < 0x20) return undefined;
    if (end >= line.length) return undefined;
    end++;
  } else {
    while (end < line.length && line[end]! >= 0x30 && line[end]! <= 0x39) end++;
    if (end === at || line[at] === 0x30) return undefined;
  }
  // The token must end the value: `,` or `}` next (so that `12.5` or `"a"x` are left to the parser).
  return line[end] === 0x2c || line[end] === 0x7d ? line.subarray(at, end) : undefined;
}

/** The key of a parsed record's id for the duplicate check (the JSON token, as idToken reads it); undefined without a usable id. */
export function idKey(result: unknown): string | undefined {
  const id = (result as { id?: unknown } | null)?.id;
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? JSON.stringify(id) : undefined;
}

/** `text` null: the line was longer than the splitter's limit. */
export function readEnvelope(text: string | null, line: number): Envelope {
  if (text === null) return { ok: false, reason: { code: "MALFORMED_LINE", line, message: "line too long" } };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const id = idFromText(text);
    return {
      ok: false,
      reason: {
        code: "MALFORMED_LINE",
        line,
        ...(id === undefined ? {} : { id }),
        message: `not JSON: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }
  if (envelopeCheck?.(json)) {
    const line = json as StreamLine;
    return { ok: true, index: line.meta.index, total: line.meta.total, result: line.result };
  }
  const envelope = StreamLine.safeParse(json);
  if (!envelope.success) {
    const issue = envelope.error.issues[0];
    const id = idOf((json as { result?: unknown } | null)?.result);
    return {
      ok: false,
      reason: {
        code: "MALFORMED_LINE",
        line,
        ...(id === undefined ? {} : { id }),
        path: formatPath(issue?.path ?? []),
        message: `not a stream line: ${issue?.message ?? "unexpected shape"}`,
      },
    };
  }
  // The result is taken from the parsed JSON, not the envelope's copy.
  return { ok: true, index: envelope.data.meta.index, total: envelope.data.meta.total, result: (json as { result: unknown }).result };
}

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: Rejection };

/**
 * Valid records are returned as parsed from JSON, not copied: the wire schemas
 * have no transforms, so zod's output would equal its input (see checker.ts).
 * zod itself speaks only for refused records, to name the issue and its path.
 */
export function checkRecord<T>(schema: z.ZodType<T>, result: unknown, line: number, index: number, prefix = "result"): Checked<T> {
  if (compileChecker(schema)?.(result)) return { ok: true, value: result as T };
  const parsed = schema.safeParse(result);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const id = idOf(result);
  const path = formatPath([prefix, ...(issue?.path ?? [])]);
  return {
    ok: false,
    reason: {
      code: "INVALID_RECORD",
      line,
      index,
      ...(id === undefined ? {} : { id }),
      path,
      message: issue?.message ?? "invalid record",
    },
  };
}
