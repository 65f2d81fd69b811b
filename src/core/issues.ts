/**
 * Turns zod issues into lines a user can act on: the file, the JSON path, what
 * was expected and what was found. All issues are listed, not only the first.
 */
import type { z } from "zod";

type Issue = z.core.$ZodIssue;

/** `channels[2].images.minPixels` */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
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

export function formatIssue(issue: Issue, input: unknown): string {
  const path = jsonPath(issue.path);
  if (issue.code === "unrecognized_keys") {
    return `${path}: unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")} (a typo?)`;
  }
  // zod's own wording already says what was expected; we add what was found.
  const message = issue.message.replace(/^Invalid input: /, "");
  const value = valueAt(input, issue.path);
  return `${path}: ${message}, got ${isSecretPath(issue.path) ? describeSecret(value) : describe(value)}`;
}

export function formatIssues(file: string, issues: readonly Issue[], input: unknown): string {
  const lines = issues.map((issue) => `  ${file}: ${formatIssue(issue, input)}`);
  return `${file} is invalid (${issues.length} problem${issues.length > 1 ? "s" : ""}):\n${lines.join("\n")}`;
}
