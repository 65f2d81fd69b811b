/**
 * Turns zod issues into lines a user can act on: the file, the JSON path, what
 * was expected and what was found. All issues are listed, not only the first.
 */
import type { z } from "zod";

type Issue = z.core.$ZodIssue;

/** A key written as `.key`: one a reader cannot take for two (`EAN.13`), a list index (`12`) or nothing. */
const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/** `channels[2].images.minPixels`; a key that is not a plain name in brackets: `offers.columns["EAN.13"]`, `googleCategoryMap["12"]`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (!PLAIN_KEY.test(String(key))) out += `[${JSON.stringify(String(key))}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  // JSON.parse reads 1e400 as Infinity, which JSON.stringify would call null.
  if (typeof value === "number" && !Number.isFinite(value)) return `a number too large to hold (${value > 0 ? "" : "-"}1.8e308 or more)`;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Paths whose values are credentials: a webhook URL (the URL is the credential), request
 * headers (an Authorization), and keys named like a secret (keySecret, password, token, a
 * private key or passphrase, a secretAccessKey). An error there says what was wrong, never the value.
 */
export function isSecretPath(path: readonly PropertyKey[]): boolean {
  const keys = path.filter((key): key is string => typeof key === "string");
  if (keys.includes("headers")) return true;
  if (keys.at(-1) === "url" && keys.includes("webhooks")) return true;
  return keys.some((key) => /secret|password|passphrase|token|private/i.test(key));
}

function describeSecret(value: unknown): string {
  if (value === undefined) return "nothing";
  const size = typeof value === "string" ? `${value.length} characters` : `a ${typeof value}`;
  return `a value of ${size} (not shown: it is a secret)`;
}

/** zod's type names, as a sentence says them. */
const KINDS: Record<string, string> = {
  string: "a text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object ({...})",
  array: "a list ([...])",
  bigint: "a whole number",
  date: "a date",
};

/** What one alternative of a union wanted, in words (undefined when zod's words are all it gives). */
function wantedBy(alternative: readonly Issue[]): string | undefined {
  const first = alternative[0];
  if (first === undefined || first.path.length > 0) return undefined;
  if (first.code === "invalid_type") return first.expected === "tuple" ? "a list ([...])" : (KINDS[first.expected] ?? first.expected);
  if (first.code === "invalid_value") return first.values.map((v) => JSON.stringify(v)).join(" or ");
  return undefined;
}

/** What is wrong at the issue's path: what was expected and what was found (formatIssue puts the path before it). */
export function issueMessage(issue: Issue, input: unknown): string {
  // zod says "Invalid input" for a value no alternative takes: say what the alternatives take.
  if (issue.code === "invalid_union") {
    const wanted = [...new Set(issue.errors.map(wantedBy))];
    if (wanted.length > 0 && wanted.every((w) => w !== undefined)) {
      const value = valueAt(input, issue.path);
      return `${wanted.join(" or ")} is needed, got ${isSecretPath(issue.path) ? describeSecret(value) : describe(value)}`;
    }
  }
  // A record's key: the key is what is wrong, not its value.
  if (issue.code === "invalid_key") {
    const key = issue.path.at(-1);
    const why = issue.issues.map((i) => i.message.replace(/^Invalid (input|string): /, "")).join("; ");
    return `the key ${JSON.stringify(String(key))} is refused: ${why}`;
  }
  if (issue.code === "unrecognized_keys") {
    return `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")} (a typo?)`;
  }
  // zod says "expected string, received undefined": in words, a value that is missing or of the wrong kind.
  if (issue.code === "invalid_type") {
    const value = valueAt(input, issue.path);
    const wanted = KINDS[issue.expected] ?? issue.expected;
    if (value === undefined) return `missing, ${wanted} is needed`;
    return `${wanted} is needed, got ${isSecretPath(issue.path) ? describeSecret(value) : describe(value)}`;
  }
  // zod's own wording already says what was expected; we add what was found.
  const message = issue.message.replace(/^Invalid input: /, "");
  const value = valueAt(input, issue.path);
  return `${message}, got ${isSecretPath(issue.path) ? describeSecret(value) : describe(value)}`;
}

export function formatIssue(issue: Issue, input: unknown): string {
  return `${jsonPath(issue.path)}: ${issueMessage(issue, input)}`;
}

export function formatIssues(file: string, issues: readonly Issue[], input: unknown): string {
  const lines = issues.map((issue) => `  ${file}: ${formatIssue(issue, input)}`);
  return `${file} is invalid (${issues.length} problem${issues.length > 1 ? "s" : ""}):\n${lines.join("\n")}`;
}
